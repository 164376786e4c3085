/* sequential.c — scalar tail recursion in lifted code as a loop per element.
 *
 * A lifted call of a recursive function normally runs its lifted version:
 * every level of the recursion is a round of kernels over the elements
 * still recursing, with host round trips between rounds (mandelbrot's
 * escape: ~13 kernel functions per iteration, 256 iterations).  When the
 * function takes and returns scalars (tuples of them), and its body is
 * scalar code that cannot fail — the class speculate.c accepts: literals,
 * local variables, let, if, tuples, total primitives — whose calls of
 * itself are in tail position (calls of other functions are inlined,
 * seq_inline), each element's recursion is a loop:
 *
 *     MAP { i => iterate (x1, ..., xn) = (a1[i], ..., an[i]) in body' } (count)
 *
 * where body' is the body with its self calls as recur (λcu's iterate,
 * doc/lcu.md).  Elements that recurse longer no longer hold the others
 * back in rounds, and there are no rounds: one kernel.  Errors cannot
 * arise (no primitive that fails is accepted), so evaluation order does
 * not matter; a recursion that does not end does not end either way.
 *
 * Scalars include datatypes of scalars (their fields).  A parameter that
 * is a sequence passed unchanged to every self call (Barnes-Hut's tree in
 * walk) is not loop state: the loop reads it where it is, through #s and
 * through s[i] as the whole right-hand side of a let in tail position,
 * where an index out of range records NESL's error (guard) and ends the
 * element's loop with a default result.  The element's error is then its
 * first, as in the unlooped code, and the other elements run on. */
#include <string.h>
#include "flatten_impl.h"
#include "rt/nesl_scalar.h"

/* A sequence parameter that every self call passes on unchanged: its
 * element components (vectors the thunk reads), its length and the offset
 * of its elements in them (thunk variables bound before the loop). */
typedef struct SeqInv {
    Binder *b;
    Type *type;
    int ncomp;
    Sym *comps;
    Sym len, base;
} SeqInv;

/* v: a scalar's λcu expression; seq: an invariant sequence instead */
typedef struct SEnv { Binder *b; LcuExpr *v; const SeqInv *seq; const struct SEnv *next; } SEnv;

typedef struct Seq {
    Fl *F;
    const Ctx *cx;
    FunDecl *self;
    int nleaves;       /* the parameter's top-level components (tuple leaves) */
    Pattern **leaf;
    SeqInv **inv;      /* per leaf: the invariant sequence, or NULL (loop state) */
    bool emit;         /* the final translation: sites registered, globals read */
    PtrVec *hoist;     /* the partial operations of the expression being translated
                          (Hoist*), or NULL under a conditional */
    int nrecur;        /* self calls turned into recur */
    int ninline;       /* functions being inlined (seq_inline), innermost last */
    FunDecl *inlining[8];
} Seq;

/* Scalars, tuples of them and datatypes of them: loop state. */
static bool loop_scalar(Fl *F, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: return true;
    case TY_PAIR: return loop_scalar(F, t->fst) && loop_scalar(F, t->snd);
    case TY_DATA: return loop_scalar(F, fl_data_fields(F, t));
    case TY_STREAM: case TY_SEQ: case TY_FUN: case TY_FUNID: case TY_VAR: return false;
    }
    return false;
}

static const SeqInv *invariant(const SEnv *env, const Expr *e)
{
    if (e->kind != EX_VAR || e->ref != REF_LOCAL) return NULL;
    for (const SEnv *s = env; s; s = s->next)
        if (s->b == e->binder) return s->seq;
    return NULL;
}

static LcuExpr *seq_expr(Seq *S, const SEnv *env, Expr *e, bool tail, int depth);
static LcuExpr *seq_let(Seq *S, const SEnv *env, Expr *e, int i, bool tail, int depth);

/* Components (λcu expressions) of a value of type t as one expression. */
static LcuExpr *tuple_of(Fl *F, int n, LcuExpr **c)
{
    if (n == 1) return c[0];
    LcuExpr **v = arena_alloc(F->a, sizeof *v * (size_t)n);
    memcpy(v, c, sizeof *v * (size_t)n);
    return lcu_e_tuple(F->a, (Span){ 0 }, n, v);
}

