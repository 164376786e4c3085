/* lcu_ast.c — constructors for λcu types and trees. */
#include <math.h>
#include <string.h>
#include "lcu.h"

static LcuType *t_new(Arena *a, LcuTypeKind k, LcuBase b)
{
    LcuType *t = arena_alloc(a, sizeof *t);
    t->kind = k;
    t->base = b;
    return t;
}

const LcuType *lcu_t_base(Arena *a, LcuBase b) { return t_new(a, LT_BASE, b); }
const LcuType *lcu_t_vec(Arena *a, LcuBase b) { return t_new(a, LT_VEC, b); }
const LcuType *lcu_t_ref(Arena *a, LcuBase b) { return t_new(a, LT_REF, b); }
const LcuType *lcu_t_sd(Arena *a) { return t_new(a, LT_SD, LB_UNIT); }

const LcuType *lcu_t_tuple(Arena *a, int n, const LcuType **elems)
{
    int total = 0;
    for (int i = 0; i < n; i++) total += lcu_t_arity(elems[i]);
    if (total == 1) {
        for (int i = 0; i < n; i++)
            if (lcu_t_arity(elems[i]) == 1) return elems[i];
    }
    LcuType *t = t_new(a, LT_TUPLE, LB_UNIT);
    t->n = total;
    t->elems = arena_alloc(a, sizeof *t->elems * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < lcu_t_arity(elems[i]); j++)
            t->elems[k++] = lcu_t_component(elems[i], j);
    return t;
}

int lcu_t_arity(const LcuType *t) { return t->kind == LT_TUPLE ? t->n : 1; }

const LcuType *lcu_t_component(const LcuType *t, int i)
{
    return t->kind == LT_TUPLE ? t->elems[i] : t;
}

bool lcu_t_equal(const LcuType *x, const LcuType *y)
{
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case LT_BASE: case LT_VEC: case LT_REF: return x->base == y->base;
    case LT_SD: return true;
    case LT_TUPLE:
        if (x->n != y->n) return false;
        for (int i = 0; i < x->n; i++)
            if (!lcu_t_equal(x->elems[i], y->elems[i])) return false;
        return true;
    }
    return false;
}

const char *lcu_base_name(LcuBase b)
{
    switch (b) {
    case LB_BOOL: return "bool";
    case LB_INT: return "int";
    case LB_FLOAT: return "float";
    case LB_CHAR: return "char";
    case LB_UNIT: return "unit";
    }
    return "?";
}

const char *lcu_soac_name(LcuSoacKind k)
{
    switch (k) {
    case LS_MAP: return "MAP";
    case LS_PERMUTE: return "PERMUTE";
    case LS_REDUCE: return "REDUCE";
    case LS_SCAN: return "SCAN";
    case LS_FILTER: return "FILTER";
    case LS_PARTITION: return "PARTITION";
    case LS_ONCE: return "ONCE";
    case LS_SEG_PERMUTE: return "SEG_PERMUTE";
    case LS_SEG_REDUCE: return "SEG_REDUCE";
    case LS_SEG_SCAN: return "SEG_SCAN";
    case LS_SEG_FILTER: return "SEG_FILTER";
    case LS_SEG_PARTITION: return "SEG_PARTITION";
    }
    return "?";
}

/* ---- expressions ---- */
static LcuExpr *e_new(Arena *a, LcuExprKind k, Span sp)
{
    LcuExpr *e = arena_alloc(a, sizeof *e);
    e->kind = k;
    e->span = sp;
    return e;
}

LcuExpr *lcu_e_int(Arena *a, Span sp, int64_t v) { LcuExpr *e = e_new(a, LE_INT, sp); e->u.i = v; return e; }
LcuExpr *lcu_e_float(Arena *a, Span sp, double v) { LcuExpr *e = e_new(a, LE_FLOAT, sp); e->u.f = v; return e; }
LcuExpr *lcu_e_bool(Arena *a, Span sp, bool v) { LcuExpr *e = e_new(a, LE_BOOL, sp); e->u.b = v; return e; }
LcuExpr *lcu_e_char(Arena *a, Span sp, int64_t c) { LcuExpr *e = e_new(a, LE_CHAR, sp); e->u.i = c; return e; }
LcuExpr *lcu_e_unit(Arena *a, Span sp) { return e_new(a, LE_UNIT, sp); }
LcuExpr *lcu_e_var(Arena *a, Span sp, Sym x) { LcuExpr *e = e_new(a, LE_VAR, sp); e->u.var = x; return e; }

