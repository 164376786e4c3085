/* eval.c — the reference interpreter's expression evaluator.
 *
 * A direct tree walker over the monomorphic AST.  Locals live in per-call
 * frames on the C stack (the evaluator runs on a thread with a large stack,
 * see eval_toplevel.c); every value that outlives its expression is allocated
 * in I->heap, the arena of the current top-level form. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "eval.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../frontend/frontend.h"

#define MAX_PRIM_ARITY 8

static Value ev(Interp *I, Expr *e, Frame *f);

/* ------------------------------------------------------------------ errors */

/* Is this position inside the library source? */
static bool in_prelude(Span s)
{
    return s.src && s.src->name && strcmp(s.src->name, nesl_prelude_name) == 0;
}

_Noreturn void rt_error(Interp *I, Span where, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Errors inside library code are reported where the user called it. */
    if ((!where.src || in_prelude(where)) && I->call_site.src)
        where = I->call_site;
    if (I->out)
        fflush(I->out);
    if (where.src)
        fprintf(I->err, "%s:%d:%d: RUNTIME ERROR: %s\n", where.src->name, where.line, where.col, msg);
    else
        fprintf(I->err, "RUNTIME ERROR: %s\n", msg);
    fflush(I->err);
    if (I->errctx && I->errctx->active)
        longjmp(I->errctx->jb, 1);
    ICE("runtime error outside a top-level form: %s", msg);
}

/* ------------------------------------------------------------------ helpers */

static Value v_fun(Closure *c)
{
    Value v;
    v.kind = V_FUN;
    v.fn = c;
    return v;
}

static Closure *closure_new(Interp *I, ClosureKind k)
{
    Closure *c = arena_alloc(I->heap, sizeof *c);
    c->kind = k;
    return c;
}

/* The instance that carries the body (a forward declaration points to it). */
static FunDecl *fun_with_body(Interp *I, FunDecl *fun, Span where)
{
    while (!fun->body && fun->defined_by && fun->defined_by != fun)
        fun = fun->defined_by;
    if (!fun->body)
        rt_error(I, where, "Function %s is declared but never defined.", fun->name);
    /* A same-typed redefinition that has run takes over (NESL.md 2.1). */
    while (fun->replacement && fun->replacement->generic->live)
        fun = fun->replacement;
    return fun;
}

static void enter(Interp *I, Span where)
{
    if (++I->depth > I->max_depth || (uintptr_t)__builtin_frame_address(0) < I->stack_limit)
        rt_error(I, where, "Recursion too deep (stack overflow).");
}

/* ------------------------------------------------------------------ patterns */

void bind_pattern(Interp *I, Pattern *p, Value v, Frame *f)
{
    for (;;) {
        switch (p->kind) {
        case PAT_VAR: {
            Binder *b = p->binder;
            if (b->is_global) {
                I->globals[b->global_index] = v;
                I->global_set[b->global_index] = true;
            } else {
                f->slots[b->slot] = v;
            }
            return;
        }
        case PAT_PAIR:
            if (v.kind != V_PAIR)
                ICE("pair pattern bound to a non-pair value");
            bind_pattern(I, p->fst, v.pair->fst, f);
            p = p->snd;
            v = v.pair->snd;
            continue;
        case PAT_CON:
            if (v.kind != V_DATA)
                ICE("constructor pattern bound to a non-datatype value");
            v = v.data->fields;
            p = p->sub;
            continue;
        }
        ICE("bad pattern kind %d", (int)p->kind);
    }
}

/* Bind a callee's parameter pattern directly from the argument expression,
 * evaluated in the caller's frame: `f(a, b)` allocates no pair. */
static void bind_arg(Interp *I, Pattern *p, Expr *e, Frame *callee, Frame *caller)
{
    while (p->kind == PAT_PAIR && e->kind == EX_PAIR) {
        bind_arg(I, p->fst, e->a, callee, caller);
        p = p->snd;
        e = e->b;
    }
    bind_pattern(I, p, ev(I, e, caller), callee);
}

/* ------------------------------------------------------------------ calls */

/* Evaluate a function body in its bound frame, with depth accounting and the
 * library call-site bookkeeping for error positions. */
