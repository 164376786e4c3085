/* nesl_scalar.h — NESL 3.1's scalar semantics: the one C definition shared
 * by the AST interpreter (interp/prims_scalar.c), the λcu interpreter (lcu/)
 * and generated host and CUDA code.  Header-only.
 *
 * int is 32-bit two's complement: + - * and negation wrap modulo 2^32.
 * Every function assumes valid inputs; the callers check (or the flattener
 * guards) division by zero, square roots and logarithms of negatives and
 * negative exponents.  Nothing here is C undefined behaviour for valid
 * inputs, INT_MIN / -1 and INT_MIN % -1 included. */
#ifndef NESL_SCALAR_H
#define NESL_SCALAR_H

#ifdef __CUDACC__
#define NESL_HD __host__ __device__
#else
#define NESL_HD
#endif

#include <math.h>
#include <stdint.h>

/* ---- wrapping 32-bit arithmetic ---- */
static inline NESL_HD int32_t nesl_wrap32(uint32_t u) { return (int32_t)u; }
static inline NESL_HD int32_t nesl_iadd(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a + (uint32_t)b); }
static inline NESL_HD int32_t nesl_isub(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a - (uint32_t)b); }
static inline NESL_HD int32_t nesl_imul(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a * (uint32_t)b); }
static inline NESL_HD int32_t nesl_ineg(int32_t a) { return nesl_isub(0, a); }

/* Division and remainder stay in 32 bits: b == -1 is the one case whose C
 * operation overflows (INT_MIN / -1), and its answers are known.  (They
 * were 64-bit operations until ptxas (CUDA 13.0, -O3) computed some
 * elements of `rem (i * 9973 + 7, 997)` wrong in MAP's unrolled tail loop:
 * tests/codegen/rem_range.nesl.) */

/* Truncating division, b != 0; INT_MIN / -1 wraps back to INT_MIN. */
static inline NESL_HD int32_t nesl_idiv(int32_t a, int32_t b)
{
    return b == -1 ? nesl_ineg(a) : a / b;
}

/* rem: C's remainder, the sign of a (x rem -1 = 0); b != 0. */
static inline NESL_HD int32_t nesl_rem(int32_t a, int32_t b)
{
    return b == -1 ? 0 : a % b;
}

/* mod: the sign of b; b != 0. */
static inline NESL_HD int32_t nesl_mod(int32_t a, int32_t b)
{
    int32_t r = nesl_rem(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;   /* opposite signs: no overflow */
    return r;
}

static inline NESL_HD int32_t nesl_iabs(int32_t a) { return a < 0 ? nesl_ineg(a) : a; }
/* λcu's div_in: 0 <= a and 0 < b by construction, so unsigned division
 * (fewer instructions on the GPU than signed) gives a / b. */
static inline NESL_HD int32_t nesl_div_in(int32_t a, int32_t b) { return (int32_t)((uint32_t)a / (uint32_t)b); }
/* λcu's pos_in: 0 <= r < l by construction (a fact for fusion), so r. */
static inline NESL_HD int32_t nesl_pos_in(int32_t r, int32_t l) { (void)l; return r; }

/* ---- bits ---- */
static inline NESL_HD int32_t nesl_band(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a & (uint32_t)b); }
static inline NESL_HD int32_t nesl_bor(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a | (uint32_t)b); }
static inline NESL_HD int32_t nesl_bxor(int32_t a, int32_t b) { return nesl_wrap32((uint32_t)a ^ (uint32_t)b); }
static inline NESL_HD int32_t nesl_bnot(int32_t a) { return nesl_wrap32(~(uint32_t)a); }

/* Shifts by a negative amount or by 32 or more are implementation-defined
 * in NESL (NESL.md 5.2); they give 0 (lshift) or the sign fill (rshift). */
static inline NESL_HD int32_t nesl_lshift(int32_t x, int32_t k)
{
    if (k < 0 || k >= 32)
        return 0;
    return nesl_wrap32((uint32_t)x << k);
}

static inline NESL_HD int32_t nesl_rshift(int32_t x, int32_t k)
{
    if (k < 0 || k >= 32)
        return x < 0 ? -1 : 0;
    /* Arithmetic shift written without right-shifting a negative number. */
    return x >= 0 ? x >> k : ~((~x) >> k);
}

