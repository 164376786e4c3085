/* prims.c — primitives, unlifted and lifted.
 *
 * Element-wise scalar primitives become one MAP (plus a checking MAP and
 * REDUCE where the primitive can fail); reductions and scans become
 * REDUCE/SCAN or their SEG_ forms; sequence primitives are index
 * computations followed by rep_gather/rep_concat (rep.c).  Type-directed
 * primitives that are not data-parallel operations (string conversion,
 * hashing, I/O, rand) are library calls into the host bridge. */
#include <string.h>
#include "flatten_impl.h"
#include "rt/nesl_scalar.h"

static LcuBase base_of(Type *t)
{
    switch (type_prune(t)->kind) {
    case TY_INT: case TY_STREAM: return LB_INT;
    case TY_FLOAT: return LB_FLOAT;
    case TY_BOOL: return LB_BOOL;
    case TY_CHAR: return LB_CHAR;
    default: return LB_UNIT;
    }
}

static bool is_scalar(Type *t) { return base_of(t) != LB_UNIT; }

void fl_split_args(Fl *F, FVal arg, int k, FVal *out)
{
    for (int j = 0; j < k - 1; j++) {
        Type *t = type_prune(arg.type);
        out[j] = fv_slice(F, arg, t->fst, 0);
        arg = fv_slice(F, arg, t->snd, out[j].n);
    }
    out[k - 1] = arg;
}

/* Operand j of an element-wise operation at index i (or the uniform scalar). */
static LcuExpr *opnd(Fl *F, FVal v, Sym i) { return v.lifted ? X_idx(F, v.c[0], X_var(F, i)) : X_var(F, v.c[0]); }

static FVal vec1(Fl *F, Type *t, bool lifted, Sym x)
{
    Sym *c = arena_alloc(F->a, sizeof *c);
    c[0] = x;
    return fv_make(F, t, lifted, 1, c);
}

static Sym emit_int(Fl *F, LcuExpr *e) { return fl_emit(F, T_int(F), e); }
#define lengths_of fl_sd_lengths
#define offsets_of fl_sd_offsets
/* Lengths and offsets of a lifted sequence per element of the context,
 * through its indirection if it has one (segment ids the flattener made:
 * in range, as fv_direct reads them). */
static Sym seq_lengths(Fl *F, FVal a)
{
    Sym l = lengths_of(F, a.c[0]);
    return a.via ? fl_gather_in(F, LB_INT, l, a.via) : l;
}
static Sym seq_offsets(Fl *F, FVal a)
{
    Sym o = offsets_of(F, a.c[0]);
    return a.via ? fl_gather_in(F, LB_INT, o, a.via) : o;
}
#define segids_of fl_sd_segids
#define make_sd fl_make_sd
#define total_of fl_sd_total

/* A lifted check: fail when pred(i) holds for some i < n. */
static void check_any(Fl *F, const Ctx *cx, Span sp, Sym i, LcuExpr *pred, LcuExpr *n, const char *msg)
{
    Sym bad = fl_map(F, LB_BOOL, i, pred, n);
    fl_check_lifted(F, cx, sp, X_var(F, fl_any(F, bad)), msg);
}

/* ---- element-wise scalar primitives ---- */
static LcuExpr *B(Fl *F, LcuBinop op, LcuExpr *x, LcuExpr *y) { return X_bin(F, op, x, y); }
static LcuExpr *C1(Fl *F, const char *f, LcuExpr *x) { return X_call1(F, f, x); }
static LcuExpr *C2(Fl *F, const char *f, LcuExpr *x, LcuExpr *y) { return X_call2(F, f, x, y); }

LcuExpr *fl_scalar_op(Fl *F, int prim, Type *t0, Type *t1, LcuExpr **x)
{
    LcuBase b = base_of(t0);
    bool fl = b == LB_FLOAT, bo = b == LB_BOOL;
    switch (prim) {
    case PRIM_NOT: return bo ? X_un(F, LUOP_NOT, x[0]) : C1(F, "bnot", x[0]);
    case PRIM_OR: return bo ? B(F, LOP_OR, x[0], x[1]) : C2(F, "bor", x[0], x[1]);
    case PRIM_AND: return bo ? B(F, LOP_AND, x[0], x[1]) : C2(F, "band", x[0], x[1]);
    case PRIM_XOR: return bo ? B(F, LOP_NE, x[0], x[1]) : C2(F, "bxor", x[0], x[1]);
    case PRIM_NOR: return bo ? X_un(F, LUOP_NOT, B(F, LOP_OR, x[0], x[1])) : C1(F, "bnot", C2(F, "bor", x[0], x[1]));
    case PRIM_NAND: return bo ? X_un(F, LUOP_NOT, B(F, LOP_AND, x[0], x[1])) : C1(F, "bnot", C2(F, "band", x[0], x[1]));
    case PRIM_EQ: case PRIM_NE: case PRIM_LT: case PRIM_GT: case PRIM_LE: case PRIM_GE: {
        static const LcuBinop ops[] = { LOP_EQ, LOP_NE, LOP_LT, LOP_GT, LOP_LE, LOP_GE };
        LcuExpr *l = x[0], *r = x[1];
        if (bo && prim != PRIM_EQ && prim != PRIM_NE) { l = C1(F, "btoi", l); r = C1(F, "btoi", r); }
        return B(F, ops[prim - PRIM_EQ], l, r);
    }
    case PRIM_ADD: return B(F, LOP_ADD, x[0], x[1]);
    case PRIM_SUB: return B(F, LOP_SUB, x[0], x[1]);
    case PRIM_MUL: return B(F, LOP_MUL, x[0], x[1]);
    case PRIM_DIV: return B(F, LOP_DIV, x[0], x[1]);
    case PRIM_NEG: return X_un(F, LUOP_NEG, x[0]);
    case PRIM_ABS: return C1(F, fl ? "fabs" : "iabs", x[0]);
    case PRIM_MAX: return bo ? B(F, LOP_OR, x[0], x[1]) : C2(F, "max", x[0], x[1]);
    case PRIM_MIN: return bo ? B(F, LOP_AND, x[0], x[1]) : C2(F, "min", x[0], x[1]);
    case PRIM_REM: return C2(F, "rem", x[0], x[1]);
    case PRIM_MOD: return C2(F, "mod", x[0], x[1]);
    case PRIM_LSHIFT: return C2(F, "lshift", x[0], x[1]);
    case PRIM_RSHIFT: return C2(F, "rshift", x[0], x[1]);
    case PRIM_POW: return C2(F, fl ? "fpow" : "ipow", x[0], x[1]);
    case PRIM_SQRT: return C1(F, "sqrt", x[0]);
    case PRIM_ISQRT: return C1(F, "isqrt", x[0]);
    case PRIM_LN: return C1(F, "ln", x[0]);
    case PRIM_EXP: return C1(F, "exp", x[0]);
    case PRIM_EXPT: return C2(F, "expt", x[0], x[1]);
    case PRIM_SIN: return C1(F, "sin", x[0]);
    case PRIM_COS: return C1(F, "cos", x[0]);
    case PRIM_TAN: return C1(F, "tan", x[0]);
    case PRIM_ASIN: return C1(F, "asin", x[0]);
    case PRIM_ACOS: return C1(F, "acos", x[0]);
    case PRIM_ATAN: return C1(F, "atan", x[0]);
    case PRIM_SINH: return C1(F, "sinh", x[0]);
    case PRIM_COSH: return C1(F, "cosh", x[0]);
    case PRIM_TANH: return C1(F, "tanh", x[0]);
    case PRIM_FLOAT: return X_un(F, LUOP_TO_FLOAT, x[0]);
    case PRIM_TRUNC: return C1(F, "trunc", x[0]);
    case PRIM_FLOOR: return C1(F, "floor", x[0]);
    case PRIM_CEIL: return C1(F, "ceil", x[0]);
    case PRIM_ROUND: return C1(F, "round", x[0]);
    case PRIM_BTOI: return C1(F, "btoi", x[0]);
    case PRIM_CODE_CHAR: return C1(F, "code_char", x[0]);
    case PRIM_CHAR_CODE: return C1(F, "char_code", x[0]);
    case PRIM_FLOAT_NUM: return fl ? x[0] : X_un(F, LUOP_TO_FLOAT, x[0]);
    case PRIM_INT_TO_ANY: return base_of(t1) == LB_FLOAT ? X_un(F, LUOP_TO_FLOAT, x[0]) : x[0];
    case PRIM_FLOAT_TO_ANY: return base_of(t1) == LB_FLOAT ? x[0] : C1(F, "round", x[0]);
    case PRIM_EQL: return B(F, LOP_EQ, x[0], x[1]);
    }
    ICE("flatten: %s is not element-wise", prim_info[prim].name);
}