LcuExpr *lcu_e_tuple(Arena *a, Span sp, int n, LcuExpr **elems)
{
    LcuExpr *e = e_new(a, LE_TUPLE, sp);
    e->u.tuple.n = n;
    e->u.tuple.elems = elems;
    return e;
}

LcuExpr *lcu_e_veclit(Arena *a, Span sp, int n, LcuExpr **elems)
{
    LcuExpr *e = lcu_e_tuple(a, sp, n, elems);
    e->kind = LE_VECLIT;
    return e;
}

LcuExpr *lcu_e_let(Arena *a, Span sp, LcuBind *b, LcuExpr *body)
{
    LcuExpr *e = e_new(a, LE_LET, sp);
    e->u.let.bind = b;
    e->u.let.body = body;
    return e;
}

LcuExpr *lcu_e_loop(Arena *a, Span sp, LcuBind *b, LcuExpr *body)
{
    LcuExpr *e = lcu_e_let(a, sp, b, body);
    e->kind = LE_LOOP;
    return e;
}

LcuExpr *lcu_e_recur(Arena *a, Span sp, int n, LcuExpr **args)
{
    LcuExpr *e = lcu_e_tuple(a, sp, n, args);
    e->kind = LE_RECUR;
    return e;
}

LcuExpr *lcu_e_if(Arena *a, Span sp, LcuExpr *c, LcuExpr *t, LcuExpr *f)
{
    LcuExpr *e = e_new(a, LE_IF, sp);
    e->u.if_.cond = c;
    e->u.if_.then_e = t;
    e->u.if_.else_e = f;
    return e;
}

LcuExpr *lcu_e_binop(Arena *a, Span sp, LcuBinop op, LcuExpr *l, LcuExpr *r)
{
    LcuExpr *e = e_new(a, LE_BINOP, sp);
    e->u.bin.op = op;
    e->u.bin.l = l;
    e->u.bin.r = r;
    return e;
}

LcuExpr *lcu_e_unop(Arena *a, Span sp, LcuUnop op, LcuExpr *x)
{
    LcuExpr *e = e_new(a, LE_UNOP, sp);
    e->u.un.op = op;
    e->u.un.e = x;
    return e;
}

LcuExpr *lcu_e_index(Arena *a, Span sp, Sym vec, Span vec_span, LcuExpr *idx, bool inrange)
{
    LcuExpr *e = e_new(a, LE_INDEX, sp);
    e->u.index.vec = vec;
    e->u.index.vec_span = vec_span;
    e->u.index.idx = idx;
    e->u.index.inrange = inrange;
    return e;
}

LcuExpr *lcu_e_len(Arena *a, Span sp, Sym vec, bool paren)
{
    LcuExpr *e = e_new(a, LE_LEN, sp);
    e->u.len.vec = vec;
    e->u.len.paren = paren;
    return e;
}

LcuExpr *lcu_e_run(Arena *a, Span sp, Sym k, int nargs, LcuExpr **args)
{
    LcuExpr *e = e_new(a, LE_RUN, sp);
    e->u.call.name = k;
    e->u.call.nargs = nargs;
    e->u.call.args = args;
    return e;
}

LcuExpr *lcu_e_call(Arena *a, Span sp, Sym fn, int nargs, LcuExpr **args)
{
    LcuExpr *e = lcu_e_run(a, sp, fn, nargs, args);
    e->kind = LE_CALL;
    return e;
}

LcuExpr *lcu_e_block(Arena *a, Span sp, int nbinds, LcuBind **binds, LcuExpr *result)
{
    LcuExpr *e = e_new(a, LE_BLOCK, sp);
    e->u.block.nbinds = nbinds;
    e->u.block.binds = binds;
    e->u.block.result = result;
    return e;
}

LcuExpr *lcu_e_string(Arena *a, Span sp, const char *str, int len)
{
    LcuExpr *e = e_new(a, LE_STRING, sp);
    e->u.str.s = str;
    e->u.str.len = len;
    return e;
}

LcuExpr *lcu_e_soac(Arena *a, Span sp, struct LcuSoac *s)
{
    LcuExpr *e = e_new(a, LE_SOAC, sp);
    e->u.soac = s;
    return e;
}

LcuExpr *lcu_e_lib(Arena *a, Span sp, Sym name, const char *tag, int nargs, LcuExpr **args, const LcuType *result)
{
    LcuExpr *e = e_new(a, LE_LIB, sp);
    e->u.lib.name = name;
    e->u.lib.tag = tag;
    e->u.lib.nargs = nargs;
    e->u.lib.args = args;
    e->u.lib.result = result;
    return e;
}

