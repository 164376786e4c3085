/* lcu_prune.c — literal propagation, constant folding and dead CPU-level
 * bindings (lcu.h, lcu_prune_dead).
 *
 * A CPU-level variable bound to a literal (or a negated one) is replaced by
 * the literal wherever it is read, in thunks too: a kernel then sees
 * `1.0 / d` instead of a parameter `x276 / d` (nvcc turns the first into a
 * reciprocal) and folds the constants of Black-Scholes's polynomials, and
 * the binding is left dead.
 *
 * The flattener binds a nested context's lengths, total and segment ids
 * where it enters the context, whether or not the body reads them; in the
 * CUDA back end each is a device copy (segids of spmv's 9M products: 36 MB
 * written for nothing).  A binding is dropped when none of its names is
 * read later in its block and evaluating it can have no effect: no call of
 * a function or library, no check, no subscript, no division, no SOAC
 * (whose thunks may record errors).
 *
 * A descriptor accessor (lengths, offsets, segids or total of an sd
 * variable) bound again where an earlier binding of the same call is in
 * scope reads that binding instead: the flattener binds segids (s) once per
 * use, and on the GPU each is a copy of the whole vector (mandelbrot's
 * 4e6 segment ids twice, 16 MB each). */
#include <stdint.h>
#include <string.h>
#include "lcu.h"

static bool cannot_fail(const LcuExpr *e);

static bool block_cannot_fail(const LcuExpr *b)
{
    for (int i = 0; i < b->u.block.nbinds; i++)
        if (!cannot_fail(b->u.block.binds[i]->rhs)) return false;
    return cannot_fail(b->u.block.result);
}

static bool cannot_fail(const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR:
    case LE_STRING: case LE_LEN:
        return true;
    case LE_TUPLE: case LE_VECLIT:
        for (int i = 0; i < e->u.tuple.n; i++)
            if (!cannot_fail(e->u.tuple.elems[i])) return false;
        return true;
    case LE_UNOP: return cannot_fail(e->u.un.e);
    case LE_BINOP:
        return e->u.bin.op != LOP_DIV && e->u.bin.op != LOP_MOD && cannot_fail(e->u.bin.l) && cannot_fail(e->u.bin.r);
    case LE_CALL: {
        const char *f = e->u.call.name;
        if (!strcmp(f, "check"))   /* check (failed, site, message): never fails on a literal false (folded) */
            return e->u.call.nargs > 0 && e->u.call.args[0]->kind == LE_BOOL && !e->u.call.args[0]->u.b;
        if (strcmp(f, "lengths") && strcmp(f, "offsets") && strcmp(f, "segids") && strcmp(f, "total")) return false;
        for (int i = 0; i < e->u.call.nargs; i++)
            if (!cannot_fail(e->u.call.args[i])) return false;
        return true;
    }
    case LE_IF: return cannot_fail(e->u.if_.cond) && cannot_fail(e->u.if_.then_e) && cannot_fail(e->u.if_.else_e);
    case LE_BLOCK: return block_cannot_fail(e);
    case LE_LET: case LE_INDEX: case LE_RUN: case LE_SOAC: case LE_LIB: case LE_LOOP: case LE_RECUR:
        return false;
    }
    return false;
}

typedef struct Uses { Arena *a; NameSet *set; } Uses;

static void on_name(void *ctx, Sym x, bool free)
{
    Uses *u = ctx;
    if (free) nameset_add(u->a, u->set, x);
}

static void prune_expr(Arena *a, LcuExpr *e);

static void prune_block(Arena *a, LcuExpr *b)
{
    NameSet used = { 0 };
    Uses u = { a, &used };
    lcu_names_expr(a, b->u.block.result, on_name, &u);
    LcuBind **binds = b->u.block.binds;
    int n = b->u.block.nbinds, kept = n;
    bool *live = arena_alloc(a, sizeof *live * (size_t)(n ? n : 1));
    for (int i = n - 1; i >= 0; i--) {
        live[i] = false;
        for (int v = 0; v < binds[i]->nvars && !live[i]; v++) live[i] = nameset_has(&used, binds[i]->vars[v]);
        if (!live[i] && cannot_fail(binds[i]->rhs)) { kept--; continue; }
        live[i] = true;
        prune_expr(a, binds[i]->rhs);
        lcu_names_expr(a, binds[i]->rhs, on_name, &u);
    }
    if (kept == n) return;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (live[i]) binds[k++] = binds[i];
    b->u.block.nbinds = k;
}

/* Blocks nested in CPU-level code: the branches of an if. */
static void prune_expr(Arena *a, LcuExpr *e)
{
    if (e->kind == LE_BLOCK) prune_block(a, e);
    else if (e->kind == LE_IF) {
        prune_expr(a, e->u.if_.then_e);
        prune_expr(a, e->u.if_.else_e);
    }
}