/* The operand whose value makes a partial primitive fail. */
static int failing_operand(int prim)
{
    switch (prim) {
    case PRIM_DIV: case PRIM_REM: case PRIM_MOD: case PRIM_POW: return 1;
    default: return 0;
    }
}

/* The NESL error kind of a partial primitive's failure (guard, nesl_scalar.h). */
static int guard_kind(int prim)
{
    switch (prim) {
    case PRIM_POW: return NESL_G_POW;
    case PRIM_SQRT: case PRIM_ISQRT: return NESL_G_SQRT;
    case PRIM_LN: case PRIM_EXPT: return NESL_G_LN;
    default: return NESL_G_DIV;
    }
}

LcuExpr *fl_guard_fail(Fl *F, LcuExpr *site, int kind, LcuExpr *value, Span sp)
{
    Sym *us = arena_alloc(F->a, sizeof *us);
    us[0] = fl_fresh(F, "g");
    LcuExpr *args[3] = { X_bool(F, true), site, X_int(F, kind) };
    return lcu_e_let(F->a, sp, lcu_bind(F->a, sp, 1, us, NULL, X_call(F, "guard", 3, args)), value);
}

/* The failure condition of a partial primitive, or NULL. */
static LcuExpr *scalar_fails(Fl *F, int prim, Type *t0, LcuExpr **x, const char **msg)
{
    bool fl = base_of(t0) == LB_FLOAT;
    LcuExpr *zero = fl ? lcu_e_float(F->a, (Span){ 0 }, 0.0) : X_int(F, 0);
    switch (prim) {
    case PRIM_DIV: case PRIM_REM: case PRIM_MOD:
        *msg = "Divide by zero.";
        return B(F, LOP_EQ, x[1], zero);
    case PRIM_POW: *msg = "Negative exponent for ^."; return B(F, LOP_LT, x[1], X_int(F, 0));
    case PRIM_SQRT: case PRIM_ISQRT: *msg = "Sqrt of negative number."; return B(F, LOP_LT, x[0], zero);
    case PRIM_LN: case PRIM_EXPT: *msg = "Ln of negative number."; return B(F, LOP_LT, x[0], zero);
    default: return NULL;
    }
}

LcuExpr *fl_scalar_fails(Fl *F, int prim, Type *t0, LcuExpr **x)
{
    const char *msg;
    return scalar_fails(F, prim, t0, x, &msg);
}

int fl_guard_kind(int prim) { return guard_kind(prim); }

static bool is_elementwise(int prim, int nargs, FVal *a)
{
    switch (prim) {
    case PRIM_NOT: case PRIM_OR: case PRIM_AND: case PRIM_XOR: case PRIM_NOR: case PRIM_NAND:
    case PRIM_EQ: case PRIM_NE: case PRIM_LT: case PRIM_GT: case PRIM_LE: case PRIM_GE:
    case PRIM_ADD: case PRIM_SUB: case PRIM_MUL: case PRIM_DIV: case PRIM_NEG: case PRIM_ABS:
    case PRIM_MAX: case PRIM_MIN: case PRIM_REM: case PRIM_MOD: case PRIM_LSHIFT: case PRIM_RSHIFT:
    case PRIM_POW: case PRIM_SQRT: case PRIM_ISQRT: case PRIM_LN: case PRIM_EXP: case PRIM_EXPT:
    case PRIM_SIN: case PRIM_COS: case PRIM_TAN: case PRIM_ASIN: case PRIM_ACOS: case PRIM_ATAN:
    case PRIM_SINH: case PRIM_COSH: case PRIM_TANH: case PRIM_FLOAT: case PRIM_TRUNC: case PRIM_FLOOR:
    case PRIM_CEIL: case PRIM_ROUND: case PRIM_BTOI: case PRIM_CODE_CHAR: case PRIM_CHAR_CODE:
    case PRIM_FLOAT_NUM: case PRIM_INT_TO_ANY: case PRIM_FLOAT_TO_ANY:
        return true;
    case PRIM_EQL:
        return nargs == 2 && is_scalar(a[0].type);
    default:
        return false;
    }
}

