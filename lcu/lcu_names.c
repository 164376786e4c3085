/* lcu_names.c — the names of a λcu tree in evaluation order (lcu.h,
 * lcu_names_*), shared by kernel formation and fusion, which both need a
 * tree's free variables (a kernel's parameters, a fused kernel's inputs)
 * and the names it mentions (to pick fresh ones). */
#include "lcu.h"

typedef struct Walk {
    Arena *a;
    PtrVec bound;            /* names bound around the current node, innermost last */
    LcuNameFn fn;
    void *ctx;
} Walk;

static void w_use(Walk *w, Sym x)
{
    bool free = true;
    for (int i = w->bound.len - 1; i >= 0 && free; i--) free = w->bound.items[i] != x;
    w->fn(w->ctx, x, free);
}

static void w_bind(Walk *w, int n, const Sym *xs)
{
    for (int i = 0; i < n; i++) {
        ptrvec_push(w->a, &w->bound, (void *)xs[i]);
        w->fn(w->ctx, xs[i], false);
    }
}

static void w_expr(Walk *w, const LcuExpr *e);

static void w_thunk(Walk *w, const LcuThunk *t)
{
    int mark = w->bound.len;
    w_bind(w, t->nparams, t->params);
    w_expr(w, t->body);
    w->bound.len = mark;
}

static void w_arg(Walk *w, const LcuArg *g)
{
    switch (g->kind) {
    case LA_THUNK: w_thunk(w, g->u.thunk); return;
    case LA_EXPR: w_expr(w, g->u.expr); return;
    }
    ICE("lcu_names: bad SOAC argument kind %d", (int)g->kind);
}

static void w_soac(Walk *w, const LcuSoac *s)
{
    for (int i = 0; i < s->nargs; i++) w_arg(w, s->args[i]);
    if (s->kept) w_expr(w, s->kept);
}

static void w_list(Walk *w, int n, LcuExpr *const *es)
{
    for (int i = 0; i < n; i++) w_expr(w, es[i]);
}

static void w_expr(Walk *w, const LcuExpr *e)
{
    int mark = w->bound.len;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING:
        return;
    case LE_VAR: w_use(w, e->u.var); return;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: w_list(w, e->u.tuple.n, e->u.tuple.elems); return;
    case LE_LET: case LE_LOOP:
        w_expr(w, e->u.let.bind->rhs);
        w_bind(w, e->u.let.bind->nvars, e->u.let.bind->vars);
        w_expr(w, e->u.let.body);
        w->bound.len = mark;
        return;
    case LE_IF:
        w_expr(w, e->u.if_.cond);
        w_expr(w, e->u.if_.then_e);
        w_expr(w, e->u.if_.else_e);
        return;
    case LE_BINOP: w_expr(w, e->u.bin.l); w_expr(w, e->u.bin.r); return;
    case LE_UNOP: w_expr(w, e->u.un.e); return;
    case LE_INDEX: w_use(w, e->u.index.vec); w_expr(w, e->u.index.idx); return;
    case LE_LEN: w_use(w, e->u.len.vec); return;
    case LE_RUN: case LE_CALL: w_list(w, e->u.call.nargs, e->u.call.args); return;
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) {
            w_expr(w, e->u.block.binds[i]->rhs);
            w_bind(w, e->u.block.binds[i]->nvars, e->u.block.binds[i]->vars);
        }
        w_expr(w, e->u.block.result);
        w->bound.len = mark;
        return;
    case LE_SOAC: w_soac(w, e->u.soac); return;
    case LE_LIB: w_list(w, e->u.lib.nargs, e->u.lib.args); return;
    }
    ICE("lcu_names: bad expression kind %d", (int)e->kind);
}

void lcu_names_expr(Arena *a, const LcuExpr *e, LcuNameFn fn, void *ctx)
{
    Walk w = { a, { 0 }, fn, ctx };
    w_expr(&w, e);
}

void lcu_names_thunk(Arena *a, const LcuThunk *t, LcuNameFn fn, void *ctx)
{
    Walk w = { a, { 0 }, fn, ctx };
    w_thunk(&w, t);
}

void lcu_names_arg(Arena *a, const LcuArg *g, LcuNameFn fn, void *ctx)
{
    Walk w = { a, { 0 }, fn, ctx };
    w_arg(&w, g);
}

void lcu_names_soac(Arena *a, const LcuSoac *s, LcuNameFn fn, void *ctx)
{
    Walk w = { a, { 0 }, fn, ctx };
    w_soac(&w, s);
}