/* ---- literal propagation ---- */
/* vals: pairs (name, literal or variable it reads as); avail: pairs (an
 * accessor call, the variable bound to it) in scope, truncated at the end
 * of each block */
typedef struct Lits { Arena *a; NameSet names; PtrVec vals; PtrVec avail; } Lits;

static bool is_accessor(const LcuExpr *e)
{
    if (e->kind != LE_CALL || e->u.call.nargs != 1 || e->u.call.args[0]->kind != LE_VAR) return false;
    const char *f = e->u.call.name;
    return !strcmp(f, "lengths") || !strcmp(f, "offsets") || !strcmp(f, "segids") || !strcmp(f, "total");
}

/* The variable an accessor call e was bound to in scope, or NULL. */
static Sym avail_for(const Lits *L, const LcuExpr *e)
{
    for (int i = 0; i < L->avail.len; i += 2) {
        const LcuExpr *c = L->avail.items[i];
        if (c->u.call.name == e->u.call.name && c->u.call.args[0]->u.var == e->u.call.args[0]->u.var)
            return L->avail.items[i + 1];
    }
    return NULL;
}

static bool is_literal(const LcuExpr *e)
{
    return e->kind == LE_INT || e->kind == LE_FLOAT || e->kind == LE_BOOL || e->kind == LE_CHAR;
}

/* The literal e denotes, or NULL: a literal, a negated int or float literal
 * (exact), or a variable already known to be one. */
static LcuExpr *literal_of(Lits *L, LcuExpr *e)
{
    if (is_literal(e)) return e;
    if (e->kind == LE_UNOP && e->u.un.op == LUOP_NEG) {
        const LcuExpr *x = e->u.un.e;
        if (x->kind == LE_FLOAT) return lcu_e_float(L->a, e->span, -x->u.f);
        if (x->kind == LE_INT && x->u.i != INT64_MIN) return lcu_e_int(L->a, e->span, -x->u.i);
    }
    return NULL;
}

static LcuExpr *lookup(const Lits *L, Sym x)
{
    if (!nameset_has(&L->names, x)) return NULL;
    for (int i = 0; i < L->vals.len; i += 2)
        if (L->vals.items[i] == x) {
            LcuExpr *v = L->vals.items[i + 1];
            if (v->kind != LE_VAR) return v;
            LcuExpr *n = lcu_e_var(L->a, v->span, v->u.var);   /* a node per read, typed as the read */
            n->type = v->type;
            return n;
        }
    return NULL;
}

static void known_as(Lits *L, Sym x, LcuExpr *v)
{
    nameset_add(L->a, &L->names, x);
    ptrvec_push(L->a, &L->vals, (void *)x);
    ptrvec_push(L->a, &L->vals, v);
}

static void subst_expr(Lits *L, LcuExpr **ep);

/* ---- constant folding ----
 * Where propagation leaves literals on both sides: an int comparison, a
 * `not` of a bool, an `and`/`or` with a literal operand (a dropped operand
 * on the right only where it cannot fail: the left is evaluated first and
 * may report an error), and an `if` on a literal.  The flattener's bounds
 * checks of constant subscripts (`if 0 < 0 || 0 >= 2 then guard ... else`
 * in quicksort's lifted `result[0]`) vanish with them. */
static LcuExpr *bool_lit(Lits *L, const LcuExpr *e, bool v)
{
    LcuExpr *r = lcu_e_bool(L->a, e->span, v);
    r->type = e->type;
    return r;
}

static bool int_compare(LcuBinop op, int64_t x, int64_t y, bool *r)
{
    switch (op) {
    case LOP_EQ: *r = x == y; return true;
    case LOP_NE: *r = x != y; return true;
    case LOP_LT: *r = x < y; return true;
    case LOP_LE: *r = x <= y; return true;
    case LOP_GT: *r = x > y; return true;
    case LOP_GE: *r = x >= y; return true;
    case LOP_ADD: case LOP_SUB: case LOP_MUL: case LOP_DIV: case LOP_MOD: case LOP_AND: case LOP_OR:
        return false;
    }
    return false;
}

static LcuExpr *fold_binop(Lits *L, LcuExpr *e)
{
    LcuExpr *l = e->u.bin.l, *r = e->u.bin.r;
    LcuBinop op = e->u.bin.op;
    bool v;
    if (l->kind == LE_INT && r->kind == LE_INT && int_compare(op, l->u.i, r->u.i, &v)) return bool_lit(L, e, v);
    if (op != LOP_AND && op != LOP_OR) return e;
    bool absorbing = op == LOP_OR;   /* true || x, false && x */
    if (l->kind == LE_BOOL) return l->u.b == absorbing ? bool_lit(L, e, absorbing) : r;
    if (r->kind == LE_BOOL) {
        if (r->u.b != absorbing) return l;
        if (cannot_fail(l)) return bool_lit(L, e, absorbing);
    }
    return e;
}

