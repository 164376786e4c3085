/* lcu_check_soac.c — the kernel level of the λcu type system: thunks,
 * SOACs (in kernels and, in Flan form, inline at the CPU level) and kernels. */
#include "lcu_check.h"

static const LcuType *lift(Ck *c, const LcuType *t)
{
    int n = lcu_t_arity(t);
    const LcuType **v = arena_alloc(c->a, sizeof *v * (size_t)n);
    for (int i = 0; i < n; i++) v[i] = lcu_t_vec(c->a, lcu_t_component(t, i)->base);
    return lcu_t_tuple(c->a, n, v);
}

static const LcuType *pair(Ck *c, const LcuType *x, const LcuType *y)
{
    const LcuType *v[2] = { x, y };
    return lcu_t_tuple(c->a, 2, v);
}

bool ck_dup_names(Ck *c, const char *what, int n, const LcuParam *ps)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (ps[i].name == ps[j].name) {
                diag_error(c->d, ps[i].span, "duplicate %s '%s'", what, ps[i].name);
                return true;
            }
    return false;
}

/* ---- kernel level ---- */

/* A thunk sees exactly its parameters and its `using` variables; in Flan
 * form, a thunk without `using` sees the whole CPU scope. */
static const LcuType *check_thunk(Ck *c, const Env *kenv, LcuThunk *t, int np, const LcuType **ptypes, const char *role)
{
    /* unit => τ may be written with no parameter: { () => e }. */
    bool unit_ok = np == 1 && ck_is_base(ptypes[0], LB_UNIT) && t->nparams == 0;
    if (t->nparams != np && !unit_ok) {
        diag_error(c->d, t->span, "%s thunk takes %d parameter%s but has %d", role, np, np == 1 ? "" : "s", t->nparams);
        return NULL;
    }
    const Env *env = c->flan && !t->nusing ? kenv : NULL;
    for (int i = 0; i < t->nusing; i++) {
        for (int j = 0; j < i; j++)
            if (t->using_[j] == t->using_[i]) {
                diag_error(c->d, t->using_spans[i], "'%s' is listed twice in 'using'", t->using_[i]);
                return NULL;
            }
        const LcuType *ut = ck_env_find(kenv, t->using_[i]);
        if (!ut) {
            diag_error(c->d, t->using_spans[i], "'%s' in 'using' is not bound in the %s", t->using_[i], c->flan ? "function" : "kernel");
            return NULL;
        }
        if (ut->kind == LT_SD) { diag_error(c->d, t->using_spans[i], "segment descriptor '%s' cannot be used in a thunk", t->using_[i]); return NULL; }
        env = ck_env_add(c, env, t->using_[i], ut);
    }
    for (int i = 0; i < t->nparams; i++) env = ck_env_add(c, env, t->params[i], ptypes[i]);
    const Env *saved = c->kenv;
    c->kenv = kenv;
    const LcuType *r = ck_expr(c, env, t->body, false);
    c->kenv = saved;
    if (r && !ck_is_gpu_type(r)) {
        diag_error(c->d, t->body->span, "thunk result has type %s; GPU values are scalars and flat tuples", TS(r));
        return NULL;
    }
    return r;
}

/* Flat parameter types of a thunk over τ (one per component). */
static const LcuType **comps(Ck *c, const LcuType *t, int *n)
{
    *n = lcu_t_arity(t);
    const LcuType **v = arena_alloc(c->a, sizeof *v * (size_t)*n);
    for (int i = 0; i < *n; i++) v[i] = lcu_t_component(t, i);
    return v;
}

static bool want_arg(Ck *c, LcuSoac *s, int i, LcuArgKind k)
{
    if (i >= s->nargs) {
        diag_error(c->d, s->span, "%s is missing argument %d (%s)", lcu_soac_name(s->kind), i + 1,
                   k == LA_THUNK ? "a thunk" : "a parenthesized value");
        return false;
    }
    if (s->args[i]->kind != k) {
        diag_error(c->d, s->args[i]->span, "argument %d of %s must be %s", i + 1, lcu_soac_name(s->kind),
                   k == LA_THUNK ? "a thunk { xs => e using ys }" : "a parenthesized value");
        return false;
    }
    return true;
}

