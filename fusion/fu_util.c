/* fu_util.c — names, free variables and the capture-avoiding copier the
 * fusion phase builds merged kernels and rewritten thunks with. */
#include <string.h>
#include "fu_impl.h"

/* ------------------------------------------------------------------ name sets
 * Open addressing on the interned pointer. */

static size_t slot_of(Sym x, int cap) { return ((uintptr_t)x >> 3) * 2654435761u % (size_t)cap; }

bool nameset_has(const NameSet *s, Sym x)
{
    if (!s || !s->cap) return false;
    for (size_t i = slot_of(x, s->cap);; i = (i + 1) % (size_t)s->cap) {
        if (!s->slots[i]) return false;
        if (s->slots[i] == x) return true;
    }
}

void nameset_add(Arena *a, NameSet *s, Sym x)
{
    if (nameset_has(s, x)) return;
    if (2 * (s->len + 1) > s->cap) {
        NameSet n = { arena_alloc(a, sizeof(Sym) * (size_t)(s->cap ? 2 * s->cap : 64)), s->cap ? 2 * s->cap : 64, 0 };
        for (int i = 0; i < s->cap; i++)
            if (s->slots[i]) nameset_add(a, &n, s->slots[i]);
        *s = n;
    }
    size_t i = slot_of(x, s->cap);
    while (s->slots[i]) i = (i + 1) % (size_t)s->cap;
    s->slots[i] = x;
    s->len++;
}

Sym fu_fresh(Fu *F, NameSet *taken, Sym base)
{
    /* Strip an earlier _N suffix so that renaming twice stays short. */
    size_t len = strlen(base);
    size_t cut = len;
    while (cut > 0 && base[cut - 1] >= '0' && base[cut - 1] <= '9') cut--;
    if (cut > 1 && cut < len && base[cut - 1] == '_') len = cut - 1;
    char buf[256];
    Sym s = intern(F->in, base, len);
    for (int k = 1; nameset_has(taken, s); k++) {
        snprintf(buf, sizeof buf, "%.*s_%d", (int)(len > 200 ? 200 : len), base, k);
        s = intern_cstr(F->in, buf);
    }
    nameset_add(F->a, taken, s);
    return s;
}

/* ------------------------------------------------------------------ free variables */

typedef struct Fv { Fu *F; PtrVec bound; PtrVec *out; NameSet *all; } Fv;

static bool bound_has(const PtrVec *v, Sym x)
{
    for (int i = v->len - 1; i >= 0; i--)
        if (v->items[i] == x) return true;
    return false;
}

static void fv_name(Fv *v, Sym x)
{
    if (v->all) { nameset_add(v->F->a, v->all, x); return; }
    if (bound_has(&v->bound, x)) return;
    for (int i = 0; i < v->out->len; i++)
        if (v->out->items[i] == x) return;
    ptrvec_push(v->F->a, v->out, (void *)x);
}

static void fv_bind(Fv *v, int n, const Sym *xs)
{
    for (int i = 0; i < n; i++) {
        ptrvec_push(v->F->a, &v->bound, (void *)xs[i]);
        if (v->all) nameset_add(v->F->a, v->all, xs[i]);
    }
}

static void fv_expr(Fv *v, const LcuExpr *e);

static void fv_thunk(Fv *v, const LcuThunk *t)
{
    int mark = v->bound.len;
    fv_bind(v, t->nparams, t->params);
    fv_expr(v, t->body);
    v->bound.len = mark;
}

static void fv_arg(Fv *v, const LcuArg *g)
{
    switch (g->kind) {
    case LA_THUNK: fv_thunk(v, g->u.thunk); return;
    case LA_EXPR: fv_expr(v, g->u.expr); return;
    }
}