LcuBind *lcu_bind(Arena *a, Span sp, int nvars, Sym *vars, const LcuType **types, LcuExpr *rhs)
{
    LcuBind *b = arena_alloc(a, sizeof *b);
    b->span = sp;
    b->nvars = nvars;
    b->vars = vars;
    b->types = types;
    b->rhs = rhs;
    return b;
}

/* ---- kernel level ---- */
LcuThunk *lcu_thunk(Arena *a, Span sp, int np, Sym *params, LcuExpr *body, int nusing, Sym *using_)
{
    LcuThunk *t = arena_alloc(a, sizeof *t);
    t->span = sp;
    t->nparams = np;
    t->params = params;
    t->body = body;
    t->nusing = nusing;
    t->using_ = using_;
    t->using_spans = arena_alloc(a, sizeof(Span) * (size_t)(nusing ? nusing : 1));
    for (int i = 0; i < nusing; i++) t->using_spans[i] = sp;
    return t;
}

LcuArg *lcu_arg_thunk(Arena *a, LcuThunk *t)
{
    LcuArg *g = arena_alloc(a, sizeof *g);
    g->kind = LA_THUNK;
    g->span = t->span;
    g->u.thunk = t;
    return g;
}

LcuArg *lcu_arg_expr(Arena *a, Span sp, LcuExpr *e)
{
    LcuArg *g = arena_alloc(a, sizeof *g);
    g->kind = LA_EXPR;
    g->span = sp;
    g->u.expr = e;
    return g;
}

LcuSoac *lcu_soac(Arena *a, Span sp, LcuSoacKind k, int nargs, LcuArg **args)
{
    LcuSoac *s = arena_alloc(a, sizeof *s);
    s->kind = k;
    s->span = sp;
    s->nargs = nargs;
    s->args = args;
    return s;
}

/* Does e hold an iterate?  A loop's cost is unbounded and varies between
 * elements: fusion never inlines a MAP holding one into its readers, and
 * the CUDA MAP gives each of its elements a thread of its own. */
bool lcu_has_loop(const LcuExpr *e)
{
    switch (e->kind) {
    case LE_LOOP: return true;
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN: case LE_STRING:
        return false;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) if (lcu_has_loop(e->u.tuple.elems[i])) return true;
        return false;
    case LE_LET: return lcu_has_loop(e->u.let.bind->rhs) || lcu_has_loop(e->u.let.body);
    case LE_IF: return lcu_has_loop(e->u.if_.cond) || lcu_has_loop(e->u.if_.then_e) || lcu_has_loop(e->u.if_.else_e);
    case LE_BINOP: return lcu_has_loop(e->u.bin.l) || lcu_has_loop(e->u.bin.r);
    case LE_UNOP: return lcu_has_loop(e->u.un.e);
    case LE_INDEX: return lcu_has_loop(e->u.index.idx);
    case LE_RUN: case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) if (lcu_has_loop(e->u.call.args[i])) return true;
        return false;
    case LE_BLOCK: case LE_SOAC: case LE_LIB: return false;   /* CPU level: not in thunks */
    }
    return false;
}

/* Nodes of a GPU-level expression: what fusion weighs inlining by, and
 * the CUDA MAP its elements per thread. */
int lcu_expr_size(const LcuExpr *e)
{
    switch (e->kind) {
    case LE_TUPLE: case LE_RECUR: { int s = 1; for (int i = 0; i < e->u.tuple.n; i++) s += lcu_expr_size(e->u.tuple.elems[i]); return s; }
    case LE_LET: case LE_LOOP: return 1 + lcu_expr_size(e->u.let.bind->rhs) + lcu_expr_size(e->u.let.body);
    case LE_IF: return 1 + lcu_expr_size(e->u.if_.cond) + lcu_expr_size(e->u.if_.then_e) + lcu_expr_size(e->u.if_.else_e);
    case LE_BINOP: return 1 + lcu_expr_size(e->u.bin.l) + lcu_expr_size(e->u.bin.r);
    case LE_UNOP: return 1 + lcu_expr_size(e->u.un.e);
    case LE_INDEX: return 1 + lcu_expr_size(e->u.index.idx);
    case LE_CALL: { int s = 1; for (int i = 0; i < e->u.call.nargs; i++) s += lcu_expr_size(e->u.call.args[i]); return s; }
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN: case LE_STRING:
    case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return 1;
    }
    return 1;
}

/* ---- alpha-equivalence of GPU-level thunks ---- */
/* Pairs of names bound at the same place of the two expressions. */
typedef struct Renaming { Sym x, y; const struct Renaming *next; } Renaming;

/* x in one expression and y in the other name the same thing: bound
 * together by the innermost binder of either, or both free and equal. */