/* Bind pattern p to the n flat components c; NULL where p is not scalar. */
static bool bind_pattern(Seq *S, const SEnv **env, Pattern *p, int n, LcuExpr **c)
{
    switch (p->kind) {
    case PAT_VAR: {
        SEnv *s = arena_alloc(S->F->a, sizeof *s);
        s->b = p->binder;
        s->v = tuple_of(S->F, n, c);
        s->seq = NULL;
        s->next = *env;
        *env = s;
        return true;
    }
    case PAT_PAIR: {
        int k = fv_arity(p->fst->type, false);
        return k <= n && bind_pattern(S, env, p->fst, k, c) && bind_pattern(S, env, p->snd, n - k, c + k);
    }
    case PAT_CON: return bind_pattern(S, env, p->sub, n, c);   /* a datatype: its fields */
    }
    return false;
}

/* The tuple leaves of pattern p, and of e when it has p's shape (else
 * false): f (a, s, b) takes leaves a, s and b. */
static void pattern_leaves(Fl *F, Pattern *p, PtrVec *out)
{
    if (p->kind == PAT_PAIR) {
        pattern_leaves(F, p->fst, out);
        pattern_leaves(F, p->snd, out);
    } else {
        ptrvec_push(F->a, out, p);
    }
}

static bool expr_leaves(Fl *F, Pattern *p, Expr *e, PtrVec *out)
{
    if (p->kind != PAT_PAIR) {
        ptrvec_push(F->a, out, e);
        return true;
    }
    return e->kind == EX_PAIR && expr_leaves(F, p->fst, e->a, out) && expr_leaves(F, p->snd, e->b, out);
}

/* The function's default result (an element whose loop ended on an error). */
static LcuExpr *default_result(Seq *S)
{
    PtrVec ts = { 0 };
    flat_layout(S->F->a, type_prune(S->self->type)->res, false, &ts);
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)(ts.len ? ts.len : 1));
    for (int k = 0; k < ts.len; k++) c[k] = X_default(S->F, ((const LcuType *)ts.items[k])->base);
    return tuple_of(S->F, ts.len, c);
}

/* A partial operation of the loop body (a primitive that may fail, or a
 * read s[i] of an invariant sequence): evaluated before the let binding or
 * the tail expression that holds it, where a failure records NESL's error
 * (guard) and ends the element's loop with a default result.  Only outside
 * conditionals: S->hoist is NULL there, and the operation not accepted. */
typedef struct Hoist {
    int nops;
    Sym *ops;            /* the operands, bound first */
    LcuExpr **opv;
    LcuExpr *fails;      /* over the operands */
    int kind;            /* NESL_G_* */
    Span sp;
    int nt;
    Sym *ts;             /* the result's components */
    LcuExpr *value;
} Hoist;

static Sym *fresh_syms(Fl *F, int n, const char *prefix, LcuExpr **vars)
{
    Sym *xs = arena_alloc(F->a, sizeof *xs * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++) {
        xs[k] = fl_fresh(F, prefix);
        if (vars) vars[k] = X_var(F, xs[k]);
    }
    return xs;
}

/* h's result, as an expression for the place of the operation. */
static LcuExpr *hoisted(Seq *S, Hoist *h)
{
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)h->nt);
    h->ts = fresh_syms(S->F, h->nt, "t", c);
    ptrvec_push(S->F->a, S->hoist, h);
    return tuple_of(S->F, h->nt, c);
}

static LcuExpr *wrap_hoists(Seq *S, PtrVec *hs, LcuExpr *inner)
{
    Fl *F = S->F;
    for (int k = hs->len - 1; k >= 0; k--) {
        Hoist *h = hs->items[k];
        LcuExpr *ok = lcu_e_let(F->a, h->sp, lcu_bind(F->a, h->sp, h->nt, h->ts, NULL, h->value), inner);
        LcuExpr *site = S->emit ? fl_site(F, S->cx, h->sp) : X_int(F, 0);
        LcuExpr *fail = fl_guard_fail(F, site, h->kind, default_result(S), h->sp);
        LcuExpr *e = X_if(F, h->fails, fail, ok);
        for (int j = h->nops - 1; j >= 0; j--) e = lcu_e_let(F->a, h->sp, lcu_bind(F->a, h->sp, 1, h->ops + j, NULL, h->opv[j]), e);
        inner = e;
    }
    return inner;
}

