/* sequential.c — scalar tail recursion in lifted code as a loop per element.
 *
 * A lifted call of a recursive function normally runs its lifted version:
 * every level of the recursion is a round of kernels over the elements
 * still recursing, with host round trips between rounds (mandelbrot's
 * escape: ~13 kernel functions per iteration, 256 iterations).  When the
 * function takes and returns scalars (tuples of them), and its body is
 * scalar code that cannot fail — the class speculate.c accepts: literals,
 * local variables, let, if, tuples, total primitives — whose only calls
 * are to itself in tail position, each element's recursion is a loop:
 *
 *     MAP { i => iterate (x1, ..., xn) = (a1[i], ..., an[i]) in body' } (count)
 *
 * where body' is the body with its self calls as recur (λcu's iterate,
 * doc/lcu.md).  Elements that recurse longer no longer hold the others
 * back in rounds, and there are no rounds: one kernel.  Errors cannot
 * arise (no primitive that fails is accepted), so evaluation order does
 * not matter; a recursion that does not end does not end either way. */
#include <string.h>
#include "flatten_impl.h"

typedef struct SEnv { Binder *b; LcuExpr *v; const struct SEnv *next; } SEnv;

typedef struct Seq {
    Fl *F;
    FunDecl *self;
    int nrecur;        /* self calls turned into recur */
} Seq;

static LcuExpr *seq_expr(Seq *S, const SEnv *env, Expr *e, bool tail, int depth);

/* Components (λcu expressions) of a value of type t as one expression. */
static LcuExpr *tuple_of(Seq *S, int n, LcuExpr **c)
{
    if (n == 1) return c[0];
    LcuExpr **v = arena_alloc(S->F->a, sizeof *v * (size_t)n);
    memcpy(v, c, sizeof *v * (size_t)n);
    return lcu_e_tuple(S->F->a, (Span){ 0 }, n, v);
}

/* Bind pattern p to the n flat components c; NULL where p is not scalar. */
static bool bind_pattern(Seq *S, const SEnv **env, Pattern *p, int n, LcuExpr **c)
{
    switch (p->kind) {
    case PAT_VAR: {
        SEnv *s = arena_alloc(S->F->a, sizeof *s);
        s->b = p->binder;
        s->v = tuple_of(S, n, c);
        s->next = *env;
        *env = s;
        return true;
    }
    case PAT_PAIR: {
        int k = fv_arity(p->fst->type, false);
        return k <= n && bind_pattern(S, env, p->fst, k, c) && bind_pattern(S, env, p->snd, n - k, c + k);
    }
    case PAT_CON: return false;
    }
    return false;
}

/* let (x1, ..., xn) = rhs in body, the xs bound to the pattern. */
static LcuExpr *seq_let(Seq *S, const SEnv *env, Expr *e, int i, bool tail, int depth)
{
    if (i == e->nbinds) return seq_expr(S, env, e->a, tail, depth);
    LetBind *lb = &e->binds[i];
    LcuExpr *rhs = seq_expr(S, env, lb->value, false, depth);
    int n = fv_arity(lb->value->type, false);
    if (!rhs || n < 1) return NULL;
    Sym *xs = arena_alloc(S->F->a, sizeof *xs * (size_t)n);
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)n);
    for (int k = 0; k < n; k++) {
        xs[k] = fl_fresh(S->F, "s");
        c[k] = X_var(S->F, xs[k]);
    }
    if (!bind_pattern(S, &env, lb->pat, n, c)) return NULL;
    LcuExpr *body = seq_let(S, env, e, i + 1, tail, depth);
    if (!body) return NULL;
    return lcu_e_let(S->F->a, e->span, lcu_bind(S->F->a, lb->pat->span, n, xs, NULL, rhs), body);
}

/* A primitive applied to nargs operand expressions; NULL unless it is
 * element-wise and cannot fail. */
static LcuExpr *seq_prim(Seq *S, const SEnv *env, int prim, int nargs, Expr **args, int depth)
{
    if (!fl_prim_safe(prim, nargs, args)) return NULL;
    LcuExpr *x[2];
    for (int i = 0; i < nargs; i++)
        if (!fl_scalar_type(args[i]->type) || !(x[i] = seq_expr(S, env, args[i], false, depth))) return NULL;
    return fl_scalar_op(S->F, prim, args[0]->type, nargs > 1 ? args[1]->type : NULL, x);
}