/* Argument i: the size (int n) or, for SEG_ SOACs, an sd variable. */
static bool check_size(Ck *c, const Env *kenv, LcuSoac *s, int i, bool seg)
{
    if (!want_arg(c, s, i, LA_EXPR)) return false;
    LcuExpr *e = s->args[i]->u.expr;
    if (seg) {
        const LcuType *t = e->kind == LE_VAR ? ck_env_find(kenv, e->u.var) : NULL;
        if (!t || t->kind != LT_SD) {
            diag_error(c->d, e->span, "the last argument of %s must be a segment descriptor variable", lcu_soac_name(s->kind));
            return false;
        }
        e->type = t;
        return true;
    }
    const LcuType *t = ck_expr(c, kenv, e, false);
    if (!t) return false;
    if (!ck_is_base(t, LB_INT)) { diag_error(c->d, e->span, "size argument has type %s, not int", TS(t)); return false; }
    return true;
}

typedef struct KeptNames { Ck *c; const Env *kenv; const LcuExpr *kept; bool ok; } KeptNames;

static void kept_name(void *ctx, Sym x, bool free)
{
    KeptNames *k = ctx;
    if (!free || !k->ok || ck_env_find(k->c->kparams, x) || !ck_env_find(k->kenv, x)) return;
    diag_error(k->c->d, k->kept->span, "'kept' reads '%s', which the kernel binds: it may read only the kernel's parameters", x);
    k->ok = false;
}

/* kept (e): the number of elements a FILTER or PARTITION keeps, an int;
 * in a kernel over its parameters only (the host knows it before the
 * launch, without waiting for an earlier SOAC's result). */
static bool check_kept(Ck *c, const Env *kenv, LcuSoac *s)
{
    if (!s->kept) return true;
    if (s->kind != LS_FILTER && s->kind != LS_PARTITION) {
        diag_error(c->d, s->kept->span, "'kept' is given only to FILTER and PARTITION, not to %s", lcu_soac_name(s->kind));
        return false;
    }
    if (!c->flan) {
        KeptNames k = { c, kenv, s->kept, true };
        lcu_names_expr(c->a, s->kept, kept_name, &k);
        if (!k.ok) return false;
    }
    const LcuType *t = ck_expr(c, kenv, s->kept, false);
    if (!t) return false;
    if (!ck_is_base(t, LB_INT)) { diag_error(c->d, s->kept->span, "'kept' has type %s, not int", TS(t)); return false; }
    return true;
}