static bool same_name(const Renaming *r, Sym x, Sym y)
{
    for (; r; r = r->next)
        if (r->x == x || r->y == y) return r->x == x && r->y == y;
    return x == y;
}

static bool alpha_equal(const LcuExpr *a, const LcuExpr *b, const Renaming *r);

static bool all_alpha_equal(int n, LcuExpr *const *a, LcuExpr *const *b, const Renaming *r)
{
    for (int i = 0; i < n; i++)
        if (!alpha_equal(a[i], b[i], r)) return false;
    return true;
}

/* let / iterate: the right-hand sides in r, the bodies with the variables
 * paired (at most 16 a binding; more compares as different) */
static bool bind_alpha_equal(const LcuExpr *a, const LcuExpr *b, const Renaming *r)
{
    const LcuBind *p = a->u.let.bind, *q = b->u.let.bind;
    if (p->nvars != q->nvars || p->nvars > 16 || !alpha_equal(p->rhs, q->rhs, r)) return false;
    Renaming ren[16];
    for (int i = 0; i < p->nvars; i++) {
        ren[i] = (Renaming){ p->vars[i], q->vars[i], i ? &ren[i - 1] : r };
    }
    return alpha_equal(a->u.let.body, b->u.let.body, p->nvars ? &ren[p->nvars - 1] : r);
}

static bool alpha_equal(const LcuExpr *a, const LcuExpr *b, const Renaming *r)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case LE_INT: case LE_CHAR: return a->u.i == b->u.i;
    case LE_FLOAT: return a->u.f == b->u.f && signbit(a->u.f) == signbit(b->u.f);
    case LE_BOOL: return a->u.b == b->u.b;
    case LE_UNIT: return true;
    case LE_VAR: return same_name(r, a->u.var, b->u.var);
    case LE_TUPLE: case LE_RECUR:
        return a->u.tuple.n == b->u.tuple.n && all_alpha_equal(a->u.tuple.n, a->u.tuple.elems, b->u.tuple.elems, r);
    case LE_LET: case LE_LOOP: return bind_alpha_equal(a, b, r);
    case LE_IF:
        return alpha_equal(a->u.if_.cond, b->u.if_.cond, r) && alpha_equal(a->u.if_.then_e, b->u.if_.then_e, r) &&
               alpha_equal(a->u.if_.else_e, b->u.if_.else_e, r);
    case LE_BINOP: return a->u.bin.op == b->u.bin.op && alpha_equal(a->u.bin.l, b->u.bin.l, r) && alpha_equal(a->u.bin.r, b->u.bin.r, r);
    case LE_UNOP: return a->u.un.op == b->u.un.op && alpha_equal(a->u.un.e, b->u.un.e, r);
    case LE_INDEX:
        return a->u.index.inrange == b->u.index.inrange && same_name(r, a->u.index.vec, b->u.index.vec) &&
               alpha_equal(a->u.index.idx, b->u.index.idx, r);
    case LE_LEN: return same_name(r, a->u.len.vec, b->u.len.vec);
    case LE_CALL:
        return a->u.call.name == b->u.call.name && a->u.call.nargs == b->u.call.nargs &&
               all_alpha_equal(a->u.call.nargs, a->u.call.args, b->u.call.args, r);
    case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB:
        return false;   /* CPU level: never in a thunk */
    }
    return false;
}

bool lcu_thunk_alpha_equal(const LcuThunk *x, const LcuThunk *y)
{
    if (x->nparams != y->nparams || x->nparams > 16) return false;
    Renaming ren[16];
    for (int i = 0; i < x->nparams; i++) ren[i] = (Renaming){ x->params[i], y->params[i], i ? &ren[i - 1] : NULL };
    return alpha_equal(x->body, y->body, x->nparams ? &ren[x->nparams - 1] : NULL);
}

bool lcu_expr_equal(const LcuExpr *x, const LcuExpr *y) { return alpha_equal(x, y, NULL); }

bool lcu_soac_alpha_equal(const LcuSoac *x, const LcuSoac *y)
{
    if (x->kind != y->kind || x->nargs != y->nargs || !x->kept != !y->kept) return false;
    if (x->kept && !alpha_equal(x->kept, y->kept, NULL)) return false;
    for (int i = 0; i < x->nargs; i++) {
        const LcuArg *a = x->args[i], *b = y->args[i];
        if (a->kind != b->kind) return false;
        if (a->kind == LA_THUNK ? !lcu_thunk_alpha_equal(a->u.thunk, b->u.thunk) : !alpha_equal(a->u.expr, b->u.expr, NULL)) return false;
    }
    return true;
}
