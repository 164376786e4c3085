/* lcu_check.c — the stratified λcu type system (DESIGN.md §4, paper §3.3).
 * GPU code sees only scalars, flat tuples and subscripts of vectors; the
 * kernel level binds SOAC results; the CPU level is ordinary first-order
 * code plus `run`.  Every expression gets its type in e->type. */
#include <stdlib.h>
#include <string.h>
#include "lcu_internal.h"

typedef struct Env Env;
struct Env { Sym name; const LcuType *type; const Env *next; };

typedef struct Ck {
    Arena *a;
    Interner *in;
    Diag *d;
    LcuProgram *prog;
    const Env *kenv;        /* the enclosing kernel's scope, inside a thunk */
    Sym sym_make_sd, sym_lengths;
} Ck;

static const Env *env_add(Ck *c, const Env *e, Sym x, const LcuType *t)
{
    Env *n = arena_alloc(c->a, sizeof *n);
    n->name = x;
    n->type = t;
    n->next = e;
    return n;
}

static const LcuType *env_find(const Env *e, Sym x)
{
    for (; e; e = e->next)
        if (e->name == x) return e->type;
    return NULL;
}

const char *lcu_type_str(Arena *a, const LcuType *t)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return "?";
    lcu_print_type(f, t);
    fclose(f);
    char *s = arena_strndup(a, buf, n);
    free(buf);
    return s;
}
#define TS(t) lcu_type_str(c->a, (t))

static bool is_base(const LcuType *t, LcuBase b) { return t->kind == LT_BASE && t->base == b; }
static bool is_vec(const LcuType *t) { return t->kind == LT_VEC || t->kind == LT_REF; }

/* τ: a base type or a flat tuple of base types. */
static bool is_gpu_type(const LcuType *t)
{
    for (int i = 0; i < lcu_t_arity(t); i++)
        if (lcu_t_component(t, i)->kind != LT_BASE) return false;
    return true;
}

/* [b] and &[b] are interchangeable across run: the transfer is implicit. */
static bool compat(const LcuType *x, const LcuType *y)
{
    if (lcu_t_arity(x) != lcu_t_arity(y)) return false;
    for (int i = 0; i < lcu_t_arity(x); i++) {
        const LcuType *a = lcu_t_component(x, i), *b = lcu_t_component(y, i);
        if (is_vec(a) && is_vec(b)) { if (a->base != b->base) return false; }
        else if (!lcu_t_equal(a, b)) return false;
    }
    return true;
}

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

static const LcuType *check_expr(Ck *c, const Env *env, LcuExpr *e, bool cpu);

static const LcuType *check_block(Ck *c, const Env *env, LcuExpr *e)
{
    for (int i = 0; i < e->u.block.nbinds; i++) {
        LcuBind *b = e->u.block.binds[i];
        const LcuType *t = check_expr(c, env, b->rhs, true);
        if (!t) return NULL;
        const LcuType *decl = lcu_t_tuple(c->a, b->nvars, b->types);
        if (!compat(decl, t)) {
            diag_error(c->d, b->span, "let declares type %s but its right-hand side has type %s", TS(decl), TS(t));
            return NULL;
        }
        for (int j = 0; j < b->nvars; j++) env = env_add(c, env, b->vars[j], b->types[j]);
    }
    return e->type = check_expr(c, env, e->u.block.result, true);
}

