/* prims_scalar.c — element-wise scalar primitives: logic, comparison,
 * arithmetic, float functions, conversions and random numbers.
 * Polymorphic primitives dispatch on the value's tag (NESL.md 4.4). */
#include <math.h>
#include "prims_common.h"
#include "rt/nesl_scalar.h"   /* the scalar semantics, shared with λcu and generated code */

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
    int32_t x = a.i, y = b.i;
    switch (op) {
    case LG_OR: return v_int(nesl_bor(x, y));
    case LG_AND: return v_int(nesl_band(x, y));
    case LG_XOR: return v_int(nesl_bxor(x, y));
    case LG_NOR: return v_int(nesl_bnot(nesl_bor(x, y)));
    case LG_NAND: return v_int(nesl_bnot(nesl_band(x, y)));
    }
    ICE("bad logic op");
}

Value p_NOT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_BOOL)
        return v_bool(!args[0].b);
    return v_int(nesl_bnot(args[0].i));
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
    if (args[0].kind == V_INT) return v_int(nesl_imax(args[0].i, args[1].i));
    if (args[0].kind == V_FLOAT) return v_float(nesl_fmax(args[0].f, args[1].f));
    if (args[0].kind == V_CHAR) return v_char((uint8_t)nesl_imax(args[0].c, args[1].c));
    return compare(args[0], args[1]) == -1 ? args[1] : args[0];   /* bool */
}

Value p_MIN(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_INT) return v_int(nesl_imin(args[0].i, args[1].i));
    if (args[0].kind == V_FLOAT) return v_float(nesl_fmin(args[0].f, args[1].f));
    if (args[0].kind == V_CHAR) return v_char((uint8_t)nesl_imin(args[0].c, args[1].c));
    return compare(args[0], args[1]) == 1 ? args[1] : args[0];   /* bool */
}

/* ------------------------------------------------------------------ arithmetic */

Value p_ADD(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f + args[1].f);
    return v_int(nesl_iadd(args[0].i, args[1].i));
}

Value p_SUB(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f - args[1].f);
    return v_int(nesl_isub(args[0].i, args[1].i));
}

Value p_MUL(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(args[0].f * args[1].f);
    return v_int(nesl_imul(args[0].i, args[1].i));
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
    return v_int(nesl_idiv(args[0].i, args[1].i));
}

Value p_NEG(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(-args[0].f);
    return v_int(nesl_ineg(args[0].i));
}

Value p_ABS(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    if (args[0].kind == V_FLOAT)
        return v_float(fabs(args[0].f));
    return v_int(nesl_iabs(args[0].i));
}

Value p_REM(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[1].i == 0)
        rt_error(I, where, "Divide by zero.");
    return v_int(nesl_rem(args[0].i, args[1].i));   /* sign of x */
}

Value p_MOD(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    if (args[1].i == 0)
        rt_error(I, where, "Divide by zero.");
    return v_int(nesl_mod(args[0].i, args[1].i));   /* sign of y */
}

/* Shifts by a negative amount or by 32 or more: 0 (lshift) or the sign fill
 * (rshift); see nesl_scalar.h. */
Value p_LSHIFT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(nesl_lshift(args[0].i, args[1].i));
}

Value p_RSHIFT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(nesl_rshift(args[0].i, args[1].i));
}

Value p_POW(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t k = args[1].i;
    if (k < 0)
        rt_error(I, where, "Negative exponent for ^.");
    if (args[0].kind == V_FLOAT)
        return v_float(nesl_fpow(args[0].f, k));
    return v_int(nesl_ipow(args[0].i, k));
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
    if (args[0].i < 0)
        rt_error(I, where, "Sqrt of negative number.");
    return v_int(nesl_isqrt(args[0].i));
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
    if (args[0].f < 0.0)
        rt_error(I, where, "Ln of negative number.");
    return v_float(nesl_expt(args[0].f, args[1].f));
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

/* Out-of-range float to int wraps modulo 2^32 or gives 0 (nesl_f2i);
 * round: nearest, halves up (matches the reference for x >= -0.5). */
#define CONV_PRIM(ID, FN) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)ty; (void)where; return v_int(FN(args[0].f)); }
CONV_PRIM(TRUNC, nesl_trunc)
CONV_PRIM(FLOOR, nesl_floor)
CONV_PRIM(CEIL, nesl_ceil)
CONV_PRIM(ROUND, nesl_round)

Value p_FLOAT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_float((double)args[0].i);
}

Value p_BTOI(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int(nesl_btoi(args[0].b));
}

Value p_CODE_CHAR(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_char((uint8_t)nesl_code_char(args[0].i));
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
    return args[1].kind == V_FLOAT ? args[0] : v_int(nesl_round(args[0].f));
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