static FVal elementwise(Fl *F, const Ctx *cx, int prim, Type *rt, int k, FVal *a, Span sp)
{
    bool lifted = false;
    for (int j = 0; j < k; j++) lifted |= a[j].lifted;
    Type *t1 = k > 1 ? a[1].type : NULL;
    LcuBase rb = base_of(rt);
    Sym i = fl_fresh(F, "i");
    LcuExpr *x[3];
    for (int j = 0; j < k; j++) x[j] = opnd(F, a[j], i);
    const char *msg = NULL;
    LcuExpr *fails = scalar_fails(F, prim, a[0].type, x, &msg);
    if (!lifted) {
        if (fails) fl_check(F, cx, sp, fails, msg);
        return vec1(F, rt, false, fl_emit(F, T_base(F, rb), fl_scalar_op(F, prim, a[0].type, t1, x)));
    }
    LcuExpr *n = X_var(F, cx->count);
    if (fails && !a[failing_operand(prim)].lifted) {
        /* a uniform operand fails for every element or for none: one
         * scalar check instead of a flag per element and a reduction */
        fl_check_lifted(F, cx, sp, B(F, LOP_AND, B(F, LOP_GT, n, X_int(F, 0)), fails), msg);
    } else if (fails) {
        LcuExpr *site = fl_site(F, cx, sp);
        if (site->kind == LE_INT) {
            /* checked in the MAP itself: a guard records the error (the
             * device's error record, reported at the next host wait) where
             * the element fails, instead of a reduction of the failure
             * flags and a host round trip before the MAP
             * (doc/flattening.md, "Runtime errors") */
            LcuExpr *g = fl_guard_fail(F, site, guard_kind(prim), X_default(F, rb), sp);
            return vec1(F, rt, true, fl_map(F, rb, i, X_if(F, fails, g, fl_scalar_op(F, prim, a[0].type, t1, x)), n));
        }
        /* library code: the site is its caller's, a parameter */
        Sym ic = fl_fresh(F, "i");
        LcuExpr *y[3];
        for (int j = 0; j < k; j++) y[j] = opnd(F, a[j], ic);
        check_any(F, cx, sp, ic, scalar_fails(F, prim, a[0].type, y, &msg), n, msg);
    }
    return vec1(F, rt, true, fl_map(F, rb, i, fl_scalar_op(F, prim, a[0].type, t1, x), n));
}

/* ---- reductions and scans ---- */
typedef enum { R_PLUS, R_MULT, R_MAX, R_MIN, R_OR, R_AND, R_XOR } ROp;

static LcuExpr *identity_of(Fl *F, ROp op, LcuBase b)
{
    switch (op) {
    case R_PLUS: return b == LB_FLOAT ? lcu_e_float(F->a, (Span){ 0 }, 0.0) : X_int(F, 0);
    case R_MULT: return b == LB_FLOAT ? lcu_e_float(F->a, (Span){ 0 }, 1.0) : X_int(F, 1);
    case R_MAX:
        return b == LB_FLOAT ? lcu_e_float(F->a, (Span){ 0 }, -0x1.812f9ep+119)
             : b == LB_CHAR ? lcu_e_char(F->a, (Span){ 0 }, 0) : b == LB_BOOL ? X_bool(F, false) : X_int(F, INT32_MIN);
    case R_MIN:
        return b == LB_FLOAT ? lcu_e_float(F->a, (Span){ 0 }, 0x1.812f9ep+119)
             : b == LB_CHAR ? lcu_e_char(F->a, (Span){ 0 }, 255) : b == LB_BOOL ? X_bool(F, true) : X_int(F, INT32_MAX);
    case R_OR: case R_XOR: return b == LB_BOOL ? X_bool(F, false) : X_int(F, 0);
    case R_AND: return b == LB_BOOL ? X_bool(F, true) : X_int(F, -1);
    }
    ICE("bad reduction");
}

static LcuThunk *combiner(Fl *F, ROp op, LcuBase b)
{
    Sym ps[2] = { fl_fresh(F, "a"), fl_fresh(F, "b") };
    LcuExpr *x = X_var(F, ps[0]), *y = X_var(F, ps[1]);
    bool bo = b == LB_BOOL;
    LcuExpr *body = NULL;
    switch (op) {
    case R_PLUS: body = B(F, LOP_ADD, x, y); break;
    case R_MULT: body = B(F, LOP_MUL, x, y); break;
    case R_MAX: body = bo ? B(F, LOP_OR, x, y) : C2(F, "max", x, y); break;
    case R_MIN: body = bo ? B(F, LOP_AND, x, y) : C2(F, "min", x, y); break;
    case R_OR: body = bo ? B(F, LOP_OR, x, y) : C2(F, "bor", x, y); break;
    case R_AND: body = bo ? B(F, LOP_AND, x, y) : C2(F, "band", x, y); break;
    case R_XOR: body = bo ? B(F, LOP_NE, x, y) : C2(F, "bxor", x, y); break;
    }
    return fl_thunk(F, 2, ps, body);
}

static FVal reduce_or_scan(Fl *F, const Ctx *cx, ROp op, bool scan, Type *rt, FVal a)
{
    Type *et = type_prune(a.type)->elem;
    LcuBase b = base_of(et);
    Sym i = fl_fresh(F, "i");
    Sym v = a.lifted ? a.c[1] : a.c[0];
    LcuArg *as[4] = { A_thunk(F, fl_thunk1(F, i, X_idx(F, v, X_var(F, i)))), A_expr(F, identity_of(F, op, b)),
                      A_thunk(F, combiner(F, op, b)), NULL };
    (void)cx;
    if (!a.lifted) {
        as[3] = A_expr(F, X_len(F, v));
        if (!scan) return vec1(F, rt, false, fl_emit(F, T_base(F, b), X_soac(F, LS_REDUCE, 4, as)));
        return vec1(F, rt, false, fl_emit(F, T_vec(F, b), X_soac(F, LS_SCAN, 4, as)));
    }
    as[3] = A_expr(F, X_var(F, a.c[0]));
    Sym r = fl_emit(F, T_vec(F, b), X_soac(F, scan ? LS_SEG_SCAN : LS_SEG_REDUCE, 4, as));
    if (!scan) return vec1(F, rt, true, r);
    Sym *c = arena_alloc(F->a, sizeof *c * 2);
    c[0] = a.c[0];
    c[1] = r;
    return fv_make(F, rt, true, 2, c);
}