static Value run_body(Interp *I, FunDecl *fun, Frame *nf, Span where)
{
    Span saved = I->call_site;
    if (fun->is_prelude && !in_prelude(where))
        I->call_site = where;
    enter(I, where);
    Value r = ev(I, fun->body, nf);
    I->depth--;
    I->call_site = saved;
    return r;
}

/* Direct call `fun(arg-expression)`. */
static Value call_fun_expr(Interp *I, FunDecl *fun, Expr *arg, Frame *caller, Span where)
{
    fun = fun_with_body(I, fun, where);
    int n = fun->nslots > 0 ? fun->nslots : 1;
    Value slots[n];
    memset(slots, 0, sizeof slots);
    Frame nf = { slots, fun->nslots };
    bind_arg(I, fun->param, arg, &nf, caller);
    return run_body(I, fun, &nf, where);
}

static Value call_fun_value(Interp *I, FunDecl *fun, Value arg, Span where)
{
    fun = fun_with_body(I, fun, where);
    int n = fun->nslots > 0 ? fun->nslots : 1;
    Value slots[n];
    memset(slots, 0, sizeof slots);
    Frame nf = { slots, fun->nslots };
    bind_pattern(I, fun->param, arg, &nf);
    return run_body(I, fun, &nf, where);
}

static int prim_arity(int prim)
{
    int k = prim_info[prim].arity;
    if (k < 1 || k > MAX_PRIM_ARITY)
        ICE("primitive %s has unsupported arity %d", prim_info[prim].name, k);
    return k;
}

/* Split a right-nested tuple value into its k top-level components. */
static void split_tuple(Value v, Value *args, int from, int k)
{
    for (int j = from; j < k - 1; j++) {
        if (v.kind != V_PAIR)
            ICE("primitive argument is not a tuple");
        args[j] = v.pair->fst;
        v = v.pair->snd;
    }
    args[k - 1] = v;
}

/* Primitive applied to an argument expression: tuple components are
 * evaluated straight into the argument array when written as a tuple. */
static Value call_prim_expr(Interp *I, int prim, Type *inst, Expr *arg, Frame *f, Span where)
{
    Value args[MAX_PRIM_ARITY];
    int k = prim_arity(prim);
    int j = 0;
    while (j < k - 1 && arg->kind == EX_PAIR) {
        args[j++] = ev(I, arg->a, f);
        arg = arg->b;
    }
    split_tuple(ev(I, arg, f), args, j, k);
    return prim_impls[prim](I, args, inst, where);
}

static Value call_prim_value(Interp *I, int prim, Type *inst, Value arg, Span where)
{
    Value args[MAX_PRIM_ARITY];
    split_tuple(arg, args, 0, prim_arity(prim));
    return prim_impls[prim](I, args, inst, where);
}

static Value call_lambda(Interp *I, Closure *c, Value arg, Span where)
{
    Expr *lam = c->lambda;
    int n = c->nframe > 0 ? c->nframe : 1;
    Value slots[n];
    memset(slots, 0, sizeof slots);
    if (c->nframe > 0)
        memcpy(slots, c->frame, (size_t)c->nframe * sizeof(Value));
    Frame nf = { slots, c->nframe };
    bind_pattern(I, lam->param, arg, &nf);
    enter(I, where);
    Value r = ev(I, lam->a, &nf);
    I->depth--;
    return r;
}

Value interp_apply(Interp *I, Value fn, Value arg, Span where)
{
    if (fn.kind != V_FUN)
        ICE("applying a non-function value");
    Closure *c = fn.fn;
    switch (c->kind) {
    case CLO_FUN: return call_fun_value(I, c->fun, arg, where);
    case CLO_PRIM: return call_prim_value(I, c->prim, c->inst, arg, where);
    case CLO_CON: return v_data(I->heap, c->con, arg);
    case CLO_LAMBDA: return call_lambda(I, c, arg, where);
    }
    ICE("bad closure kind %d", (int)c->kind);
}

/* ------------------------------------------------------------------ expressions */