/* e in tail position, its partial operations checked before it. */
static LcuExpr *seq_tail(Seq *S, const SEnv *env, Expr *e, int depth)
{
    PtrVec *outer = S->hoist, hs = { 0 };
    S->hoist = &hs;
    LcuExpr *r = seq_expr(S, env, e, true, depth);
    S->hoist = outer;
    return r ? wrap_hoists(S, &hs, r) : NULL;
}

/* s[i], s invariant. */
static LcuExpr *seq_read(Seq *S, const SEnv *env, Expr *e, int depth)
{
    Fl *F = S->F;
    const SeqInv *q = invariant(env, e->a);
    if (!q || !S->hoist || S->cx->site || fv_arity(e->type, false) != q->ncomp) return NULL;
    Hoist *h = arena_alloc(F->a, sizeof *h);
    h->nops = 1;
    h->opv = arena_alloc(F->a, sizeof *h->opv);
    if (!(h->opv[0] = seq_expr(S, env, e->b, false, depth))) return NULL;
    LcuExpr *x;
    h->ops = fresh_syms(F, 1, "s", &x);
    h->fails = X_bin(F, LOP_OR, X_bin(F, LOP_LT, x, X_int(F, 0)), X_bin(F, LOP_GE, x, X_var(F, q->len)));
    h->kind = NESL_G_INDEX;
    h->sp = e->span;
    h->nt = q->ncomp;
    LcuExpr **rd = arena_alloc(F->a, sizeof *rd * (size_t)q->ncomp);
    for (int k = 0; k < q->ncomp; k++) rd[k] = X_idx_in(F, q->comps[k], X_bin(F, LOP_ADD, X_var(F, q->base), x));
    h->value = tuple_of(S->F, q->ncomp, rd);
    return hoisted(S, h);
}

/* let (x1, ..., xn) = rhs in body from binding i on, the xs bound to the
 * pattern; in tail position each binding's partial operations are checked
 * before it. */
static LcuExpr *seq_let_from(Seq *S, const SEnv *env, Expr *e, int i, bool tail, int depth)
{
    if (i == e->nbinds) return tail ? seq_tail(S, env, e->a, depth) : seq_expr(S, env, e->a, false, depth);
    LetBind *lb = &e->binds[i];
    PtrVec *outer = S->hoist, hs = { 0 };
    if (tail) S->hoist = &hs;
    LcuExpr *rhs = seq_expr(S, env, lb->value, false, depth);
    S->hoist = outer;
    int n = fv_arity(lb->value->type, false);
    if (!rhs || n < 1) return NULL;
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)n);
    Sym *xs = fresh_syms(S->F, n, "s", c);
    if (!bind_pattern(S, &env, lb->pat, n, c)) return NULL;
    LcuExpr *body = seq_let_from(S, env, e, i + 1, tail, depth);
    if (!body) return NULL;
    LcuExpr *let = lcu_e_let(S->F->a, e->span, lcu_bind(S->F->a, lb->pat->span, n, xs, NULL, rhs), body);
    return tail ? wrap_hoists(S, &hs, let) : let;
}

/* Not in tail position a let takes no partial operations: checked before
 * the expression that holds the let, their operands could name its
 * variables. */
static LcuExpr *seq_let(Seq *S, const SEnv *env, Expr *e, int i, bool tail, int depth)
{
    if (tail) return seq_let_from(S, env, e, i, true, depth);
    PtrVec *outer = S->hoist;
    S->hoist = NULL;
    LcuExpr *r = seq_let_from(S, env, e, i, false, depth);
    S->hoist = outer;
    return r;
}

/* A primitive applied to nargs operand expressions; NULL unless it is
 * element-wise, and cannot fail or is hoisted (partial: division, sqrt, ...). */