/* ---- helpers for sequence primitives ---- */
/* Lifted count-1 representation -> the unlifted value. */
static void unsingle_into(Fl *F, Type *t, const Sym *c, Sym *out)
{
    t = type_prune(t);
    if (is_scalar(t)) { out[0] = fl_emit(F, T_base(F, base_of(t)), X_idx(F, c[0], X_int(F, 0))); return; }
    switch (t->kind) {
    case TY_SEQ:
        memcpy(out, c + 1, sizeof *out * (size_t)fv_arity(t, false));
        return;
    case TY_PAIR: {
        unsingle_into(F, t->fst, c, out);
        unsingle_into(F, t->snd, c + fv_arity(t->fst, true), out + fv_arity(t->fst, false));
        return;
    }
    case TY_DATA: unsingle_into(F, fl_data_fields(F, t), c, out); return;
    case TY_FUN:
        if (fv_arity(t, true) == 0) return;
        fl_unsupported(F, (Span){ 0 }, "selecting a closure from a sequence is");
    default: ICE("flatten: unsingle of a bad type");
    }
}

static FVal unsingleton(Fl *F, FVal v)
{
    int n = fv_arity(v.type, false);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(n ? n : 1));
    unsingle_into(F, v.type, v.c, out);
    return fv_make(F, v.type, false, n, out);
}

static FVal elems(Fl *F, FVal seq) { return seq.lifted ? lseq_elems(F, seq) : elems_of_seq(F, seq); }

/* ---- sequence primitives ---- */
static FVal p_length(Fl *F, Type *rt, FVal a)
{
    if (!a.lifted) return vec1(F, rt, false, emit_int(F, fv_count(F, a)));
    return vec1(F, rt, true, seq_lengths(F, a));
}

static FVal p_elt(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal i, Span sp)
{
    const char *msg = "Sequence reference (a[i]) out of bounds.";
    Type *et = type_prune(a.type)->elem;
    if (!a.lifted && !i.lifted) {
        Sym n = emit_int(F, fv_count(F, a));
        LcuExpr *x = X_var(F, i.c[0]);
        fl_check(F, cx, sp, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), msg);
        if (is_scalar(et)) return vec1(F, rt, false, fl_emit(F, T_base(F, base_of(et)), X_idx(F, a.c[0], x)));
        LcuExpr **e = arena_alloc(F->a, sizeof *e);
        e[0] = x;
        Sym one = fl_emit(F, T_vec(F, LB_INT), lcu_e_veclit(F->a, (Span){ 0 }, 1, e));
        return unsingleton(F, rep_gather(F, et, a.c, one));
    }
    LcuExpr *N = X_var(F, cx->count);
    i = materialize(F, cx, i);
    Sym j = fl_fresh(F, "j");
    LcuExpr *ij = X_idx(F, i.c[0], X_var(F, j));
    if (!a.lifted) {
        Sym n = emit_int(F, fv_count(F, a));
        LcuExpr *bad = B(F, LOP_OR, B(F, LOP_LT, ij, X_int(F, 0)), B(F, LOP_GE, ij, X_var(F, n)));
        LcuExpr *site = fl_site(F, cx, sp);
        if (is_scalar(et) && site->kind == LE_INT) {   /* a guarded gather: as elementwise's partial primitives */
            LcuBase b = base_of(et);
            LcuExpr *g = fl_guard_fail(F, site, NESL_G_INDEX, X_default(F, b), sp);
            return vec1(F, rt, true, fl_map(F, b, j, X_if(F, bad, g, X_idx(F, a.c[0], ij)), N));
        }
        check_any(F, cx, sp, j, bad, N, msg);
        return rep_gather(F, et, a.c, i.c[0]);
    }
    Sym lens = seq_lengths(F, a), offs = seq_offsets(F, a);
    LcuExpr *site = fl_site(F, cx, sp);
    Sym k = fl_fresh(F, "k");
    LcuExpr *at = B(F, LOP_ADD, X_idx(F, offs, X_var(F, k)), X_idx(F, i.c[0], X_var(F, k)));
    if (site->kind == LE_INT) {
        /* Each segment's subscript guarded where its index is computed (a
         * failing one gathers element 0, read checked): no flag REDUCE and
         * no host wait before the gather, three a level of quicksort's
         * recursion (s[#s/2], result[0], result[1]). */
        LcuExpr *ik = X_idx(F, i.c[0], X_var(F, k));
        LcuExpr *bad = B(F, LOP_OR, B(F, LOP_LT, ik, X_int(F, 0)), B(F, LOP_GE, X_idx(F, i.c[0], X_var(F, k)), X_idx(F, lens, X_var(F, k))));
        LcuExpr *g = fl_guard_fail(F, site, NESL_G_INDEX, X_int(F, 0), sp);
        return rep_gather(F, et, a.c + 1, fl_map(F, LB_INT, k, X_if(F, bad, g, at), N));
    }
    check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, ij, X_int(F, 0)), B(F, LOP_GE, ij, X_idx(F, lens, X_var(F, j)))), N, msg);
    return rep_gather(F, et, a.c + 1, fl_map(F, LB_INT, k, at, N));
}

static FVal p_dist(Fl *F, const Ctx *cx, Type *rt, FVal v, FVal k, Span sp)
{
    const char *msg = "Negative length for function dist.";
    if (!v.lifted && !k.lifted) {
        fl_check(F, cx, sp, B(F, LOP_LT, X_var(F, k.c[0]), X_int(F, 0)), msg);
        return seq_of_elems(F, rt, rep_dist(F, v, X_var(F, k.c[0])));
    }
    v = materialize(F, cx, v);
    k = materialize(F, cx, k);
    Sym j = fl_fresh(F, "j");
    check_any(F, cx, sp, j, B(F, LOP_LT, X_idx(F, k.c[0], X_var(F, j)), X_int(F, 0)), X_var(F, cx->count), msg);
    Sym sd = make_sd(F, k.c[0]);
    Sym sid = segids_of(F, sd);
    return lseq_make(F, rt, sd, rep_gather_in(F, v.type, v.c, sid));
}