/* ---- powers and roots ---- */
/* x ^ k by repeated squaring, wrapping; k >= 0. */
static inline NESL_HD int32_t nesl_ipow(int32_t x, int32_t k)
{
    uint32_t r = 1, b = (uint32_t)x;
    for (; k > 0; k >>= 1, b *= b)
        if (k & 1)
            r *= b;
    return nesl_wrap32(r);
}

/* x ^ k for a float x by repeated squaring (not pow()); k >= 0. */
static inline NESL_HD double nesl_fpow(double x, int32_t k)
{
    double r = 1.0;
    for (; k > 0; k >>= 1, x *= x)
        if (k & 1)
            r *= x;
    return r;
}

/* The same in single precision (-ffloat32). */
static inline NESL_HD float nesl_fpowf(float x, int32_t k)
{
    float r = 1.0f;
    for (; k > 0; k >>= 1, x *= x)
        if (k & 1)
            r *= x;
    return r;
}

/* Exact floor of the square root; n >= 0. */
static inline NESL_HD int32_t nesl_isqrt(int32_t n)
{
    int64_t r = (int64_t)sqrt((double)n);
    while (r * r > n) r--;                  /* exact floor despite rounding */
    while ((r + 1) * (r + 1) <= n) r++;
    return (int32_t)r;
}

/* expt x p = x to the power p; x >= 0. */
static inline NESL_HD double nesl_expt(double x, double p)
{
    return x == 0.0 ? (p > 0.0 ? 0.0 : exp(p * log(x))) : pow(x, p);
}

static inline NESL_HD float nesl_exptf(float x, float p)
{
    return x == 0.0f ? (p > 0.0f ? 0.0f : expf(p * logf(x))) : powf(x, p);
}

/* ---- float to int ---- */
/* Out-of-range float to int is undefined in NESL; here it wraps modulo 2^32
 * (or gives 0 for NaN and huge values) instead of being C undefined behaviour. */
static inline NESL_HD int32_t nesl_f2i(double x)
{
    if (!(x > -9.2e18 && x < 9.2e18))
        return 0;
    return nesl_wrap32((uint32_t)(uint64_t)(int64_t)x);
}

static inline NESL_HD int32_t nesl_trunc(double x) { return nesl_f2i(trunc(x)); }
static inline NESL_HD int32_t nesl_floor(double x) { return nesl_f2i(floor(x)); }
static inline NESL_HD int32_t nesl_ceil(double x) { return nesl_f2i(ceil(x)); }
/* NESL.md 5.3: nearest, halves up: round(2.5) = 3, round(-2.5) = -2. */
static inline NESL_HD int32_t nesl_round(double x) { return nesl_f2i(floor(x + 0.5)); }
/* -ffloat32 calls these on floats too: the promotion to double is exact, so
 * the int is that of the float's exact value. */

/* ---- min, max (a NaN argument: the first one wins), chars, bools ---- */
static inline NESL_HD int32_t nesl_imax(int32_t a, int32_t b) { return a < b ? b : a; }
static inline NESL_HD int32_t nesl_imin(int32_t a, int32_t b) { return a > b ? b : a; }
static inline NESL_HD double nesl_fmax(double a, double b) { return a < b ? b : a; }
static inline NESL_HD double nesl_fmin(double a, double b) { return a > b ? b : a; }
static inline NESL_HD float nesl_fmaxf(float a, float b) { return a < b ? b : a; }
static inline NESL_HD float nesl_fminf(float a, float b) { return a > b ? b : a; }

/* code_char: the low 8 bits; char_code is the identity on 0..255. */
static inline NESL_HD int32_t nesl_code_char(int32_t x) { return (int32_t)((uint32_t)x & 255u); }
static inline NESL_HD int32_t nesl_btoi(int b) { return b ? 1 : 0; }

/* ---- guard (c, site, kind): NESL's runtime errors checked inside kernels
 * (flatten/prims.c): kind indexes these messages, the interpreter's
 * wording.  Host code reads the table; device code records the index. ---- */
enum { NESL_G_DIV, NESL_G_SQRT, NESL_G_LN, NESL_G_POW, NESL_G_INDEX, NESL_G_COUNT };
static inline const char *nesl_guard_msg(int kind)
{
    switch (kind) {
    case NESL_G_DIV: return "Divide by zero.";
    case NESL_G_SQRT: return "Sqrt of negative number.";
    case NESL_G_LN: return "Ln of negative number.";
    case NESL_G_POW: return "Negative exponent for ^.";
    case NESL_G_INDEX: return "Sequence reference (a[i]) out of bounds.";
    }
    return "(unknown guard)";
}

#endif