static LcuExpr *seq_prim(Seq *S, const SEnv *env, int prim, int nargs, Expr **args, Span sp, int depth)
{
    Fl *F = S->F;
    const SeqInv *q = nargs == 1 ? invariant(env, args[0]) : NULL;
    if (prim == PRIM_LENGTH && q) return X_var(F, q->len);
    bool safe = fl_prim_safe(prim, nargs, args);
    if (!safe && (!S->hoist || S->cx->site)) return NULL;
    LcuExpr *x[2];
    for (int i = 0; i < nargs; i++)
        if (!fl_scalar_type(args[i]->type) || !(x[i] = seq_expr(S, env, args[i], false, depth))) return NULL;
    Type *t1 = nargs > 1 ? args[1]->type : NULL;
    if (safe) return fl_scalar_op(F, prim, args[0]->type, t1, x);
    Hoist *h = arena_alloc(F->a, sizeof *h);
    LcuExpr *v[2];
    h->nops = nargs;
    h->opv = arena_alloc(F->a, sizeof *h->opv * (size_t)nargs);
    memcpy(h->opv, x, sizeof *x * (size_t)nargs);
    h->ops = fresh_syms(F, nargs, "s", v);
    if (!(h->fails = fl_scalar_fails(F, prim, args[0]->type, v))) return NULL;
    h->kind = fl_guard_kind(prim);
    h->sp = sp;
    h->nt = 1;
    h->value = fl_scalar_op(F, prim, args[0]->type, t1, v);
    return hoisted(S, h);
}

/* A call of another function (round, max, a helper of the program):
 * its body inlined, its parameters bound by a let to the argument's
 * components.  The body sees only its parameters and globals, and takes
 * no partial operation (their operands could name the parameters, as
 * under a let not in tail position) and no call of the loop's function
 * (mutual recursion); a function already being inlined is refused, so a
 * recursive helper leaves the loop to the general path. */
static LcuExpr *seq_inline(Seq *S, const SEnv *env, FunDecl *g, Expr *arg, int depth)
{
    int n = fv_arity(arg->type, false), most = (int)(sizeof S->inlining / sizeof *S->inlining);
    if (!g->body || n < 1 || !loop_scalar(S->F, arg->type) || S->ninline == most) return NULL;
    for (int k = 0; k < S->ninline; k++)
        if (S->inlining[k] == g) return NULL;
    LcuExpr *v = seq_expr(S, env, arg, false, depth);
    if (!v) return NULL;
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)n);
    Sym *xs = fresh_syms(S->F, n, "a", c);
    const SEnv *genv = NULL;
    if (!bind_pattern(S, &genv, g->param, n, c)) return NULL;
    PtrVec *outer = S->hoist;
    S->hoist = NULL;
    S->inlining[S->ninline++] = g;
    LcuExpr *body = seq_expr(S, genv, g->body, false, depth);
    S->ninline--;
    S->hoist = outer;
    return body ? lcu_e_let(S->F->a, arg->span, lcu_bind(S->F->a, arg->span, n, xs, NULL, v), body) : NULL;
}

static LcuExpr *seq_apply(Seq *S, const SEnv *env, Expr *e, bool tail, int depth)
{
    Expr *fn = e->a;
    if (fn->kind != EX_VAR) return NULL;
    if (fn->ref == REF_PRIM) {
        int k = prim_info[fn->prim].arity;
        if (k == 1) return seq_prim(S, env, fn->prim, 1, &e->b, e->span, depth);
        if (k == 2 && e->b->kind == EX_PAIR) {
            Expr *args[2] = { e->b->a, e->b->b };
            return seq_prim(S, env, fn->prim, 2, args, e->span, depth);
        }
        return NULL;
    }
    if (fn->ref != REF_FUN) return NULL;
    FunDecl *g = fl_fun_body(S->F, fn->fun, fn->span);
    if (g != S->self) return seq_inline(S, env, g, e->b, depth);
    if (!tail) return NULL;
    PtrVec leaves = { 0 };
    if (!expr_leaves(S->F, S->self->param, e->b, &leaves) || leaves.len != S->nleaves) return NULL;
    LcuExpr **st = arena_alloc(S->F->a, sizeof *st * (size_t)S->nleaves);
    int ns = 0;
    for (int k = 0; k < S->nleaves; k++) {
        Expr *x = leaves.items[k];
        if (S->inv[k]) {   /* passed on unchanged, or not a loop */
            if (x->kind != EX_VAR || x->ref != REF_LOCAL || x->binder != S->inv[k]->b) return NULL;
        } else if (!(st[ns++] = seq_expr(S, env, x, false, depth))) {
            return NULL;
        }
    }
    LcuExpr *arg = ns == 1 ? st[0] : lcu_e_tuple(S->F->a, e->b->span, ns, st);
    S->nrecur++;
    LcuExpr **as = arena_alloc(S->F->a, sizeof *as);
    as[0] = arg;
    return lcu_e_recur(S->F->a, e->span, 1, as);
}

