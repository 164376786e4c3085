/* fu_util.c — names, free variables and the capture-avoiding copier the
 * fusion phase builds merged kernels and rewritten thunks with. */
#include <string.h>
#include "fu_impl.h"

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

/* Names through lcu_names_*: free variables in order of first occurrence
 * (out), or every name mentioned or bound (all). */
typedef struct Names { Arena *a; PtrVec *out; NameSet *all; } Names;

static void collect_name(void *ctx, Sym x, bool free)
{
    Names *n = ctx;
    if (n->all) { nameset_add(n->a, n->all, x); return; }
    if (!free) return;
    for (int i = 0; i < n->out->len; i++)
        if (n->out->items[i] == x) return;
    ptrvec_push(n->a, n->out, (void *)x);
}

void fu_free_vars_expr(Fu *F, const LcuExpr *e, PtrVec *out)
{
    Names n = { F->a, out, NULL };
    lcu_names_expr(F->a, e, collect_name, &n);
}

void fu_free_vars_thunk(Fu *F, const LcuThunk *t, PtrVec *out)
{
    Names n = { F->a, out, NULL };
    lcu_names_thunk(F->a, t, collect_name, &n);
}

void fu_free_vars_arg(Fu *F, const LcuArg *g, PtrVec *out)
{
    Names n = { F->a, out, NULL };
    lcu_names_arg(F->a, g, collect_name, &n);
}

void fu_all_names_expr(Fu *F, const LcuExpr *e, NameSet *s)
{
    Names n = { F->a, NULL, s };
    lcu_names_expr(F->a, e, collect_name, &n);
}

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
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        n = dup(c, e);
        n->u.tuple.elems = arena_alloc(a, sizeof(LcuExpr *) * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) n->u.tuple.elems[i] = fu_copy(c, e->u.tuple.elems[i], s);
        return n;
    case LE_LET: case LE_LOOP: {
        const LcuBind *b = e->u.let.bind;
        LcuExpr *rhs = fu_copy(c, b->rhs, s);
        Sym *vars = bind_names(c, b->nvars, b->vars, &s);
        LcuBind *nb = lcu_bind(a, b->span, b->nvars, vars, b->types, rhs);
        LcuExpr *body = fu_copy(c, e->u.let.body, s);
        return e->kind == LE_LET ? lcu_e_let(a, e->span, nb, body) : lcu_e_loop(a, e->span, nb, body);
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
            LcuExpr *r = c->on_index(c, vec, idx, e->u.index.inrange, e->span);
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