static LcuExpr *seq_apply(Seq *S, const SEnv *env, Expr *e, bool tail, int depth)
{
    Expr *fn = e->a;
    if (fn->kind != EX_VAR) return NULL;
    if (fn->ref == REF_PRIM) {
        int k = prim_info[fn->prim].arity;
        if (k == 1) return seq_prim(S, env, fn->prim, 1, &e->b, depth);
        if (k == 2 && e->b->kind == EX_PAIR) {
            Expr *args[2] = { e->b->a, e->b->b };
            return seq_prim(S, env, fn->prim, 2, args, depth);
        }
        return NULL;
    }
    if (fn->ref != REF_FUN || !tail || fl_fun_body(S->F, fn->fun, fn->span) != S->self) return NULL;
    LcuExpr *arg = seq_expr(S, env, e->b, false, depth);
    if (!arg) return NULL;
    S->nrecur++;
    LcuExpr **as = arena_alloc(S->F->a, sizeof *as);
    as[0] = arg;
    return lcu_e_recur(S->F->a, e->span, 1, as);
}

static LcuExpr *seq_expr(Seq *S, const SEnv *env, Expr *e, bool tail, int depth)
{
    Arena *a = S->F->a;
    if (depth > 64 || !fl_scalar_type(e->type)) return NULL;
    depth++;
    switch (e->kind) {
    case EX_INT: return lcu_e_int(a, e->span, e->ival);
    case EX_FLOAT: return lcu_e_float(a, e->span, e->fval);
    case EX_BOOL: return lcu_e_bool(a, e->span, e->bval);
    case EX_CHAR: return lcu_e_char(a, e->span, e->ival);
    case EX_VAR:
        if (e->ref != REF_LOCAL) return NULL;
        for (const SEnv *s = env; s; s = s->next)
            if (s->b == e->binder) return s->v;
        return NULL;   /* a variable of an enclosing scope: not in the loop */
    case EX_PAIR: {
        LcuExpr *x = seq_expr(S, env, e->a, false, depth), *y = x ? seq_expr(S, env, e->b, false, depth) : NULL;
        if (!y) return NULL;
        LcuExpr **v = arena_alloc(a, sizeof *v * 2);
        v[0] = x;
        v[1] = y;
        return lcu_e_tuple(a, e->span, 2, v);
    }
    case EX_IF: {
        LcuExpr *c = seq_expr(S, env, e->a, false, depth);
        LcuExpr *t = c ? seq_expr(S, env, e->b, tail, depth) : NULL;
        LcuExpr *f = t ? seq_expr(S, env, e->c, tail, depth) : NULL;
        return f ? lcu_e_if(a, e->span, c, t, f) : NULL;
    }
    case EX_LET: return seq_let(S, env, e, 0, tail, depth);
    case EX_OP: return e->fun ? NULL : seq_prim(S, env, e->prim, e->nargs, e->args, depth);
    case EX_APPLY: return seq_apply(S, env, e, tail, depth);
    case EX_STRING: case EX_LAMBDA: case EX_SUBSCRIPT: case EX_EACH: case EX_SEQ: case EX_EMPTY:
    case EX_RANGE: case EX_TIME:
        return NULL;
    }
    return NULL;
}

bool fl_loop_call(Fl *F, const Ctx *cx, FunDecl *f, FVal arg, FVal *out)
{
    Type *ft = type_prune(f->type);
    if (!cx->lifted || f->is_prelude || !f->body || !fl_scalar_type(ft->arg) || !fl_scalar_type(ft->res)) return false;
    int n = fv_arity(ft->arg, false);
    Seq S = { F, f, 0 };
    Sym *xs = arena_alloc(F->a, sizeof *xs * (size_t)n);
    LcuExpr **vars = arena_alloc(F->a, sizeof *vars * (size_t)n), **init = arena_alloc(F->a, sizeof *init * (size_t)n);
    for (int k = 0; k < n; k++) {
        xs[k] = fl_fresh(F, "x");
        vars[k] = X_var(F, xs[k]);
    }
    const SEnv *env = NULL;
    if (!bind_pattern(&S, &env, f->param, n, vars)) return false;
    LcuExpr *body = seq_expr(&S, env, f->body, true, 0);
    if (!body || !S.nrecur) return false;   /* not tail-recursive scalar code */
    arg = materialize(F, cx, arg);
    if (arg.n != n) ICE("flatten: %d components of a loop's argument, %d expected", arg.n, n);
    Sym i = fl_fresh(F, "i");
    for (int k = 0; k < n; k++) init[k] = X_idx(F, arg.c[k], X_var(F, i));
    LcuExpr *loop = lcu_e_loop(F->a, f->span, lcu_bind(F->a, f->span, n, xs, NULL, tuple_of(&S, n, init)), body);
    PtrVec ts = { 0 };
    flat_layout(F->a, ft->res, true, &ts);
    LcuArg *as[2] = { A_thunk(F, fl_thunk1(F, i, loop)), A_expr(F, X_var(F, cx->count)) };
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items, X_soac(F, LS_MAP, 2, as));
    *out = fv_make(F, ft->res, true, ts.len, c);
    return true;
}