static void fv_expr(Fv *v, const LcuExpr *e)
{
    int mark = v->bound.len;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING:
        return;
    case LE_VAR: fv_name(v, e->u.var); return;
    case LE_TUPLE: case LE_VECLIT:
        for (int i = 0; i < e->u.tuple.n; i++) fv_expr(v, e->u.tuple.elems[i]);
        return;
    case LE_LET:
        fv_expr(v, e->u.let.bind->rhs);
        fv_bind(v, e->u.let.bind->nvars, e->u.let.bind->vars);
        fv_expr(v, e->u.let.body);
        v->bound.len = mark;
        return;
    case LE_IF:
        fv_expr(v, e->u.if_.cond);
        fv_expr(v, e->u.if_.then_e);
        fv_expr(v, e->u.if_.else_e);
        return;
    case LE_BINOP: fv_expr(v, e->u.bin.l); fv_expr(v, e->u.bin.r); return;
    case LE_UNOP: fv_expr(v, e->u.un.e); return;
    case LE_INDEX: fv_name(v, e->u.index.vec); fv_expr(v, e->u.index.idx); return;
    case LE_LEN: fv_name(v, e->u.len.vec); return;
    case LE_RUN: case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) fv_expr(v, e->u.call.args[i]);
        return;
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) {
            fv_expr(v, e->u.block.binds[i]->rhs);
            fv_bind(v, e->u.block.binds[i]->nvars, e->u.block.binds[i]->vars);
        }
        fv_expr(v, e->u.block.result);
        v->bound.len = mark;
        return;
    case LE_SOAC:
        for (int i = 0; i < e->u.soac->nargs; i++) fv_arg(v, e->u.soac->args[i]);
        return;
    case LE_LIB:
        for (int i = 0; i < e->u.lib.nargs; i++) fv_expr(v, e->u.lib.args[i]);
        return;
    }
    ICE("fusion: bad expression kind %d", (int)e->kind);
}

void fu_free_vars_expr(Fu *F, const LcuExpr *e, PtrVec *out) { Fv v = { F, { 0 }, out, NULL }; fv_expr(&v, e); }
void fu_free_vars_thunk(Fu *F, const LcuThunk *t, PtrVec *out) { Fv v = { F, { 0 }, out, NULL }; fv_thunk(&v, t); }
void fu_free_vars_arg(Fu *F, const LcuArg *g, PtrVec *out) { Fv v = { F, { 0 }, out, NULL }; fv_arg(&v, g); }
void fu_all_names_expr(Fu *F, const LcuExpr *e, NameSet *s) { PtrVec o = { 0 }; Fv v = { F, { 0 }, &o, s }; fv_expr(&v, e); }

bool fu_mentions(Fu *F, const LcuExpr *e, Sym x)
{
    PtrVec o = { 0 };
    fu_free_vars_expr(F, e, &o);
    for (int i = 0; i < o.len; i++)
        if (o.items[i] == x) return true;
    return false;
}

/* ------------------------------------------------------------------ copying */

const Sub *sub_add(Fu *F, const Sub *s, Sym from, Sym to, const LcuExpr *expr)
{
    Sub *n = arena_alloc(F->a, sizeof *n);
    *n = (Sub){ from, to, expr, s };
    return n;
}

static const Sub *sub_find(const Sub *s, Sym x)
{
    for (; s; s = s->next)
        if (s->from == x) return s;
    return NULL;
}

static Sym rename_var(const Sub *s, Sym x)
{
    const Sub *f = sub_find(s, x);
    return f && !f->expr ? f->to : x;
}

/* New names for binders; the substitution maps old to new (or to itself,
 * which hides an outer substitution of the same name). */
static Sym *bind_names(Copier *c, int n, const Sym *xs, const Sub **s)
{
    Sym *v = arena_alloc(c->F->a, sizeof *v * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        v[i] = (c->fresh || nameset_has(c->avoid, xs[i])) ? fu_fresh(c->F, c->taken, xs[i]) : xs[i];
        *s = sub_add(c->F, *s, xs[i], v[i], NULL);
    }
    return v;
}

static LcuExpr *dup(Copier *c, const LcuExpr *e)
{
    LcuExpr *n = arena_alloc(c->F->a, sizeof *n);
    *n = *e;
    n->type = NULL;
    return n;
}