static const LcuType *check_call(Ck *c, const Env *env, LcuExpr *e)
{
    const LcuType **at = arena_alloc(c->a, sizeof *at * (size_t)(e->u.call.nargs + 1));
    for (int i = 0; i < e->u.call.nargs; i++)
        if (!(at[i] = check_expr(c, env, e->u.call.args[i], true))) return NULL;
    int np = 0;
    const LcuParam *ps = NULL;
    const LcuType *res = NULL;
    Sym f = e->u.call.name;
    if (e->kind == LE_RUN) {
        for (int i = 0; i < c->prog->nkernels; i++)
            if (c->prog->kernels[i]->name == f) {
                np = c->prog->kernels[i]->nparams; ps = c->prog->kernels[i]->params; res = c->prog->kernels[i]->result;
            }
        if (!res) { diag_error(c->d, e->span, "unknown kernel '%s'", f); return NULL; }
    } else if (f == c->sym_make_sd || f == c->sym_lengths) {
        bool mk = f == c->sym_make_sd;
        const LcuType *want = mk ? lcu_t_vec(c->a, LB_INT) : lcu_t_sd(c->a);
        if (e->u.call.nargs != 1 || !compat(at[0], want)) {
            diag_error(c->d, e->span, "'%s' takes one argument of type %s", f, TS(want));
            return NULL;
        }
        return mk ? lcu_t_sd(c->a) : lcu_t_vec(c->a, LB_INT);
    } else {
        for (int i = 0; i < c->prog->nfuns; i++)
            if (c->prog->funs[i]->name == f) {
                np = c->prog->funs[i]->nparams; ps = c->prog->funs[i]->params; res = c->prog->funs[i]->result;
            }
        if (!res) { diag_error(c->d, e->span, "unknown function '%s'", f); return NULL; }
    }
    if (np != e->u.call.nargs) {
        diag_error(c->d, e->span, "'%s' expects %d argument%s but is given %d", f, np, np == 1 ? "" : "s", e->u.call.nargs);
        return NULL;
    }
    for (int i = 0; i < np; i++)
        if (!compat(ps[i].type, at[i])) {
            diag_error(c->d, e->u.call.args[i]->span, "argument %d of '%s' has type %s but %s is expected",
                       i + 1, f, TS(at[i]), TS(ps[i].type));
            return NULL;
        }
    return res;
}

static const LcuType *check_binop(Ck *c, LcuExpr *e, const LcuType *l, const LcuType *r)
{
    const char *op = lcu_binop_text(e->u.bin.op);
    if (!lcu_t_equal(l, r) || l->kind != LT_BASE) {
        diag_error(c->d, e->span, "operands of '%s' have types %s and %s", op, TS(l), TS(r));
        return NULL;
    }
    LcuBase b = l->base;
    switch (e->u.bin.op) {
    case LOP_ADD: case LOP_SUB: case LOP_MUL: case LOP_DIV:
        if (b == LB_INT || b == LB_FLOAT) return l;
        break;
    case LOP_MOD:
        if (b == LB_INT) return l;
        break;
    case LOP_LT: case LOP_LE: case LOP_GT: case LOP_GE:
        if (b == LB_INT || b == LB_FLOAT || b == LB_CHAR) return lcu_t_base(c->a, LB_BOOL);
        break;
    case LOP_EQ: case LOP_NE:
        if (b != LB_UNIT) return lcu_t_base(c->a, LB_BOOL);
        break;
    case LOP_AND: case LOP_OR:
        if (b == LB_BOOL) return l;
        break;
    }
    diag_error(c->d, e->span, "'%s' cannot be applied to %s", op, TS(l));
    return NULL;
}

static const LcuType *gpu_only_error(Ck *c, LcuExpr *e, const char *what)
{
    diag_error(c->d, e->span, "%s is not allowed in GPU code (thunks and SOAC arguments)", what);
    return NULL;
}