/* iseq(s, d, e) = [s:e:d]. */
FVal fl_range(Fl *F, const Ctx *cx, FVal s, FVal e, FVal d, Span sp)
{
    const char *msg = "In [s:e:l], e must be >= to s, and l must be positive.";
    Type *rt = type_seq(F->a, type_base(F->a, TY_INT));
    if (!s.lifted && !e.lifted && !d.lifted) {
        LcuExpr *S = X_var(F, s.c[0]), *E = X_var(F, e.c[0]), *D = X_var(F, d.c[0]);
        fl_check(F, cx, sp, B(F, LOP_OR, B(F, LOP_LT, E, S), B(F, LOP_LE, D, X_int(F, 0))), msg);
        Sym n = emit_int(F, B(F, LOP_DIV, B(F, LOP_SUB, B(F, LOP_ADD, B(F, LOP_SUB, E, S), D), X_int(F, 1)), D));
        Sym i = fl_fresh(F, "i");
        return vec1(F, rt, false, fl_map(F, LB_INT, i, B(F, LOP_ADD, S, B(F, LOP_MUL, X_var(F, i), D)), X_var(F, n)));
    }
    Sym j = fl_fresh(F, "j");
    LcuExpr *S = opnd(F, s, j), *E = opnd(F, e, j), *D = opnd(F, d, j);
    LcuExpr *N = X_var(F, cx->count);
    check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, E, S), B(F, LOP_LE, D, X_int(F, 0))), N, msg);
    Sym k = fl_fresh(F, "k");
    S = opnd(F, s, k); E = opnd(F, e, k); D = opnd(F, d, k);
    Sym lens = fl_map(F, LB_INT, k, B(F, LOP_DIV, B(F, LOP_SUB, B(F, LOP_ADD, B(F, LOP_SUB, E, S), D), X_int(F, 1)), D), N);
    Sym sd = make_sd(F, lens);
    Sym sid = segids_of(F, sd), offs = offsets_of(F, sd);
    Sym p = fl_fresh(F, "p");
    LcuExpr *seg = X_idx(F, sid, X_var(F, p));
    /* a segment id indexes the per-segment vectors (in range by construction) */
    LcuExpr *Sp = s.lifted ? X_idx_in(F, s.c[0], seg) : X_var(F, s.c[0]);
    LcuExpr *Dp = d.lifted ? X_idx_in(F, d.c[0], X_idx(F, sid, X_var(F, p))) : X_var(F, d.c[0]);
    LcuExpr *body = B(F, LOP_ADD, Sp, B(F, LOP_MUL, B(F, LOP_SUB, X_var(F, p), X_idx_in(F, offs, X_idx(F, sid, X_var(F, p)))), Dp));
    Sym v = fl_map(F, LB_INT, p, body, X_len(F, sid));
    Sym *c = arena_alloc(F->a, sizeof *c * 2);
    c[0] = sd;
    c[1] = v;
    return fv_make(F, rt, true, 2, c);
}

/* a -> idx */
static FVal p_read(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal ix, Span sp)
{
    const char *msg = "Index out of bounds for function ->.";
    Type *et = type_prune(a.type)->elem;
    Sym j = fl_fresh(F, "j");
    if (!ix.lifted) {
        if (a.lifted) ix = materialize(F, cx, ix);
        else {
            Sym n = emit_int(F, fv_count(F, a));
            LcuExpr *x = X_idx(F, ix.c[0], X_var(F, j));
            check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), X_len(F, ix.c[0]), msg);
            return seq_of_elems(F, rt, rep_gather(F, et, a.c, ix.c[0]));
        }
    }
    Sym sdi = ix.c[0], vi = ix.c[1];
    LcuExpr *x = X_idx(F, vi, X_var(F, j));
    if (!a.lifted) {
        Sym n = emit_int(F, fv_count(F, a));
        check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), X_len(F, vi), msg);
        return lseq_make(F, rt, sdi, rep_gather(F, et, a.c, vi));
    }
    Sym lens = seq_lengths(F, a), offs = seq_offsets(F, a), sid = segids_of(F, sdi);
    check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)),
                                B(F, LOP_GE, x, X_idx(F, lens, X_idx(F, sid, X_var(F, j))))), X_len(F, vi), msg);
    Sym k = fl_fresh(F, "k");
    Sym g = fl_map(F, LB_INT, k, B(F, LOP_ADD, X_idx(F, offs, X_idx(F, sid, X_var(F, k))), X_idx(F, vi, X_var(F, k))), X_len(F, vi));
    return lseq_make(F, rt, sdi, rep_gather(F, et, a.c + 1, g));
}

/* Scatter with the last writer winning: w[q] = 1 + the last j with tgt[j] = q,
 * or 0.  One PERMUTE over n + m indices whose first n write 0 to each q. */
static Sym last_writer(Fl *F, Sym tgt, LcuExpr *n)
{
    Sym i = fl_fresh(F, "i"), j = fl_fresh(F, "j");
    LcuExpr *m = X_len(F, tgt);
    LcuExpr *val = X_if(F, B(F, LOP_LT, X_var(F, i), n), X_int(F, 0), B(F, LOP_ADD, B(F, LOP_SUB, X_var(F, i), n), X_int(F, 1)));
    LcuExpr *pos = X_if(F, B(F, LOP_LT, X_var(F, j), n), X_var(F, j), X_idx(F, tgt, B(F, LOP_SUB, X_var(F, j), n)));
    LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, i, val)), A_thunk(F, fl_thunk1(F, j, pos)), A_expr(F, B(F, LOP_ADD, n, m)) };
    Sym w2 = fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_PERMUTE, 3, as));
    Sym k = fl_fresh(F, "k");
    return fl_map(F, LB_INT, k, X_idx(F, w2, X_var(F, k)), n);
}