/* A global of scalar type: read on the CPU before the loop (the final
 * translation), a placeholder in the analysis. */
static LcuExpr *seq_global(Seq *S, Expr *e)
{
    int n = fv_arity(e->type, false);
    LcuExpr **c = arena_alloc(S->F->a, sizeof *c * (size_t)(n ? n : 1));
    if (n < 1) return NULL;
    if (!S->emit) {
        fresh_syms(S->F, n, "gl", c);
        return tuple_of(S->F, n, c);
    }
    FVal g = fl_expr(S->F, S->cx, e);
    if (g.lifted || g.n != n) ICE("flatten: a global's %d components in a loop, %d expected", g.n, n);
    for (int k = 0; k < n; k++) c[k] = X_var(S->F, g.c[k]);
    return tuple_of(S->F, n, c);
}

static LcuExpr *seq_expr(Seq *S, const SEnv *env, Expr *e, bool tail, int depth)
{
    Arena *a = S->F->a;
    if (depth > 64 || !loop_scalar(S->F, e->type)) return NULL;
    depth++;
    switch (e->kind) {
    case EX_INT: return lcu_e_int(a, e->span, e->ival);
    case EX_FLOAT: return lcu_e_float(a, e->span, e->fval);
    case EX_BOOL: return lcu_e_bool(a, e->span, e->bval);
    case EX_CHAR: return lcu_e_char(a, e->span, e->ival);
    case EX_VAR:
        if (e->ref == REF_GLOBAL) return seq_global(S, e);
        if (e->ref != REF_LOCAL) return NULL;
        for (const SEnv *s = env; s; s = s->next)
            if (s->b == e->binder) return s->v;   /* NULL: an invariant sequence as a value */
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
        if (!c) return NULL;
        if (tail) {   /* each branch checks its own partial operations */
            LcuExpr *t = seq_tail(S, env, e->b, depth);
            LcuExpr *f = t ? seq_tail(S, env, e->c, depth) : NULL;
            return f ? lcu_e_if(a, e->span, c, t, f) : NULL;
        }
        PtrVec *outer = S->hoist;
        S->hoist = NULL;   /* not evaluated unless taken */
        LcuExpr *t = seq_expr(S, env, e->b, false, depth);
        LcuExpr *f = t ? seq_expr(S, env, e->c, false, depth) : NULL;
        S->hoist = outer;
        return f ? lcu_e_if(a, e->span, c, t, f) : NULL;
    }
    case EX_LET: return seq_let(S, env, e, 0, tail, depth);
    case EX_OP: return e->fun ? NULL : seq_prim(S, env, e->prim, e->nargs, e->args, e->span, depth);
    case EX_APPLY: return seq_apply(S, env, e, tail, depth);
    case EX_SUBSCRIPT: return seq_read(S, env, e, depth);
    case EX_STRING: case EX_LAMBDA: case EX_EACH: case EX_SEQ: case EX_EMPTY:
    case EX_RANGE: case EX_TIME:
        return NULL;
    }
    return NULL;
}

static void seq_setup(Seq *S, Fl *F, const Ctx *cx, FunDecl *f)
{
    PtrVec leaves = { 0 };
    pattern_leaves(F, f->param, &leaves);
    *S = (Seq){ F, cx, f, leaves.len, (Pattern **)leaves.items, NULL, true, NULL, 0, 0, { NULL } };
    S->inv = arena_alloc(F->a, sizeof *S->inv * (size_t)(S->nleaves ? S->nleaves : 1));
    memset(S->inv, 0, sizeof *S->inv * (size_t)(S->nleaves ? S->nleaves : 1));
}

