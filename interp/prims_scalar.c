/* prims_scalar.c — element-wise scalar primitives: logic, comparison,
 * arithmetic, float functions, conversions and random numbers.
 * Polymorphic primitives dispatch on the value's tag (NESL.md 4.4). */
#include <math.h>
#include "prims_common.h"

/* ------------------------------------------------------------------ logic */

typedef enum { LG_OR, LG_AND, LG_XOR, LG_NOR, LG_NAND } LogicOp;

static Value logic(LogicOp op, Value a, Value b)
{
    if (a.kind == V_BOOL) {
        bool x = a.b, y = b.b;
        switch (op) {
        case LG_OR: return v_bool(x || y);
        case LG_AND: return v_bool(x && y);
        case LG_XOR: return v_bool(x != y);
        case LG_NOR: return v_bool(!(x || y));
        case LG_NAND: return v_bool(!(x && y));
        }
    }
    uint32_t x = (uint32_t)a.i, y = (uint32_t)b.i;
    switch (op) {
    case LG_OR: return v_int(wrap32(x | y));
    case LG_AND: return v_int(wrap32(x & y));
    case LG_XOR: return v_int(wrap32(x ^ y));
    case LG_NOR: return v_int(wrap32(~(x | y)));
    case LG_NAND: return v_int(wrap32(~(x & y)));
    }
    ICE("bad logic op");
}

Value p_NOT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_BOOL)
        return v_bool(!args[0].b);
    return v_int(wrap32(~(uint32_t)args[0].i));
}

#define LOGIC_PRIM(ID, OP) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)ty; (void)where; return logic(OP, args[0], args[1]); }
LOGIC_PRIM(OR, LG_OR)
LOGIC_PRIM(AND, LG_AND)
LOGIC_PRIM(XOR, LG_XOR)
LOGIC_PRIM(NOR, LG_NOR)
LOGIC_PRIM(NAND, LG_NAND)

/* ------------------------------------------------------------------ comparison */

/* -1, 0, 1; 2 when unordered (a NaN is involved). */
static int compare(Value a, Value b)
{
    switch (a.kind) {
    case V_INT: return (a.i > b.i) - (a.i < b.i);
    case V_CHAR: return (a.c > b.c) - (a.c < b.c);
    case V_FLOAT:
        if (a.f < b.f) return -1;
        if (a.f > b.f) return 1;
        return a.f == b.f ? 0 : 2;
    case V_BOOL: return (a.b > b.b) - (a.b < b.b);
    case V_SEQ: case V_PAIR: case V_DATA: case V_FUN: case V_STREAM:
        break;
    }
    ICE("comparison of a non-ordinal value");
}

#define CMP_PRIM(ID, TEST) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)ty; (void)where; int c = compare(args[0], args[1]); return v_bool(TEST); }
CMP_PRIM(EQ, c == 0)
CMP_PRIM(NE, c != 0)
CMP_PRIM(LT, c == -1)
CMP_PRIM(GT, c == 1)
CMP_PRIM(LE, c == -1 || c == 0)
CMP_PRIM(GE, c == 1 || c == 0)

Value p_MAX(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return compare(args[0], args[1]) == -1 ? args[1] : args[0];
}

Value p_MIN(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return compare(args[0], args[1]) == 1 ? args[1] : args[0];
}

/* ------------------------------------------------------------------ arithmetic */

Value p_ADD(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f + args[1].f);
    return v_int(iadd(args[0].i, args[1].i));
}

Value p_SUB(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f - args[1].f);
    return v_int(isub(args[0].i, args[1].i));
}

Value p_MUL(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f * args[1].f);
    return v_int(imul(args[0].i, args[1].i));
}

Value p_DIV(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[0].kind == V_FLOAT) {
        if (args[1].f == 0.0)
            rt_error(I, where, "Divide by zero.");
        return v_float(args[0].f / args[1].f);
    }
    if (args[1].i == 0)
        rt_error(I, where, "Divide by zero.");
    /* In 64 bits INT_MIN / -1 does not overflow; it wraps back to INT_MIN. */
    return v_int(wrap32((uint32_t)((int64_t)args[0].i / args[1].i)));
}

Value p_NEG(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(-args[0].f);
    return v_int(isub(0, args[0].i));
}

Value p_ABS(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(fabs(args[0].f));
    return v_int(args[0].i < 0 ? isub(0, args[0].i) : args[0].i);
}

Value p_REM(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[1].i == 0)
        rt_error(I, where, "Divide by zero.");
    return v_int((int32_t)((int64_t)args[0].i % args[1].i));   /* sign of x */
}

Value p_MOD(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int64_t y = args[1].i;
    if (y == 0)
        rt_error(I, where, "Divide by zero.");
    int64_t r = (int64_t)args[0].i % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;                                                 /* sign of y */
    return v_int((int32_t)r);
}

/* Shifts by a negative amount or by 32 or more are implementation-defined
 * (NESL.md 5.2); they give 0 (lshift) or the sign fill (rshift). */
Value p_LSHIFT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    int32_t k = args[1].i;
    if (k < 0 || k >= 32)
        return v_int(0);
    return v_int(wrap32((uint32_t)args[0].i << k));
}