/* a <- [(i, v)] */
static FVal p_write(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal pairs, Span sp)
{
    const char *msg = "Index out of bounds for function <-.";
    Type *et = type_prune(a.type)->elem;
    if (cx->lifted) { a = materialize(F, cx, a); pairs = materialize(F, cx, pairs); }
    FVal ae = elems(F, a), pe = elems(F, pairs);       /* pe: (int, s) */
    Sym vi = pe.c[0];
    const Sym *rv = pe.c + 1;
    Sym n;
    Sym tgt;
    Sym j = fl_fresh(F, "j");
    LcuExpr *x = X_idx(F, vi, X_var(F, j));
    if (!a.lifted) {
        n = emit_int(F, fv_count(F, a));
        check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), X_len(F, vi), msg);
        tgt = vi;
    } else {
        n = total_of(F, a.c[0]);
        Sym lens = lengths_of(F, a.c[0]), offs = offsets_of(F, a.c[0]), sid = segids_of(F, pairs.c[0]);
        check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)),
                                    B(F, LOP_GE, x, X_idx(F, lens, X_idx(F, sid, X_var(F, j))))), X_len(F, vi), msg);
        Sym k = fl_fresh(F, "k");
        tgt = fl_map(F, LB_INT, k, B(F, LOP_ADD, X_idx(F, offs, X_idx(F, sid, X_var(F, k))), X_idx(F, vi, X_var(F, k))), X_len(F, vi));
    }
    Sym w = last_writer(F, tgt, X_var(F, n));
    FVal cat = rep_concat(F, et, ae.c, X_var(F, n), rv, X_len(F, vi));
    Sym q = fl_fresh(F, "q");
    LcuExpr *wq = X_idx(F, w, X_var(F, q));
    Sym idx = fl_map(F, LB_INT, q, X_if(F, B(F, LOP_GT, wq, X_int(F, 0)),
                                        B(F, LOP_SUB, B(F, LOP_ADD, X_var(F, n), X_idx(F, w, X_var(F, q))), X_int(F, 1)),
                                        X_var(F, q)), X_var(F, n));
    FVal r = rep_gather(F, et, cat.c, idx);
    return a.lifted ? lseq_make(F, rt, a.c[0], r) : seq_of_elems(F, rt, r);
}

/* rep(a, v, i): a with a[i] replaced by v. */
static FVal p_rep(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal v, FVal i, Span sp)
{
    const char *msg = "Index out of bounds for function rep.";
    Type *et = type_prune(a.type)->elem;
    if (!a.lifted && !v.lifted && !i.lifted) {
        Sym n = emit_int(F, fv_count(F, a));
        LcuExpr *x = X_var(F, i.c[0]);
        fl_check(F, cx, sp, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), msg);
        FVal one = rep_singleton(F, v);
        FVal cat = rep_concat(F, et, a.c, X_var(F, n), one.c, X_int(F, 1));
        Sym q = fl_fresh(F, "q");
        Sym idx = fl_map(F, LB_INT, q, X_if(F, B(F, LOP_EQ, X_var(F, q), x), X_var(F, n), X_var(F, q)), X_var(F, n));
        return seq_of_elems(F, rt, rep_gather(F, et, cat.c, idx));
    }
    a = materialize(F, cx, a); v = materialize(F, cx, v); i = materialize(F, cx, i);
    LcuExpr *N = X_var(F, cx->count);
    Sym lens = lengths_of(F, a.c[0]), offs = offsets_of(F, a.c[0]), sid = segids_of(F, a.c[0]);
    Sym M = total_of(F, a.c[0]);
    Sym j = fl_fresh(F, "j");
    LcuExpr *x = X_idx(F, i.c[0], X_var(F, j));
    check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_idx(F, lens, X_var(F, j)))), N, msg);
    FVal cat = rep_concat(F, et, a.c + 1, X_var(F, M), v.c, N);
    Sym p = fl_fresh(F, "p");
    LcuExpr *seg = X_idx(F, sid, X_var(F, p));
    LcuExpr *pos = B(F, LOP_SUB, X_var(F, p), X_idx(F, offs, seg));
    LcuExpr *hit = B(F, LOP_EQ, pos, X_idx(F, i.c[0], X_idx(F, sid, X_var(F, p))));
    Sym idx = fl_map(F, LB_INT, p, X_if(F, hit, B(F, LOP_ADD, X_var(F, M), X_idx(F, sid, X_var(F, p))), X_var(F, p)), X_var(F, M));
    return lseq_make(F, rt, a.c[0], rep_gather(F, et, cat.c, idx));
}

static FVal p_permute(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal ix, Span sp)
{
    Type *et = type_prune(a.type)->elem;
    const char *mlen = "Length mismatch in function permute.", *mix = "Index out of bounds for function permute.";
    Sym j = fl_fresh(F, "j");
    if (!a.lifted && !ix.lifted) {
        Sym n = emit_int(F, fv_count(F, a));
        fl_check(F, cx, sp, B(F, LOP_NE, X_len(F, ix.c[0]), X_var(F, n)), mlen);
        LcuExpr *x = X_idx(F, ix.c[0], X_var(F, j));
        check_any(F, cx, sp, j, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_var(F, n))), X_var(F, n), mix);
        Sym p = fl_fresh(F, "p"), q = fl_fresh(F, "q");
        LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, p, X_var(F, p))),
                          A_thunk(F, fl_thunk1(F, q, X_idx(F, ix.c[0], X_var(F, q)))), A_expr(F, X_var(F, n)) };
        Sym inv = fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_PERMUTE, 3, as));
        return seq_of_elems(F, rt, rep_gather(F, et, a.c, inv));
    }
    a = materialize(F, cx, a); ix = materialize(F, cx, ix);
    Sym la = lengths_of(F, a.c[0]), li = lengths_of(F, ix.c[0]);
    check_any(F, cx, sp, j, B(F, LOP_NE, X_idx(F, la, X_var(F, j)), X_idx(F, li, X_var(F, j))), X_var(F, cx->count), mlen);
    Sym sid = segids_of(F, ix.c[0]);
    Sym k = fl_fresh(F, "k");
    LcuExpr *x = X_idx(F, ix.c[1], X_var(F, k));
    check_any(F, cx, sp, k, B(F, LOP_OR, B(F, LOP_LT, x, X_int(F, 0)), B(F, LOP_GE, x, X_idx(F, la, X_idx(F, sid, X_var(F, k))))),
              X_len(F, ix.c[1]), mix);
    Sym p = fl_fresh(F, "p"), q = fl_fresh(F, "q");
    LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, p, X_var(F, p))),
                      A_thunk(F, fl_thunk1(F, q, X_idx(F, ix.c[1], X_var(F, q)))), A_expr(F, X_var(F, a.c[0])) };
    Sym inv = fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_SEG_PERMUTE, 3, as));
    return lseq_make(F, rt, a.c[0], rep_gather(F, et, a.c + 1, inv));
}