const LcuType *ck_soac(Ck *c, const Env *kenv, LcuSoac *s)
{
    const LcuType *tint = lcu_t_base(c->a, LB_INT);
    const char *name = lcu_soac_name(s->kind);
    bool seg = false;
    int nargs = 0;
    switch (s->kind) {
    case LS_ONCE: {
        if (!want_arg(c, s, 0, LA_THUNK)) return NULL;
        const LcuType *u = lcu_t_base(c->a, LB_UNIT);
        const LcuType *t = check_thunk(c, kenv, s->args[0]->u.thunk, 1, &u, "the ONCE");
        nargs = 1;
        if (t && s->nargs != nargs) break;
        return t && check_kept(c, kenv, s) ? t : NULL;
    }
    case LS_MAP: case LS_PERMUTE: case LS_FILTER: case LS_PARTITION:
    case LS_SEG_PERMUTE: case LS_SEG_FILTER: case LS_SEG_PARTITION:
    case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: {
        seg = s->kind >= LS_SEG_PERMUTE;
        if (!want_arg(c, s, 0, LA_THUNK)) return NULL;
        const LcuType *tau = check_thunk(c, kenv, s->args[0]->u.thunk, 1, &tint, "the pull");
        if (!tau) return NULL;
        int n;
        const LcuType **tc = comps(c, tau, &n);
        const LcuType *res = NULL;
        switch (s->kind) {
        case LS_MAP:
            if (!check_size(c, kenv, s, 1, false)) return NULL;
            nargs = 2; res = lift(c, tau);
            break;
        case LS_PERMUTE: case LS_SEG_PERMUTE: {
            if (!want_arg(c, s, 1, LA_THUNK)) return NULL;
            const LcuType *it = check_thunk(c, kenv, s->args[1]->u.thunk, 1, &tint, "the index");
            if (!it) return NULL;
            if (!ck_is_base(it, LB_INT)) { diag_error(c->d, s->args[1]->span, "%s index thunk returns %s, not int", name, TS(it)); return NULL; }
            if (!check_size(c, kenv, s, 2, seg)) return NULL;
            nargs = 3; res = lift(c, tau);
            break;
        }
        case LS_FILTER: case LS_PARTITION: case LS_SEG_FILTER: case LS_SEG_PARTITION: {
            if (!want_arg(c, s, 1, LA_THUNK)) return NULL;
            const LcuType *pt = check_thunk(c, kenv, s->args[1]->u.thunk, n, tc, "the predicate");
            if (!pt) return NULL;
            if (!ck_is_base(pt, LB_BOOL)) { diag_error(c->d, s->args[1]->span, "%s predicate returns %s, not bool", name, TS(pt)); return NULL; }
            if (!check_size(c, kenv, s, 2, seg)) return NULL;
            nargs = 3;
            const LcuType *part = lift(c, tau);
            if (seg) part = pair(c, part, lcu_t_sd(c->a));
            res = s->kind == LS_FILTER || s->kind == LS_SEG_FILTER ? part : pair(c, part, part);
            break;
        }
        case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: {
            if (!want_arg(c, s, 1, LA_EXPR)) return NULL;
            LcuExpr *v = s->args[1]->u.expr;
            const LcuType *vt = ck_expr(c, kenv, v, false);
            if (!vt) return NULL;
            if (!lcu_t_equal(vt, tau)) {
                diag_error(c->d, v->span, "%s identity has type %s but the pull thunk yields %s", name, TS(vt), TS(tau));
                return NULL;
            }
            if (!want_arg(c, s, 2, LA_THUNK)) return NULL;
            int n2;
            const LcuType **tc2 = comps(c, pair(c, tau, tau), &n2);
            const LcuType *ot = check_thunk(c, kenv, s->args[2]->u.thunk, n2, tc2, "the operator");
            if (!ot) return NULL;
            if (!lcu_t_equal(ot, tau)) {
                diag_error(c->d, s->args[2]->span, "%s operator returns %s, not %s", name, TS(ot), TS(tau));
                return NULL;
            }
            if (!check_size(c, kenv, s, 3, seg)) return NULL;
            nargs = 4;
            res = s->kind == LS_REDUCE ? tau : lift(c, tau);
            break;
        }
        case LS_ONCE:
            ICE("ONCE handled above");
        }
        if (s->nargs == nargs) return check_kept(c, kenv, s) ? res : NULL;
        break;
    }
    }
    if (s->nargs > nargs)
        diag_error(c->d, s->args[nargs]->span, "%s takes %d arguments but is given %d", name, nargs, s->nargs);
    return NULL;
}

void ck_kernel(Ck *c, LcuKernel *k)
{
    if (ck_dup_names(c, "parameter", k->nparams, k->params)) return;
    const Env *env = NULL;
    for (int i = 0; i < k->nparams; i++) {
        const LcuType *t = k->params[i].type;
        if (t->kind == LT_TUPLE) {
            diag_error(c->d, k->params[i].span, "kernel parameter '%s' has tuple type %s; pass the components separately",
                       k->params[i].name, TS(t));
            return;
        }
        env = ck_env_add(c, env, k->params[i].name, t);
    }
    c->kparams = env;
    for (int i = 0; i < k->nbinds; i++) {
        LcuKBind *b = k->binds[i];
        const LcuType *t = ck_soac(c, env, b->soac);
        if (!t) return;
        if (lcu_t_arity(t) != b->nvars) {
            diag_error(c->d, b->span, "%s yields %s, which needs %d name%s, but %d %s bound",
                       lcu_soac_name(b->soac->kind), TS(t), lcu_t_arity(t), lcu_t_arity(t) == 1 ? "" : "s",
                       b->nvars, b->nvars == 1 ? "is" : "are");
            return;
        }
        b->types = arena_alloc(c->a, sizeof *b->types * (size_t)b->nvars);
        for (int j = 0; j < b->nvars; j++) {
            b->types[j] = lcu_t_component(t, j);
            env = ck_env_add(c, env, b->vars[j], b->types[j]);
        }
    }
    const LcuType **rt = arena_alloc(c->a, sizeof *rt * (size_t)k->nrets);
    for (int i = 0; i < k->nrets; i++) {
        if (!(rt[i] = ck_env_find(env, k->rets[i]))) {
            diag_error(c->d, k->ret_spans[i], "unbound variable '%s'", k->rets[i]);
            return;
        }
    }
    const LcuType *t = lcu_t_tuple(c->a, k->nrets, rt);
    if (!ck_compat(t, k->result))
        diag_error(c->d, k->ret_spans[0], "kernel '%s' returns %s but is declared to return %s", k->name, TS(t), TS(k->result));
}