static Value eval_var(Interp *I, Expr *e, Frame *f)
{
    switch (e->ref) {
    case REF_LOCAL:
        return f->slots[e->binder->slot];
    case REF_GLOBAL: {
        int g = e->binder->global_index;
        if (g < 0 || g >= I->nglobals || !I->global_set[g])
            rt_error(I, e->span, "Variable %s is unbound because its definition failed.", e->name);
        return I->globals[g];
    }
    case REF_FUN: {
        Closure *c = closure_new(I, CLO_FUN);
        c->fun = e->fun;
        return v_fun(c);
    }
    case REF_PRIM: {
        Closure *c = closure_new(I, CLO_PRIM);
        c->prim = e->prim;
        c->inst = e->inst;
        return v_fun(c);
    }
    case REF_CON: {
        Closure *c = closure_new(I, CLO_CON);
        c->con = e->data;
        return v_fun(c);
    }
    case REF_NONE:
        break;
    }
    ICE("unresolved variable %s reached the interpreter", e->name);
}

static Value eval_apply(Interp *I, Expr *e, Frame *f)
{
    Expr *fn = e->a;
    if (fn->kind == EX_VAR) {
        switch (fn->ref) {
        case REF_FUN: return call_fun_expr(I, fn->fun, e->b, f, e->span);
        case REF_PRIM: return call_prim_expr(I, fn->prim, fn->inst, e->b, f, e->span);
        case REF_CON: return v_data(I->heap, fn->data, ev(I, e->b, f));
        case REF_LOCAL: case REF_GLOBAL: case REF_NONE: break;
        }
    }
    Value fv = ev(I, fn, f);
    Value arg = ev(I, e->b, f);
    return interp_apply(I, fv, arg, e->span);
}

/* Operators: a primitive on the operands, or (if the checker resolved the
 * operator to a library function) a call of that function. */
static Value eval_op(Interp *I, Expr *e, Frame *f)
{
    Value args[2];
    int n = e->nargs;
    if (n < 1 || n > 2)
        ICE("operator with %d operands", n);
    for (int j = 0; j < n; j++)
        args[j] = ev(I, e->args[j], f);
    if (e->fun) {
        Value arg = n == 2 ? v_pair(I->heap, args[0], args[1]) : args[0];
        return call_fun_value(I, e->fun, arg, e->span);
    }
    if (prim_arity(e->prim) != n)
        ICE("operator %s: %d operands for a primitive of arity %d", op_spelling(e->op), n,
            prim_info[e->prim].arity);
    return prim_impls[e->prim](I, args, e->inst, e->span);
}

static Value eval_subscript(Interp *I, Expr *e, Frame *f)
{
    Value s = ev(I, e->a, f);
    Value i = ev(I, e->b, f);
    if (i.i < 0 || (int64_t)i.i >= s.seq->len)
        rt_error(I, e->span, "Sequence reference (a[i]) out of bounds.");
    return s.seq->elems[i.i];
}

static Value eval_range(Interp *I, Expr *e, Frame *f)
{
    int64_t lo = ev(I, e->a, f).i;
    int64_t hi = ev(I, e->b, f).i;
    int64_t step = e->c ? ev(I, e->c, f).i : 1;
    if (hi < lo || step <= 0)
        rt_error(I, e->span, "In [s:e:l], e must be >= to s, and l must be positive.");
    int64_t n = (hi - lo + step - 1) / step;
    Seq *s = seq_alloc(I->heap, n);
    for (int64_t k = 0; k < n; k++)
        s->elems[k] = v_int((int32_t)(lo + k * step));
    return v_seq(s);
}

