/* parse_depth.c — the nesting limit on parsed forms.
 *
 * Every later phase (checker, monomorphizer, flattener, printers) recurses
 * on the tree, so a form nested thousands of levels deep (`- - - ... x`,
 * `1 + 1 + ... + 1`, `[[[...]]]`) would overflow the C stack; the fuzzer
 * (tests/fuzz) found it.  A form deeper than NESTING_LIMIT is an error here
 * instead.  The walk stops at the limit, so its own recursion is bounded. */
#include "parse_build.h"

enum { NESTING_LIMIT = 1000 };

/* Each returns the node at which the limit is first exceeded, or NULL. */
static const TypeExpr *type_too_deep(const TypeExpr *t, int depth)
{
    if (!t) return NULL;
    if (depth > NESTING_LIMIT) return t;
    for (int i = 0; i < t->nargs; i++) {
        const TypeExpr *d = type_too_deep(t->args[i], depth + 1);
        if (d) return d;
    }
    const TypeExpr *d = type_too_deep(t->a, depth + 1);
    return d ? d : type_too_deep(t->b, depth + 1);
}

static const Pattern *pattern_too_deep(const Pattern *p, int depth)
{
    if (!p) return NULL;
    if (depth > NESTING_LIMIT) return p;
    const Pattern *d = pattern_too_deep(p->fst, depth + 1);
    if (!d) d = pattern_too_deep(p->snd, depth + 1);
    return d ? d : pattern_too_deep(p->sub, depth + 1);
}

/* The span of the first node too deep in e, if any. */
static bool expr_too_deep(const Expr *e, int depth, Span *where)
{
    if (!e) return false;
    if (depth > NESTING_LIMIT) { *where = e->span; return true; }
    const Expr *kids[] = { e->a, e->b, e->c, e->args[0], e->args[1] };
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++)
        if (expr_too_deep(kids[i], depth + 1, where)) return true;
    for (int i = 0; i < e->nelems; i++)
        if (expr_too_deep(e->elems[i], depth + 1, where)) return true;
    const Pattern *p = pattern_too_deep(e->param, depth + 1);
    for (int i = 0; i < e->nbinds && !p; i++) {
        if (expr_too_deep(e->binds[i].value, depth + 1, where)) return true;
        p = pattern_too_deep(e->binds[i].pat, depth + 1);
    }
    for (int i = 0; i < e->ngens && !p; i++) {
        if (expr_too_deep(e->gens[i].seq, depth + 1, where)) return true;
        p = pattern_too_deep(e->gens[i].pat, depth + 1);
    }
    if (p) { *where = p->span; return true; }
    const TypeExpr *t = type_too_deep(e->texpr, depth + 1);
    if (t) { *where = t->span; return true; }
    return false;
}

bool form_too_deep(ParseCtx *pc, const TopForm *f)
{
    Span where = f->span;
    bool deep = false;
    switch (f->kind) {
    case TOP_FUN: {
        const Pattern *p = pattern_too_deep(f->fun->param, 1);
        const TypeExpr *t = type_too_deep(f->fun->sig, 1);
        if (p) where = p->span;
        else if (t) where = t->span;
        deep = p || t || expr_too_deep(f->fun->body, 1, &where);
        break;
    }
    case TOP_DATA:
        for (int i = 0; i < f->data->nfields && !deep; i++) {
            const TypeExpr *t = type_too_deep(f->data->fields[i], 1);
            if (t) { where = t->span; deep = true; }
        }
        break;
    case TOP_BIND: case TOP_EXPR: {
        const Pattern *p = pattern_too_deep(f->pat, 1);
        if (p) where = p->span;
        deep = p || expr_too_deep(f->expr, 1, &where);
        break;
    }
    }
    if (deep)
        diag_error(pc->c->diag, where, "this form is nested too deeply (more than %d levels of "
                   "expressions, patterns or types)", NESTING_LIMIT);
    return deep;
}