static const LcuType *check_expr_(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    switch (e->kind) {
    case LE_INT: return lcu_t_base(c->a, LB_INT);
    case LE_FLOAT: return lcu_t_base(c->a, LB_FLOAT);
    case LE_BOOL: return lcu_t_base(c->a, LB_BOOL);
    case LE_CHAR: return lcu_t_base(c->a, LB_CHAR);
    case LE_UNIT: return lcu_t_base(c->a, LB_UNIT);
    case LE_VAR: {
        const LcuType *t = env_find(env, e->u.var);
        if (!t) {
            if (c->kenv && env_find(c->kenv, e->u.var))
                diag_error(c->d, e->span, "'%s' is free in this thunk but missing from its 'using' list", e->u.var);
            else diag_error(c->d, e->span, "unbound variable '%s'", e->u.var);
            return NULL;
        }
        if (!cpu && !is_gpu_type(t)) {
            diag_error(c->d, e->span, "'%s' has type %s; GPU code can only subscript vectors", e->u.var, TS(t));
            return NULL;
        }
        return t;
    }
    case LE_TUPLE: {
        const LcuType **v = arena_alloc(c->a, sizeof *v * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++)
            if (!(v[i] = check_expr(c, env, e->u.tuple.elems[i], cpu))) return NULL;
        return lcu_t_tuple(c->a, e->u.tuple.n, v);
    }
    case LE_LET: {
        LcuBind *b = e->u.let.bind;
        const LcuType *t = check_expr(c, env, b->rhs, cpu);
        if (!t) return NULL;
        if (b->nvars == 1) env = env_add(c, env, b->vars[0], t);
        else if (lcu_t_arity(t) != b->nvars) {
            diag_error(c->d, b->span, "let binds %d names to a value of type %s", b->nvars, TS(t));
            return NULL;
        } else {
            for (int i = 0; i < b->nvars; i++) env = env_add(c, env, b->vars[i], lcu_t_component(t, i));
        }
        return check_expr(c, env, e->u.let.body, cpu);
    }
    case LE_IF: {
        const LcuType *ct = check_expr(c, env, e->u.if_.cond, cpu);
        if (!ct) return NULL;
        if (!is_base(ct, LB_BOOL)) { diag_error(c->d, e->u.if_.cond->span, "condition has type %s, not bool", TS(ct)); return NULL; }
        const LcuType *t = check_expr(c, env, e->u.if_.then_e, cpu);
        const LcuType *f = t ? check_expr(c, env, e->u.if_.else_e, cpu) : NULL;
        if (!f) return NULL;
        if (!lcu_t_equal(t, f)) { diag_error(c->d, e->span, "branches of 'if' have types %s and %s", TS(t), TS(f)); return NULL; }
        return t;
    }
    case LE_BINOP: {
        const LcuType *l = check_expr(c, env, e->u.bin.l, cpu);
        const LcuType *r = l ? check_expr(c, env, e->u.bin.r, cpu) : NULL;
        return r ? check_binop(c, e, l, r) : NULL;
    }
    case LE_UNOP: {
        const LcuType *t = check_expr(c, env, e->u.un.e, cpu);
        if (!t) return NULL;
        bool ok = false;
        const LcuType *res = t;
        switch (e->u.un.op) {
        case LUOP_NEG: ok = is_base(t, LB_INT) || is_base(t, LB_FLOAT); break;
        case LUOP_NOT: ok = is_base(t, LB_BOOL); break;
        case LUOP_TO_FLOAT: ok = is_base(t, LB_INT) || is_base(t, LB_FLOAT); res = lcu_t_base(c->a, LB_FLOAT); break;
        case LUOP_TO_INT: ok = is_base(t, LB_INT) || is_base(t, LB_FLOAT) || is_base(t, LB_CHAR); res = lcu_t_base(c->a, LB_INT); break;
        }
        if (!ok) { diag_error(c->d, e->span, "operator cannot be applied to %s", TS(t)); return NULL; }
        return res;
    }
    case LE_INDEX: case LE_LEN: {
        Sym x = e->kind == LE_INDEX ? e->u.index.vec : e->u.len.vec;
        const LcuType *t = env_find(env, x);
        if (!t) {
            if (c->kenv && env_find(c->kenv, x))
                diag_error(c->d, e->span, "'%s' is free in this thunk but missing from its 'using' list", x);
            else diag_error(c->d, e->span, "unbound variable '%s'", x);
            return NULL;
        }
        if (!is_vec(t)) { diag_error(c->d, e->span, "'%s' has type %s, not a vector", x, TS(t)); return NULL; }
        if (e->kind == LE_LEN) return lcu_t_base(c->a, LB_INT);
        const LcuType *it = check_expr(c, env, e->u.index.idx, cpu);
        if (!it) return NULL;
        if (!is_base(it, LB_INT)) { diag_error(c->d, e->u.index.idx->span, "index has type %s, not int", TS(it)); return NULL; }
        return lcu_t_base(c->a, t->base);
    }
    case LE_VECLIT: {
        if (!cpu) return gpu_only_error(c, e, "a vector literal");
        const LcuType *t0 = NULL;
        for (int i = 0; i < e->u.tuple.n; i++) {
            const LcuType *t = check_expr(c, env, e->u.tuple.elems[i], cpu);
            if (!t) return NULL;
            if (t->kind != LT_BASE || (t0 && !lcu_t_equal(t, t0))) {
                diag_error(c->d, e->u.tuple.elems[i]->span, "vector element has type %s; elements must share one base type", TS(t));
                return NULL;
            }
            t0 = t;
        }
        return lcu_t_vec(c->a, t0->base);
    }
    case LE_RUN: case LE_CALL:
        if (!cpu) return gpu_only_error(c, e, e->kind == LE_RUN ? "'run'" : "a function call");
        return check_call(c, env, e);
    case LE_BLOCK:
        if (!cpu) return gpu_only_error(c, e, "a block");
        return check_block(c, env, e);
    }
    return NULL;
}