/* f's body as the body of a loop over fresh state variables (*xs, *n of
 * them: the components of the leaves that are not invariant); NULL when
 * it is not tail-recursive loop code. */
static LcuExpr *loop_body(Seq *S, Sym **xs, int *n)
{
    Fl *F = S->F;
    int m = 0;
    for (int k = 0; k < S->nleaves; k++)
        if (!S->inv[k]) m += fv_arity(S->leaf[k]->type, false);
    *xs = arena_alloc(F->a, sizeof **xs * (size_t)(m ? m : 1));
    const SEnv *env = NULL;
    for (int k = 0, o = 0; k < S->nleaves; k++) {
        Pattern *p = S->leaf[k];
        if (S->inv[k]) {
            SEnv *e = arena_alloc(F->a, sizeof *e);
            *e = (SEnv){ p->binder, NULL, S->inv[k], env };
            env = e;
            continue;
        }
        int c = fv_arity(p->type, false);
        LcuExpr **v = arena_alloc(F->a, sizeof *v * (size_t)(c ? c : 1));
        for (int j = 0; j < c; j++) {
            (*xs)[o + j] = fl_fresh(F, "x");
            v[j] = X_var(F, (*xs)[o + j]);
        }
        if (c < 1 || !bind_pattern(S, &env, p, c, v)) return NULL;
        o += c;
    }
    *n = m;
    S->nrecur = 0;
    LcuExpr *body = seq_tail(S, env, S->self->body, 0);
    return body && S->nrecur ? body : NULL;
}

/* MAP { i => iterate (xs) = (init) in body } (count), wrapped in pre
 * (thunk lets before the loop), as f's lifted result. */
static FVal loop_map(Fl *F, const Ctx *cx, FunDecl *f, Sym i, int n, Sym *xs, LcuExpr **init, LcuExpr *body,
                     int npre, Sym *pre, LcuExpr **pre_e)
{
    LcuExpr *loop = lcu_e_loop(F->a, f->span, lcu_bind(F->a, f->span, n, xs, NULL, tuple_of(F, n, init)), body);
    for (int k = npre - 1; k >= 0; k--)
        loop = lcu_e_let(F->a, f->span, lcu_bind(F->a, f->span, 1, pre + k, NULL, pre_e[k]), loop);
    Type *rt = type_prune(f->type)->res;
    PtrVec ts = { 0 };
    flat_layout(F->a, rt, true, &ts);
    LcuArg *as[2] = { A_thunk(F, fl_thunk1(F, i, loop)), A_expr(F, X_var(F, cx->count)) };
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items, X_soac(F, LS_MAP, 2, as));
    return fv_make(F, rt, true, ts.len, c);
}

bool fl_loop_call(Fl *F, const Ctx *cx, FunDecl *f, FVal arg, FVal *out)
{
    Type *ft = type_prune(f->type);
    if (!cx->lifted || f->is_prelude || !f->body || !loop_scalar(F, ft->arg) || !loop_scalar(F, ft->res)) return false;
    Seq S;
    seq_setup(&S, F, cx, f);
    Sym *xs;
    int n;
    S.emit = false;
    if (!loop_body(&S, &xs, &n)) return false;   /* not tail-recursive scalar code */
    S.emit = true;
    LcuExpr *body = loop_body(&S, &xs, &n);
    if (!body) ICE("flatten: a loop's body translated once, not twice");
    arg = materialize(F, cx, arg);
    if (arg.n != n) ICE("flatten: %d components of a loop's argument, %d expected", arg.n, n);
    Sym i = fl_fresh(F, "i");
    LcuExpr **init = arena_alloc(F->a, sizeof *init * (size_t)n);
    for (int k = 0; k < n; k++) init[k] = X_idx(F, arg.c[k], X_var(F, i));
    *out = loop_map(F, cx, f, i, n, xs, init, body, 0, NULL, NULL);
    return true;
}

/* An invariant sequence leaf: its components and length, as placeholders
 * (for the analysis) or for the evaluated argument v in the MAP over i. */