static Value eval_seq(Interp *I, Expr *e, Frame *f)
{
    Seq *s = seq_alloc(I->heap, e->nelems);
    for (int k = 0; k < e->nelems; k++)
        s->elems[k] = ev(I, e->elems[k], f);
    return v_seq(s);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Value eval_time(Interp *I, Expr *e, Frame *f)
{
    if (I->timing)
        rt_error(I, e->span, "Timings cannot be nested.");
    I->timing = true;
    double t0 = now_seconds();
    Value v = ev(I, e->a, f);
    double t1 = now_seconds();
    I->timing = false;
    return v_pair(I->heap, v, v_float(t1 - t0));
}

static Value eval_lambda(Interp *I, Expr *e, Frame *f)
{
    Closure *c = closure_new(I, CLO_LAMBDA);
    int n = e->nslots;
    c->lambda = e;
    c->nframe = n;
    if (n > 0) {
        c->frame = arena_alloc(I->heap, (size_t)n * sizeof(Value));
        int m = f->n < n ? f->n : n;
        if (m > 0)
            memcpy(c->frame, f->slots, (size_t)m * sizeof(Value));
    }
    return v_fun(c);
}

/* Bind every generator pattern to its element at index i. */
static void bind_gens(Interp *I, Expr *e, Seq **seqs, int64_t i, Frame *f)
{
    for (int g = 0; g < e->ngens; g++) {
        Pattern *p = e->gens[g].pat;
        Value v = seqs[g]->elems[i];
        if (p->kind == PAT_VAR && !p->binder->is_global)
            f->slots[p->binder->slot] = v;
        else
            bind_pattern(I, p, v, f);
    }
}

/* {body : p1 in s1; ...; pk in sk | filter}.  With a filter, all flags are
 * computed first (vector order), then the bodies of the selected indices. */
static Value eval_each(Interp *I, Expr *e, Frame *f)
{
    int k = e->ngens;
    Seq *small[4];
    Seq **seqs = k <= 4 ? small : arena_alloc(I->heap, (size_t)k * sizeof(Seq *));
    int64_t n = 0;
    for (int g = 0; g < k; g++) {
        Value s = ev(I, e->gens[g].seq, f);
        seqs[g] = s.seq;
        if (g == 0)
            n = s.seq->len;
        else if (s.seq->len != n)
            rt_error(I, e->span, "Length mismatch in apply-to-each.");
    }
    if (!e->b) {
        Seq *r = seq_alloc(I->heap, n);
        for (int64_t i = 0; i < n; i++) {
            bind_gens(I, e, seqs, i, f);
            r->elems[i] = ev(I, e->a, f);
        }
        return v_seq(r);
    }
    uint8_t *flags = n > 0 ? arena_alloc(I->heap, (size_t)n) : NULL;
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        bind_gens(I, e, seqs, i, f);
        bool keep = ev(I, e->b, f).b;
        flags[i] = keep;
        count += keep;
    }
    Seq *r = seq_alloc(I->heap, count);
    int64_t j = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!flags[i])
            continue;
        if (e->body_from_pattern) {     /* {p in s | c}: the element itself */
            r->elems[j++] = seqs[0]->elems[i];
            continue;
        }
        bind_gens(I, e, seqs, i, f);
        r->elems[j++] = ev(I, e->a, f);
    }
    return v_seq(r);
}

static Value ev(Interp *I, Expr *e, Frame *f)
{
    for (;;) {
        switch (e->kind) {
        case EX_INT: return v_int(e->ival);
        case EX_FLOAT: return v_float(e->fval);
        case EX_BOOL: return v_bool(e->bval);
        case EX_CHAR: return v_char((uint8_t)e->ival);
        case EX_STRING: return v_string(I->heap, e->str, e->slen);
        case EX_VAR: return eval_var(I, e, f);
        case EX_PAIR: {
            Value a = ev(I, e->a, f);
            Value b = ev(I, e->b, f);
            return v_pair(I->heap, a, b);
        }
        case EX_IF:
            e = ev(I, e->a, f).b ? e->b : e->c;
            continue;           /* the taken arm, without growing the C stack */
        case EX_LET:
            for (int k = 0; k < e->nbinds; k++)
                bind_pattern(I, e->binds[k].pat, ev(I, e->binds[k].value, f), f);
            e = e->a;
            continue;
        case EX_LAMBDA: return eval_lambda(I, e, f);
        case EX_APPLY: return eval_apply(I, e, f);
        case EX_OP: return eval_op(I, e, f);
        case EX_SUBSCRIPT: return eval_subscript(I, e, f);
        case EX_EACH: return eval_each(I, e, f);
        case EX_SEQ: return eval_seq(I, e, f);
        case EX_EMPTY: return v_seq(seq_alloc(I->heap, 0));
        case EX_RANGE: return eval_range(I, e, f);
        case EX_TIME: return eval_time(I, e, f);
        }
        ICE("bad expression kind %d", (int)e->kind);
    }
}

Value eval_expr(Interp *I, Expr *e, Frame *f)
{
    return ev(I, e, f);
}