LcuExpr *fu_copy(Copier *c, const LcuExpr *e, const Sub *s)
{
    Arena *a = c->F->a;
    LcuExpr *n;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING:
        return dup(c, e);
    case LE_VAR: {
        const Sub *f = sub_find(s, e->u.var);
        if (f && f->expr) {
            Copier plain = *c;
            plain.on_index = NULL;
            plain.on_len = NULL;
            return fu_copy(&plain, f->expr, NULL);
        }
        n = dup(c, e);
        n->u.var = f ? f->to : e->u.var;
        return n;
    }
    case LE_TUPLE: case LE_VECLIT:
        n = dup(c, e);
        n->u.tuple.elems = arena_alloc(a, sizeof(LcuExpr *) * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) n->u.tuple.elems[i] = fu_copy(c, e->u.tuple.elems[i], s);
        return n;
    case LE_LET: {
        const LcuBind *b = e->u.let.bind;
        LcuExpr *rhs = fu_copy(c, b->rhs, s);
        Sym *vars = bind_names(c, b->nvars, b->vars, &s);
        LcuBind *nb = lcu_bind(a, b->span, b->nvars, vars, b->types, rhs);
        return lcu_e_let(a, e->span, nb, fu_copy(c, e->u.let.body, s));
    }
    case LE_IF:
        n = dup(c, e);
        n->u.if_.cond = fu_copy(c, e->u.if_.cond, s);
        n->u.if_.then_e = fu_copy(c, e->u.if_.then_e, s);
        n->u.if_.else_e = fu_copy(c, e->u.if_.else_e, s);
        return n;
    case LE_BINOP:
        n = dup(c, e);
        n->u.bin.l = fu_copy(c, e->u.bin.l, s);
        n->u.bin.r = fu_copy(c, e->u.bin.r, s);
        return n;
    case LE_UNOP:
        n = dup(c, e);
        n->u.un.e = fu_copy(c, e->u.un.e, s);
        return n;
    case LE_INDEX: {
        LcuExpr *idx = fu_copy(c, e->u.index.idx, s);
        Sym vec = rename_var(s, e->u.index.vec);
        if (c->on_index && !sub_find(s, e->u.index.vec)) {
            LcuExpr *r = c->on_index(c, vec, idx, e->span);
            if (r) return r;
        }
        n = dup(c, e);
        n->u.index.vec = vec;
        n->u.index.idx = idx;
        return n;
    }
    case LE_LEN: {
        Sym vec = rename_var(s, e->u.len.vec);
        if (c->on_len && !sub_find(s, e->u.len.vec)) {
            LcuExpr *r = c->on_len(c, vec, e->span);
            if (r) return r;
        }
        n = dup(c, e);
        n->u.len.vec = vec;
        return n;
    }
    case LE_CALL:
        n = dup(c, e);
        n->u.call.args = arena_alloc(a, sizeof(LcuExpr *) * (size_t)(e->u.call.nargs ? e->u.call.nargs : 1));
        for (int i = 0; i < e->u.call.nargs; i++) n->u.call.args[i] = fu_copy(c, e->u.call.args[i], s);
        return n;
    case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        break;
    }
    ICE("fusion: CPU-level expression kind %d inside a thunk", (int)e->kind);
}

LcuThunk *fu_copy_thunk(Copier *c, const LcuThunk *t, const Sub *s)
{
    Sym *ps = bind_names(c, t->nparams, t->params, &s);
    return lcu_thunk(c->F->a, t->span, t->nparams, ps, fu_copy(c, t->body, s), 0, NULL);
}

LcuArg *fu_copy_arg(Copier *c, const LcuArg *g, const Sub *s)
{
    switch (g->kind) {
    case LA_THUNK: {
        LcuArg *n = lcu_arg_thunk(c->F->a, fu_copy_thunk(c, g->u.thunk, s));
        n->span = g->span;
        return n;
    }
    case LA_EXPR: return lcu_arg_expr(c->F->a, g->span, fu_copy(c, g->u.expr, s));
    }
    ICE("fusion: bad SOAC argument kind %d", (int)g->kind);
}

void fu_fix_using(Fu *F, LcuKernel *k)
{
    for (int b = 0; b < k->nbinds; b++) {
        LcuSoac *so = k->binds[b]->soac;
        for (int i = 0; i < so->nargs; i++) {
            if (so->args[i]->kind != LA_THUNK) continue;
            LcuThunk *t = so->args[i]->u.thunk;
            PtrVec fv = { 0 };
            fu_free_vars_thunk(F, t, &fv);
            t->nusing = fv.len;
            t->using_ = (Sym *)fv.items;
            t->using_spans = arena_alloc(F->a, sizeof(Span) * (size_t)(fv.len ? fv.len : 1));
            for (int j = 0; j < fv.len; j++) t->using_spans[j] = t->span;
        }
    }
}