static LcuExpr *fold_expr(Lits *L, LcuExpr *e)
{
    switch (e->kind) {
    case LE_BINOP: return fold_binop(L, e);
    case LE_UNOP:
        return e->u.un.op == LUOP_NOT && e->u.un.e->kind == LE_BOOL ? bool_lit(L, e, !e->u.un.e->u.b) : e;
    case LE_IF: {   /* not to a block: a CPU-level if's branches are blocks, which the back ends take only there */
        if (e->u.if_.cond->kind != LE_BOOL) return e;
        LcuExpr *taken = e->u.if_.cond->u.b ? e->u.if_.then_e : e->u.if_.else_e;
        return taken->kind == LE_BLOCK ? e : taken;
    }
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING: case LE_LEN: case LE_VAR:
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: case LE_LET: case LE_LOOP: case LE_INDEX: case LE_RUN: case LE_CALL:
    case LE_LIB: case LE_SOAC: case LE_BLOCK:
        return e;
    }
    return e;
}

static void subst_list(Lits *L, int n, LcuExpr **es)
{
    for (int i = 0; i < n; i++) subst_expr(L, &es[i]);
}

static void subst_soac(Lits *L, LcuSoac *s)
{
    for (int i = 0; i < s->nargs; i++) {
        LcuArg *g = s->args[i];
        if (g->kind == LA_THUNK) subst_expr(L, &g->u.thunk->body);
        else subst_expr(L, &g->u.expr);
    }
    if (s->kept) subst_expr(L, &s->kept);
}

/* Replaces reads of known literals in *ep (in place: names are unique in
 * built programs, so no binder can shadow one); CPU-level lets of literals
 * become known on the way. */
static void subst_expr(Lits *L, LcuExpr **ep)
{
    LcuExpr *e = *ep;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING: case LE_LEN:
        return;
    case LE_VAR: {
        LcuExpr *v = lookup(L, e->u.var);
        if (v) *ep = v;
        return;
    }
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: subst_list(L, e->u.tuple.n, e->u.tuple.elems); return;
    case LE_LET: case LE_LOOP: subst_expr(L, &e->u.let.bind->rhs); subst_expr(L, &e->u.let.body); return;
    case LE_IF:
        subst_expr(L, &e->u.if_.cond);
        subst_expr(L, &e->u.if_.then_e);
        subst_expr(L, &e->u.if_.else_e);
        *ep = fold_expr(L, e);
        return;
    case LE_BINOP: subst_expr(L, &e->u.bin.l); subst_expr(L, &e->u.bin.r); *ep = fold_expr(L, e); return;
    case LE_UNOP: subst_expr(L, &e->u.un.e); *ep = fold_expr(L, e); return;
    case LE_INDEX: subst_expr(L, &e->u.index.idx); return;
    case LE_RUN: case LE_CALL: subst_list(L, e->u.call.nargs, e->u.call.args); return;
    case LE_LIB: subst_list(L, e->u.lib.nargs, e->u.lib.args); return;
    case LE_SOAC: subst_soac(L, e->u.soac); return;
    case LE_BLOCK: {
        int mark = L->avail.len;
        for (int i = 0; i < e->u.block.nbinds; i++) {
            LcuBind *b = e->u.block.binds[i];
            subst_expr(L, &b->rhs);
            if (b->nvars != 1) continue;
            LcuExpr *v = literal_of(L, b->rhs);
            if (v) {
                known_as(L, b->vars[0], v);
            } else if (is_accessor(b->rhs)) {
                Sym y = avail_for(L, b->rhs);
                if (y) {   /* reads of vars[0] become reads of y (lookup makes a node per read) */
                    LcuExpr *x = lcu_e_var(L->a, b->rhs->span, y);
                    x->type = b->rhs->type;
                    known_as(L, b->vars[0], x);
                } else {
                    ptrvec_push(L->a, &L->avail, b->rhs);
                    ptrvec_push(L->a, &L->avail, (void *)b->vars[0]);
                }
            }
        }
        subst_expr(L, &e->u.block.result);
        L->avail.len = mark;
        return;
    }
    }
}

void lcu_prune_dead(Arena *a, LcuProgram *p)
{
    for (int i = 0; i < p->nkernels; i++) {   /* kernels: folding only (their parameters are not literals) */
        Lits L = { a, { 0 }, { 0 }, { 0 } };
        for (int j = 0; j < p->kernels[i]->nbinds; j++) subst_soac(&L, p->kernels[i]->binds[j]->soac);
    }
    for (int i = 0; i < p->nfuns; i++) {
        Lits L = { a, { 0 }, { 0 }, { 0 } };
        subst_expr(&L, &p->funs[i]->body);
        prune_block(a, p->funs[i]->body);
    }
}