Value p_RSHIFT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    int32_t x = args[0].i, k = args[1].i;
    if (k < 0 || k >= 32)
        return v_int(x < 0 ? -1 : 0);
    /* Arithmetic shift written without right-shifting a negative number. */
    return v_int(x >= 0 ? x >> k : ~((~x) >> k));
}

Value p_POW(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t k = args[1].i;
    if (k < 0)
        rt_error(I, where, "Negative exponent for ^.");
    if (args[0].kind == V_FLOAT) {
        double r = 1.0, x = args[0].f;
        for (; k > 0; k >>= 1, x *= x)
            if (k & 1)
                r *= x;
        return v_float(r);
    }
    uint32_t r = 1, x = (uint32_t)args[0].i;
    for (; k > 0; k >>= 1, x *= x)
        if (k & 1)
            r *= x;
    return v_int(wrap32(r));
}

/* ------------------------------------------------------------------ float functions */

Value p_SQRT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[0].f < 0.0)
        rt_error(I, where, "Sqrt of negative number.");
    return v_float(sqrt(args[0].f));
}

Value p_ISQRT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int64_t n = args[0].i;
    if (n < 0)
        rt_error(I, where, "Sqrt of negative number.");
    int64_t r = (int64_t)sqrt((double)n);
    while (r * r > n) r--;                  /* exact floor despite rounding */
    while ((r + 1) * (r + 1) <= n) r++;
    return v_int((int32_t)r);
}

Value p_LN(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[0].f < 0.0)
        rt_error(I, where, "Ln of negative number.");
    return v_float(log(args[0].f));
}

Value p_EXPT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    double x = args[0].f, p = args[1].f;
    if (x < 0.0)
        rt_error(I, where, "Ln of negative number.");
    return v_float(x == 0.0 ? (p > 0.0 ? 0.0 : exp(p * log(x))) : pow(x, p));
}

#define MATH_PRIM(ID, FN) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)ty; (void)where; return v_float(FN(args[0].f)); }
MATH_PRIM(EXP, exp)
MATH_PRIM(SIN, sin)
MATH_PRIM(COS, cos)
MATH_PRIM(TAN, tan)
MATH_PRIM(ASIN, asin)
MATH_PRIM(ACOS, acos)
MATH_PRIM(ATAN, atan)
MATH_PRIM(SINH, sinh)
MATH_PRIM(COSH, cosh)
MATH_PRIM(TANH, tanh)

/* ------------------------------------------------------------------ conversions */

/* Out-of-range float to int is undefined in NESL; here it wraps modulo 2^32
 * (or gives 0 for NaN and huge values) instead of being C undefined behaviour. */
static int32_t f2i(double x)
{
    if (!(x > -9.2e18 && x < 9.2e18))
        return 0;
    return wrap32((uint32_t)(uint64_t)(int64_t)x);
}

#define CONV_PRIM(ID, FN) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)ty; (void)where; return v_int(f2i(FN(args[0].f))); }
CONV_PRIM(TRUNC, trunc)
CONV_PRIM(FLOOR, floor)
CONV_PRIM(CEIL, ceil)

/* NESL.md 5.3: nearest, halves up (matches the reference for x >= -0.5). */
Value p_ROUND(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(f2i(floor(args[0].f + 0.5)));
}

Value p_FLOAT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_float((double)args[0].i);
}

Value p_BTOI(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(args[0].b ? 1 : 0);
}

Value p_CODE_CHAR(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_char((uint8_t)((uint32_t)args[0].i & 255u));
}

Value p_CHAR_CODE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(args[0].c);
}

Value p_FLOAT_NUM(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return args[0].kind == V_FLOAT ? args[0] : v_float((double)args[0].i);
}

Value p_INT_TO_ANY(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return args[1].kind == V_FLOAT ? v_float((double)args[0].i) : args[0];
}

Value p_FLOAT_TO_ANY(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return args[1].kind == V_FLOAT ? args[0] : v_int(f2i(floor(args[0].f + 0.5)));
}

/* ------------------------------------------------------------------ random numbers */

/* splitmix64: small state, good statistical quality, trivially reseeded. */
static uint64_t rng_next(Interp *I)
{
    uint64_t z = (I->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define NESL_RNG_SEED 0x4E45534C33313121ull   /* "NESL31!" — any fixed value */

void rng_reseed(Interp *I)
{
    I->rng = NESL_RNG_SEED;
}

Value p_RAND(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[0].kind == V_FLOAT) {
        double v = args[0].f;
        if (!(v > 0.0))
            rt_error(I, where, "Rand of a non-positive number.");
        double r = (double)(rng_next(I) >> 34);          /* uniform in [0, 2^30) */
        return v_float(v * r / 1073741824.0);
    }
    int32_t v = args[0].i;
    if (v <= 0)
        rt_error(I, where, "Rand of a non-positive number.");
    uint32_t r = (uint32_t)(rng_next(I) >> 33);          /* 31 random bits */
    return v_int((int32_t)(r % (uint32_t)v));
}

Value p_RAND_SEED(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    I->rng = NESL_RNG_SEED ^ ((uint64_t)(uint32_t)args[0].i * 0x9E3779B97F4A7C15ull);
    return v_bool(true);
}