static SeqInv *seq_inv(Fl *F, Pattern *p, const FVal *v, Sym i, LcuExpr **len_e, LcuExpr **base_e)
{
    SeqInv *q = arena_alloc(F->a, sizeof *q);
    q->b = p->binder;
    q->type = p->type;
    q->len = fl_fresh(F, "n");
    q->base = fl_fresh(F, "o");
    if (!v) {
        q->ncomp = fv_arity(type_prune(p->type)->elem, true);
        q->comps = arena_alloc(F->a, sizeof *q->comps * (size_t)(q->ncomp ? q->ncomp : 1));
        for (int k = 0; k < q->ncomp; k++) q->comps[k] = fl_fresh(F, "v");
        return q;
    }
    if (!v->lifted) {   /* the same sequence for every element */
        q->ncomp = v->n;
        q->comps = v->c;
        *len_e = fv_count(F, *v);
        *base_e = X_int(F, 0);
        return q;
    }
    FVal d = fv_direct(F, *v);   /* element i's: a segment */
    q->ncomp = d.n - 1;
    q->comps = d.c + 1;
    *len_e = X_idx_in(F, fl_sd_lengths(F, d.c[0]), X_var(F, i));
    *base_e = X_idx_in(F, fl_sd_offsets(F, d.c[0]), X_var(F, i));
    return q;
}

bool fl_loop_call_seq(Fl *F, const Ctx *cx, FunDecl *fun, Expr *argx, Span sp, FVal *out)
{
    if (!cx->lifted) return false;
    FunDecl *f = fl_fun_body(F, fun, sp);
    if (f->is_prelude || !f->body || !loop_scalar(F, type_prune(f->type)->res)) return false;
    Seq S;
    seq_setup(&S, F, cx, f);
    PtrVec args = { 0 };
    if (!expr_leaves(F, f->param, argx, &args) || args.len != S.nleaves) return false;
    bool any = false;
    for (int k = 0; k < S.nleaves; k++) {
        Pattern *p = S.leaf[k];
        Type *t = type_prune(p->type);
        if (t->kind == TY_SEQ && p->kind == PAT_VAR && loop_scalar(F, t->elem)) {
            S.inv[k] = seq_inv(F, p, NULL, NULL, NULL, NULL);
            any = true;
        } else if (!loop_scalar(F, p->type)) {
            return false;
        }
    }
    Sym *xs;
    int n;
    S.emit = false;
    if (!any || !loop_body(&S, &xs, &n)) return false;
    /* the loop it is: evaluate the argument, then translate again with
     * the invariant sequences' own components */
    FVal *v = arena_alloc(F->a, sizeof *v * (size_t)S.nleaves);
    for (int k = 0; k < S.nleaves; k++) v[k] = fl_expr(F, cx, args.items[k]);
    Sym i = fl_fresh(F, "i");
    Sym *pre = arena_alloc(F->a, sizeof *pre * (size_t)(2 * S.nleaves));
    LcuExpr **pre_e = arena_alloc(F->a, sizeof *pre_e * (size_t)(2 * S.nleaves));
    int npre = 0;
    for (int k = 0; k < S.nleaves; k++) {
        if (!S.inv[k]) continue;
        int want = S.inv[k]->ncomp;
        S.inv[k] = seq_inv(F, S.leaf[k], &v[k], i, &pre_e[npre], &pre_e[npre + 1]);
        if (S.inv[k]->ncomp != want) ICE("flatten: %d components of a loop's sequence, %d expected", S.inv[k]->ncomp, want);
        pre[npre++] = S.inv[k]->len;
        pre[npre++] = S.inv[k]->base;
    }
    S.emit = true;
    LcuExpr *body = loop_body(&S, &xs, &n);
    if (!body) ICE("flatten: a loop's body translated once, not twice");
    LcuExpr **init = arena_alloc(F->a, sizeof *init * (size_t)(n ? n : 1));
    int o = 0;
    for (int k = 0; k < S.nleaves; k++) {
        if (S.inv[k]) continue;
        FVal a = materialize(F, cx, v[k]);
        for (int j = 0; j < a.n; j++) init[o++] = X_idx(F, a.c[j], X_var(F, i));
    }
    if (o != n) ICE("flatten: %d components of a loop's argument, %d expected", o, n);
    *out = loop_map(F, cx, f, i, n, xs, init, body, npre, pre, pre_e);
    return true;
}