static const LcuType *check_expr(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    const LcuType *t = check_expr_(c, env, e, cpu);
    if (t) e->type = t;
    return t;
}

static bool dup_names(Ck *c, const char *what, int n, const LcuParam *ps)
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

/* A thunk sees exactly its parameters and its `using` variables. */
static const LcuType *check_thunk(Ck *c, const Env *kenv, LcuThunk *t, int np, const LcuType **ptypes, const char *role)
{
    /* unit => τ may be written with no parameter: { () => e }. */
    bool unit_ok = np == 1 && is_base(ptypes[0], LB_UNIT) && t->nparams == 0;
    if (t->nparams != np && !unit_ok) {
        diag_error(c->d, t->span, "%s thunk takes %d parameter%s but has %d", role, np, np == 1 ? "" : "s", t->nparams);
        return NULL;
    }
    const Env *env = NULL;
    for (int i = 0; i < t->nusing; i++) {
        for (int j = 0; j < i; j++)
            if (t->using_[j] == t->using_[i]) {
                diag_error(c->d, t->using_spans[i], "'%s' is listed twice in 'using'", t->using_[i]);
                return NULL;
            }
        const LcuType *ut = env_find(kenv, t->using_[i]);
        if (!ut) { diag_error(c->d, t->using_spans[i], "'%s' in 'using' is not bound in the kernel", t->using_[i]); return NULL; }
        if (ut->kind == LT_SD) { diag_error(c->d, t->using_spans[i], "segment descriptor '%s' cannot be used in a thunk", t->using_[i]); return NULL; }
        env = env_add(c, env, t->using_[i], ut);
    }
    for (int i = 0; i < t->nparams; i++) env = env_add(c, env, t->params[i], ptypes[i]);
    const Env *saved = c->kenv;
    c->kenv = kenv;
    const LcuType *r = check_expr(c, env, t->body, false);
    c->kenv = saved;
    if (r && !is_gpu_type(r)) {
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
        const LcuType *t = e->kind == LE_VAR ? env_find(kenv, e->u.var) : NULL;
        if (!t || t->kind != LT_SD) {
            diag_error(c->d, e->span, "the last argument of %s must be a segment descriptor variable", lcu_soac_name(s->kind));
            return false;
        }
        e->type = t;
        return true;
    }
    const LcuType *t = check_expr(c, kenv, e, false);
    if (!t) return false;
    if (!is_base(t, LB_INT)) { diag_error(c->d, e->span, "size argument has type %s, not int", TS(t)); return false; }
    return true;
}