static FVal p_pack(Fl *F, const Ctx *cx, Type *rt, FVal a)
{
    (void)cx;
    Type *pt = type_prune(type_prune(a.type)->elem);   /* (s, bool) */
    Type *et = pt->fst;
    FVal pe = elems(F, a);
    Sym flags = pe.c[pe.n - 1];
    Sym idx = fl_filter_index(F, flags, X_len(F, flags));
    FVal r = rep_gather(F, et, pe.c, idx);
    if (!a.lifted) return seq_of_elems(F, rt, r);
    /* each segment's kept positions, found among the FILTER's indices (no
     * SEG_REDUCE of the flags, no scan of the counts) */
    return lseq_make(F, rt, fl_filter_sd(F, a.c[0], idx), r);
}

static FVal p_append(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal b)
{
    Type *et = type_prune(a.type)->elem;
    if (!a.lifted && !b.lifted)
        return seq_of_elems(F, rt, rep_concat(F, et, a.c, fv_count(F, a), b.c, fv_count(F, b)));
    a = materialize(F, cx, a); b = materialize(F, cx, b);
    Sym la = lengths_of(F, a.c[0]), lb = lengths_of(F, b.c[0]);
    Sym oa = offsets_of(F, a.c[0]), ob = offsets_of(F, b.c[0]);
    Sym nsd = fl_sum_sd(F, a.c[0], b.c[0]);
    Sym nsid = segids_of(F, nsd), noffs = offsets_of(F, nsd);
    SegParts parts = { nsid, noffs, la, oa, lb, ob, a.c + 1, b.c + 1 };
    FVal flat;
    if (rep_interleave_flat(F, et, &parts, &flat)) return lseq_make(F, rt, nsd, flat);
    Sym ma = total_of(F, a.c[0]), mb = total_of(F, b.c[0]);
    FVal cat = rep_concat(F, et, a.c + 1, X_var(F, ma), b.c + 1, X_var(F, mb));
    Sym p = fl_fresh(F, "p");
    /* a segment id indexes the context's count of lengths and offsets:
     * in range by construction */
#define SEG X_idx(F, nsid, X_var(F, p))
#define POS B(F, LOP_SUB, X_var(F, p), X_idx_in(F, noffs, SEG))
    LcuExpr *body = X_if(F, B(F, LOP_LT, POS, X_idx_in(F, la, SEG)), B(F, LOP_ADD, X_idx_in(F, oa, SEG), POS),
                         B(F, LOP_ADD, B(F, LOP_ADD, X_var(F, ma), X_idx_in(F, ob, SEG)), B(F, LOP_SUB, POS, X_idx_in(F, la, SEG))));
#undef SEG
#undef POS
    Sym idx = fl_map(F, LB_INT, p, body, X_len(F, nsid));
    /* each segment's a part then its b part: a permutation of cat */
    return lseq_make(F, rt, nsd, rep_permute_in(F, et, cat.c, idx));
}

static FVal p_flatten(Fl *F, Type *rt, FVal a)
{
    if (!a.lifted) return fv_make(F, rt, false, a.n - 1, a.c + 1);
    Sym l2 = lengths_of(F, a.c[1]);
    /* every inner segment lands in one outer one: the inner total */
    Sym nsd = fl_make_sd_total(F, fl_seg_sum_int(F, a.c[0], l2), X_var(F, total_of(F, a.c[1])));
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(a.n - 1));
    c[0] = nsd;
    memcpy(c + 1, a.c + 2, sizeof *c * (size_t)(a.n - 2));
    return fv_make(F, rt, true, a.n - 1, c);
}

static FVal p_partition(Fl *F, const Ctx *cx, Type *rt, FVal a, FVal cnt, Span sp)
{
    const char *mneg = "Negative count for function partition.";
    const char *msum = "Counts must sum to the length of the sequence in partition.";
    Sym j = fl_fresh(F, "j");
    if (!a.lifted && !cnt.lifted) {
        Sym v = cnt.c[0];
        check_any(F, cx, sp, j, B(F, LOP_LT, X_idx(F, v, X_var(F, j)), X_int(F, 0)), X_len(F, v), mneg);
        fl_check(F, cx, sp, B(F, LOP_NE, X_var(F, fl_sum_int(F, v)), fv_count(F, a)), msum);
        Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(a.n + 1));
        c[0] = make_sd(F, v);
        memcpy(c + 1, a.c, sizeof *c * (size_t)a.n);
        return fv_make(F, rt, false, a.n + 1, c);
    }
    a = materialize(F, cx, a); cnt = materialize(F, cx, cnt);
    Sym v = cnt.c[1];
    check_any(F, cx, sp, j, B(F, LOP_LT, X_idx(F, v, X_var(F, j)), X_int(F, 0)), X_len(F, v), mneg);
    Sym sums = fl_seg_sum_int(F, cnt.c[0], v), la = lengths_of(F, a.c[0]);
    Sym k = fl_fresh(F, "k");
    check_any(F, cx, sp, k, B(F, LOP_NE, X_idx(F, sums, X_var(F, k)), X_idx(F, la, X_var(F, k))), X_var(F, cx->count), msum);
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(a.n + 1));
    c[0] = cnt.c[0];
    c[1] = make_sd(F, v);
    memcpy(c + 2, a.c + 1, sizeof *c * (size_t)(a.n - 1));
    return fv_make(F, rt, true, a.n + 1, c);
}

