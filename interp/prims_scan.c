/* prims_scan.c — exclusive scans and reductions per operator (NESL.md 6.8).
 * The identity depends on the element type, which for an empty sequence
 * only the instantiated type can tell. */
#include "prims_common.h"
#include "../rt/nesl_scalar.h"

typedef enum { SC_PLUS, SC_MULT, SC_MAX, SC_MIN, SC_OR, SC_AND, SC_XOR } ScanOp;

static Value scan_identity(ScanOp op, Type *elem)
{
    TypeKind k = type_prune(elem)->kind;
    switch (op) {
    case SC_PLUS: return k == TY_FLOAT ? v_float(0.0) : v_int(0);
    case SC_MULT: return k == TY_FLOAT ? v_float(1.0) : v_int(1);
    case SC_MAX:
        return k == TY_FLOAT ? v_float(-NESL_FLOAT_BIG) : k == TY_CHAR ? v_char(0) : v_int(INT32_MIN);
    case SC_MIN:
        return k == TY_FLOAT ? v_float(NESL_FLOAT_BIG) : k == TY_CHAR ? v_char(255) : v_int(INT32_MAX);
    case SC_OR: case SC_XOR: return k == TY_BOOL ? v_bool(false) : v_int(0);
    case SC_AND: return k == TY_BOOL ? v_bool(true) : v_int(-1);
    }
    ICE("bad scan op");
}

static Value combine(ScanOp op, Value a, Value b)
{
    switch (op) {
    case SC_PLUS:
        return a.kind == V_FLOAT ? v_float(a.f + b.f) : v_int(nesl_iadd(a.i, b.i));
    case SC_MULT:
        return a.kind == V_FLOAT ? v_float(a.f * b.f) : v_int(nesl_imul(a.i, b.i));
    case SC_MAX:
        if (a.kind == V_FLOAT) return a.f >= b.f ? a : b;
        if (a.kind == V_CHAR) return a.c >= b.c ? a : b;
        return a.i >= b.i ? a : b;
    case SC_MIN:
        if (a.kind == V_FLOAT) return a.f <= b.f ? a : b;
        if (a.kind == V_CHAR) return a.c <= b.c ? a : b;
        return a.i <= b.i ? a : b;
    case SC_OR:
        return a.kind == V_BOOL ? v_bool(a.b || b.b) : v_int(a.i | b.i);
    case SC_AND:
        return a.kind == V_BOOL ? v_bool(a.b && b.b) : v_int(a.i & b.i);
    case SC_XOR:
        return a.kind == V_BOOL ? v_bool(a.b != b.b) : v_int(a.i ^ b.i);
    }
    ICE("bad scan op");
}

static Value scan(Interp *I, ScanOp op, Value a, Type *ty)
{
    Seq *s = a.seq;
    Seq *r = seq_alloc(I->heap, s->len);
    Value acc = scan_identity(op, prim_res_type(ty)->elem);
    for (int64_t k = 0; k < s->len; k++) {
        r->elems[k] = acc;
        acc = combine(op, acc, s->elems[k]);
    }
    return v_seq(r);
}

static Value reduce(ScanOp op, Value a, Type *ty)
{
    Seq *s = a.seq;
    Value acc = scan_identity(op, prim_res_type(ty));
    for (int64_t k = 0; k < s->len; k++)
        acc = combine(op, acc, s->elems[k]);
    return acc;
}

#define SCAN_PRIM(ID, OP) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)where; return scan(I, OP, args[0], ty); }
#define REDUCE_PRIM(ID, OP) \
    Value p_##ID(Interp *I, Value *args, Type *ty, Span where) \
    { (void)I; (void)where; return reduce(OP, args[0], ty); }

SCAN_PRIM(PLUS_SCAN, SC_PLUS)
SCAN_PRIM(MULT_SCAN, SC_MULT)
SCAN_PRIM(MAX_SCAN, SC_MAX)
SCAN_PRIM(MIN_SCAN, SC_MIN)
SCAN_PRIM(OR_SCAN, SC_OR)
SCAN_PRIM(AND_SCAN, SC_AND)
SCAN_PRIM(XOR_SCAN, SC_XOR)
REDUCE_PRIM(SUM, SC_PLUS)
REDUCE_PRIM(PRODUCT, SC_MULT)
REDUCE_PRIM(MAX_VAL, SC_MAX)
REDUCE_PRIM(MIN_VAL, SC_MIN)
REDUCE_PRIM(ANY, SC_OR)
REDUCE_PRIM(ALL, SC_AND)
REDUCE_PRIM(PARITY, SC_XOR)