static const LcuType *check_soac(Ck *c, const Env *kenv, LcuSoac *s)
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
        return t;
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
            if (!is_base(it, LB_INT)) { diag_error(c->d, s->args[1]->span, "%s index thunk returns %s, not int", name, TS(it)); return NULL; }
            if (!check_size(c, kenv, s, 2, seg)) return NULL;
            nargs = 3; res = lift(c, tau);
            break;
        }
        case LS_FILTER: case LS_PARTITION: case LS_SEG_FILTER: case LS_SEG_PARTITION: {
            if (!want_arg(c, s, 1, LA_THUNK)) return NULL;
            const LcuType *pt = check_thunk(c, kenv, s->args[1]->u.thunk, n, tc, "the predicate");
            if (!pt) return NULL;
            if (!is_base(pt, LB_BOOL)) { diag_error(c->d, s->args[1]->span, "%s predicate returns %s, not bool", name, TS(pt)); return NULL; }
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
            const LcuType *vt = check_expr(c, kenv, v, false);
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
        if (s->nargs == nargs) return res;
        break;
    }
    }
    if (s->nargs > nargs)
        diag_error(c->d, s->args[nargs]->span, "%s takes %d arguments but is given %d", name, nargs, s->nargs);
    return NULL;
}

static void check_kernel(Ck *c, LcuKernel *k)
{
    if (dup_names(c, "parameter", k->nparams, k->params)) return;
    const Env *env = NULL;
    for (int i = 0; i < k->nparams; i++) {
        const LcuType *t = k->params[i].type;
        if (t->kind == LT_TUPLE) {
            diag_error(c->d, k->params[i].span, "kernel parameter '%s' has tuple type %s; pass the components separately",
                       k->params[i].name, TS(t));
            return;
        }
        env = env_add(c, env, k->params[i].name, t);
    }
    for (int i = 0; i < k->nbinds; i++) {
        LcuKBind *b = k->binds[i];
        const LcuType *t = check_soac(c, env, b->soac);
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
            env = env_add(c, env, b->vars[j], b->types[j]);
        }
    }
    const LcuType **rt = arena_alloc(c->a, sizeof *rt * (size_t)k->nrets);
    for (int i = 0; i < k->nrets; i++) {
        if (!(rt[i] = env_find(env, k->rets[i]))) {
            diag_error(c->d, k->ret_spans[i], "unbound variable '%s'", k->rets[i]);
            return;
        }
    }
    const LcuType *t = lcu_t_tuple(c->a, k->nrets, rt);
    if (!compat(t, k->result))
        diag_error(c->d, k->ret_spans[0], "kernel '%s' returns %s but is declared to return %s", k->name, TS(t), TS(k->result));
}

bool lcu_check(Arena *a, Interner *in, Diag *d, LcuProgram *p)
{
    Ck ck = { .a = a, .in = in, .d = d, .prog = p };
    Ck *c = &ck;
    c->sym_make_sd = intern_cstr(in, "make_sd");
    c->sym_lengths = intern_cstr(in, "lengths");
    int before = d->nerrors;
    for (int i = 0; i < p->nkernels; i++) {
        for (int j = 0; j < i; j++)
            if (p->kernels[j]->name == p->kernels[i]->name)
                diag_error(d, p->kernels[i]->span, "kernel '%s' is defined twice", p->kernels[i]->name);
        check_kernel(c, p->kernels[i]);
    }
    for (int i = 0; i < p->nfuns; i++) {
        LcuFun *f = p->funs[i];
        for (int j = 0; j < i; j++)
            if (p->funs[j]->name == f->name) diag_error(d, f->span, "function '%s' is defined twice", f->name);
        if (dup_names(c, "parameter", f->nparams, f->params)) continue;
        const Env *env = NULL;
        for (int j = 0; j < f->nparams; j++) env = env_add(c, env, f->params[j].name, f->params[j].type);
        const LcuType *t = check_expr(c, env, f->body, true);
        if (t && !compat(t, f->result))
            diag_error(d, f->body->u.block.result->span, "function '%s' returns %s but is declared to return %s",
                       f->name, TS(t), TS(f->result));
    }
    return d->nerrors == before;
}