static FVal p_rank(Fl *F, Type *rt, FVal a, bool down)
{
    const char *name = a.lifted ? (down ? "seg_rank_down" : "seg_rank_up") : (down ? "rank_down" : "rank_up");
    LcuExpr **args = arena_alloc(F->a, sizeof *args * 2);
    int n = 0;
    if (a.lifted) args[n++] = X_var(F, a.c[0]);
    args[n++] = X_var(F, a.c[a.lifted ? 1 : 0]);
    const LcuType *vt = T_vec(F, LB_INT);
    Sym r = fl_emit(F, vt, lcu_e_lib(F->a, (Span){ 0 }, intern_cstr(F->in, name), "", n, args, vt));
    if (!a.lifted) return vec1(F, rt, false, r);
    Sym *c = arena_alloc(F->a, sizeof *c * 2);
    c[0] = a.c[0];
    c[1] = r;
    return fv_make(F, rt, true, 2, c);
}

/* ---- the host bridge ---- */
/* Primitives whose calls must happen once per element, in order. */
bool fl_prim_pure(int prim)
{
    switch (prim) {
    case PRIM_RAND: case PRIM_PRINT_STRING: case PRIM_WRITE_STRING: case PRIM_ERROR:
        return false;
    default:
        return !prim_is_serial(prim);
    }
}

static FVal bridge(Fl *F, const Ctx *cx, int prim, Type *inst, int k, FVal *a, Span sp)
{
    bool lifted = false;
    for (int j = 0; j < k; j++) lifted |= a[j].lifted;
    if (cx->lifted && !fl_prim_pure(prim)) lifted = true;
    if (lifted)
        for (int j = 0; j < k; j++) a[j] = materialize(F, cx, a[j]);
    Type *at = a[k - 1].type;
    for (int j = k - 2; j >= 0; j--) at = type_pair(F->a, a[j].type, at);
    Type *rt = type_prune(inst)->res;
    char tag[2048], name[64];
    snprintf(tag, sizeof tag, "%c|%s|%s", lifted ? 'L' : 'U', type_to_string(F->a, at, false), type_to_string(F->a, rt, false));
    snprintf(name, sizeof name, "nesl_%s", prim_id_name(prim));
    int nc = 0;
    for (int j = 0; j < k; j++) nc += a[j].n;
    LcuExpr **args = arena_alloc(F->a, sizeof *args * (size_t)(nc + 2));
    int m = 0;
    args[m++] = fl_site(F, cx, sp);
    if (lifted) args[m++] = X_var(F, cx->count);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < a[j].n; i++) args[m++] = X_var(F, a[j].c[i]);
    PtrVec ts = { 0 };
    flat_layout(F->a, rt, lifted, &ts);
    const LcuType *lt = T_tuple(F, ts.len, (const LcuType **)ts.items);
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items,
                           lcu_e_lib(F->a, (Span){ 0 }, intern_cstr(F->in, name), arena_strndup(F->a, tag, strlen(tag)), m, args, lt));
    return fv_make(F, rt, lifted, ts.len, c);
}

FVal fl_prim(Fl *F, const Ctx *cx, int prim, Type *inst, int k, FVal *a, Span sp)
{
    if (prim != PRIM_ELT && prim != PRIM_READ && prim != PRIM_LENGTH)
        for (int j = 0; j < k; j++) a[j] = fv_direct(F, a[j]);
    Type *rt = inst ? type_prune(inst)->res : type_prune(a[0].type)->elem;
    if (is_elementwise(prim, k, a)) return elementwise(F, cx, prim, rt, k, a, sp);
    switch (prim) {
    case PRIM_SUM: return reduce_or_scan(F, cx, R_PLUS, false, rt, a[0]);
    case PRIM_PRODUCT: return reduce_or_scan(F, cx, R_MULT, false, rt, a[0]);
    case PRIM_MAX_VAL: return reduce_or_scan(F, cx, R_MAX, false, rt, a[0]);
    case PRIM_MIN_VAL: return reduce_or_scan(F, cx, R_MIN, false, rt, a[0]);
    case PRIM_ANY: return reduce_or_scan(F, cx, R_OR, false, rt, a[0]);
    case PRIM_ALL: return reduce_or_scan(F, cx, R_AND, false, rt, a[0]);
    case PRIM_PARITY: return reduce_or_scan(F, cx, R_XOR, false, rt, a[0]);
    case PRIM_PLUS_SCAN: return reduce_or_scan(F, cx, R_PLUS, true, rt, a[0]);
    case PRIM_MULT_SCAN: return reduce_or_scan(F, cx, R_MULT, true, rt, a[0]);
    case PRIM_MAX_SCAN: return reduce_or_scan(F, cx, R_MAX, true, rt, a[0]);
    case PRIM_MIN_SCAN: return reduce_or_scan(F, cx, R_MIN, true, rt, a[0]);
    case PRIM_OR_SCAN: return reduce_or_scan(F, cx, R_OR, true, rt, a[0]);
    case PRIM_AND_SCAN: return reduce_or_scan(F, cx, R_AND, true, rt, a[0]);
    case PRIM_XOR_SCAN: return reduce_or_scan(F, cx, R_XOR, true, rt, a[0]);
    case PRIM_LENGTH: return p_length(F, rt, a[0]);
    case PRIM_ELT: return p_elt(F, cx, rt, a[0], a[1], sp);
    case PRIM_DIST: return p_dist(F, cx, rt, a[0], a[1], sp);
    case PRIM_ISEQ: return fl_range(F, cx, a[0], a[2], a[1], sp);
    case PRIM_REP: return p_rep(F, cx, rt, a[0], a[1], a[2], sp);
    case PRIM_READ: return p_read(F, cx, rt, a[0], a[1], sp);
    case PRIM_WRITE: return p_write(F, cx, rt, a[0], a[1], sp);
    case PRIM_PERMUTE: return p_permute(F, cx, rt, a[0], a[1], sp);
    case PRIM_PACK: return p_pack(F, cx, rt, a[0]);
    case PRIM_APPEND: return p_append(F, cx, rt, a[0], a[1]);
    case PRIM_FLATTEN: return p_flatten(F, rt, a[0]);
    case PRIM_PARTITION: return p_partition(F, cx, rt, a[0], a[1], sp);
    case PRIM_RANK: return p_rank(F, rt, a[0], false);
    case PRIM_RANK_DOWN: return p_rank(F, rt, a[0], true);
    default:
        if (!inst) ICE("flatten: primitive %s without its type", prim_info[prim].name);
        return bridge(F, cx, prim, inst, k, a, sp);
    }
}
