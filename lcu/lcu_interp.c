/* lcu_interp.c — reference interpreter for checked λcu programs: the GPU
 * level (scalar operators and builtins, thunks).
 *
 * CPU values are LcuVal trees in arenas (lcu_mem.c).  Inside a kernel, every
 * variable is a slot on one stack: scalars live on a scalar stack, vectors
 * are referenced; GPU expressions write their (flat) result into
 * caller-provided LcuScalars, so evaluating a thunk per element allocates
 * nothing.  Runtime errors unwind with longjmp to lcu_interp_call, which
 * frees the arenas of the calls in progress. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"
#include "rt/nesl_scalar.h"

static _Noreturn void fail_with(LcuInterp *I, LcuFailure why, const char *fmt, va_list ap)
{
    fflush(I->out);
    if (why == LCU_FAIL_INTERNAL) fprintf(I->err, "nesslc: internal error: λcu interpreter: ");
    else fprintf(I->err, "RUNTIME ERROR: ");
    vfprintf(I->err, fmt, ap);
    if (why == LCU_FAIL_INTERNAL && I->guarded)
        fprintf(I->err, " (the flattened program should have guarded or excluded this)");
    fputc('\n', I->err);
    I->failure = why;
    longjmp(I->jb, 1);
}

_Noreturn void li_fail(LcuInterp *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_with(I, LCU_FAIL_RUNTIME, fmt, ap);
}

_Noreturn void li_unguarded(LcuInterp *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_with(I, I->guarded ? LCU_FAIL_INTERNAL : LCU_FAIL_RUNTIME, fmt, ap);
}

_Noreturn void li_internal(LcuInterp *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_with(I, LCU_FAIL_INTERNAL, fmt, ap);
}

_Noreturn void li_abort(LcuInterp *I, LcuFailure why)
{
    I->failure = why;
    longjmp(I->jb, 1);
}

/* ---- slot stack ---- */
void li_push(LcuInterp *I, Sym name, int n, const LcuScalar *s, const LcuVal *ref)
{
    if (I->nslots == I->cslots) {
        I->cslots = I->cslots ? 2 * I->cslots : 64;
        I->slots = realloc(I->slots, sizeof *I->slots * (size_t)I->cslots);
        if (!I->slots) li_fail(I, "out of memory");
    }
    if (I->nsc + n > I->csc) {
        while (I->nsc + n > I->csc) I->csc = I->csc ? 2 * I->csc : 256;
        I->sc = realloc(I->sc, sizeof *I->sc * (size_t)I->csc);
        if (!I->sc) li_fail(I, "out of memory");
    }
    Slot *sl = &I->slots[I->nslots++];
    sl->name = name;
    sl->n = n;
    sl->off = I->nsc;
    sl->ref = ref;
    if (n) memcpy(I->sc + I->nsc, s, sizeof *s * (size_t)n);
    I->nsc += n;
}

void li_pop_to(LcuInterp *I, int nslots)
{
    I->nslots = nslots;
    I->nsc = nslots ? I->slots[nslots - 1].off + I->slots[nslots - 1].n : 0;
}

const Slot *li_find(LcuInterp *I, Sym x)
{
    for (int i = I->nslots - 1; i >= I->base; i--)
        if (I->slots[i].name == x) return &I->slots[i];
    li_internal(I, "unbound '%s' in GPU code", x);
}

/* ---- scalar operators (shared by the CPU and GPU levels) ---- */
LcuScalar li_binop(LcuInterp *I, LcuBinop op, LcuBase b, LcuScalar x, LcuScalar y)
{
    LcuScalar r = { 0 };
    bool fl = b == LB_FLOAT;
    int32_t xi = (int32_t)x.i, yi = (int32_t)y.i;   /* ints hold sign-extended int32s */
    switch (op) {
    case LOP_ADD: if (fl) r.f = x.f + y.f; else r.i = nesl_iadd(xi, yi); return r;
    case LOP_SUB: if (fl) r.f = x.f - y.f; else r.i = nesl_isub(xi, yi); return r;
    case LOP_MUL: if (fl) r.f = x.f * y.f; else r.i = nesl_imul(xi, yi); return r;
    case LOP_DIV:
        if (fl) { r.f = x.f / y.f; return r; }
        if (yi == 0) li_unguarded(I, "integer division by zero");
        r.i = nesl_idiv(xi, yi);
        return r;
    case LOP_MOD:
        if (yi == 0) li_unguarded(I, "integer division by zero");
        r.i = nesl_rem(xi, yi);
        return r;
    case LOP_EQ: r.i = fl ? x.f == y.f : x.i == y.i; return r;
    case LOP_NE: r.i = fl ? x.f != y.f : x.i != y.i; return r;
    case LOP_LT: r.i = fl ? x.f < y.f : x.i < y.i; return r;
    case LOP_LE: r.i = fl ? x.f <= y.f : x.i <= y.i; return r;
    case LOP_GT: r.i = fl ? x.f > y.f : x.i > y.i; return r;
    case LOP_GE: r.i = fl ? x.f >= y.f : x.i >= y.i; return r;
    case LOP_AND: r.i = x.i && y.i; return r;
    case LOP_OR: r.i = x.i || y.i; return r;
    }
    return r;
}

/* int(x) of a float truncates like NESL's trunc (nesl_f2i: out-of-range
 * values wrap modulo 2^32, NaN and huge values give 0). */
LcuScalar li_unop(LcuInterp *I, LcuUnop op, LcuBase from, LcuScalar x)
{
    (void)I;
    LcuScalar r = { 0 };
    switch (op) {
    case LUOP_NEG: if (from == LB_FLOAT) r.f = -x.f; else r.i = nesl_ineg((int32_t)x.i); return r;
    case LUOP_NOT: r.i = !x.i; return r;
    case LUOP_TO_FLOAT: r.f = from == LB_FLOAT ? x.f : (double)x.i; return r;
    case LUOP_TO_INT:
        if (from != LB_FLOAT) return x;
        r.i = nesl_trunc(x.f);
        return r;
    }
    return r;
}

/* ---- scalar builtins: resolved once per call expression ---- */
static size_t bc_hash(const LcuExpr *e, int cap)
{
    return (size_t)(((uintptr_t)e >> 4) * 0x9E3779B97F4A7C15ull % (uint64_t)cap);
}

const LcuBuiltin *li_builtin(LcuInterp *I, const LcuExpr *e)
{
    if (I->cbc) {
        for (size_t h = bc_hash(e, I->cbc); I->bc[h].key; h = (h + 1) % (size_t)I->cbc)
            if (I->bc[h].key == e) return I->bc[h].b;
    }
    LcuBase bs[3] = { LB_UNIT, LB_UNIT, LB_UNIT };
    for (int i = 0; i < e->u.call.nargs && i < 3; i++) bs[i] = e->u.call.args[i]->type->base;
    const LcuBuiltin *b = lcu_builtin_find(e->u.call.name, e->u.call.nargs, bs);
    if (!b) li_internal(I, "unknown builtin '%s'", e->u.call.name);
    if (2 * (I->nbc + 1) > I->cbc) {   /* grow and rehash */
        int cap = I->cbc ? 2 * I->cbc : 64;
        BCache *nb = calloc((size_t)cap, sizeof *nb);
        if (!nb) li_fail(I, "out of memory");
        for (int i = 0; i < I->cbc; i++)
            if (I->bc[i].key) {
                size_t h = bc_hash(I->bc[i].key, cap);
                while (nb[h].key) h = (h + 1) % (size_t)cap;
                nb[h] = I->bc[i];
            }
        free(I->bc);
        I->bc = nb;
        I->cbc = cap;
    }
    size_t h = bc_hash(e, I->cbc);
    while (I->bc[h].key) h = (h + 1) % (size_t)I->cbc;
    I->bc[h].key = e;
    I->bc[h].b = b;
    I->nbc++;
    return b;
}

LcuScalar li_apply_builtin(LcuInterp *I, const LcuBuiltin *b, const LcuScalar *args)
{
    if (b->id == LBI_GUARD && args[0].i) {   /* as check: "SITE: RUNTIME ERROR: msg" */
        int64_t site = args[1].i;
        if (site >= 0 && site < I->prog->nsites) fprintf(I->err, "%s: ", I->prog->sites[site]);
        fprintf(I->err, "RUNTIME ERROR: %s\n", nesl_guard_msg((int)args[2].i));
        li_abort(I, LCU_FAIL_RUNTIME);
    }
    if (b->id == LBI_DIV_IN && (args[0].i < 0 || args[1].i <= 0))   /* the flattener's bug */
        li_internal(I, "div_in (%lld, %lld): the promise 0 <= a, 0 < b is broken", (long long)args[0].i, (long long)args[1].i);
    if (b->id == LBI_POS_IN && (args[0].i < 0 || args[0].i >= args[1].i))
        li_internal(I, "pos_in (%lld, %lld): the promise 0 <= r < l is broken", (long long)args[0].i, (long long)args[1].i);
    const char *err = NULL;
    LcuScalar r = lcu_builtin_apply(b, args, &err);
    if (err) li_unguarded(I, "%s: %s", b->name, err);
    return r;
}

LcuScalar li_index(LcuInterp *I, const LcuVal *v, Sym name, int64_t i)
{
    if (i < 0 || i >= v->len) li_unguarded(I, "index %lld out of range for '%s' of length %lld", (long long)i, name, (long long)v->len);
    return v->data[i];
}

/* The subscript e (vec[i] or vec.[i]) at i: an in-range subscript out of
 * range is the flattener's bug, not the program's error. */
LcuScalar li_index_at(LcuInterp *I, const LcuVal *v, const LcuExpr *e, int64_t i)
{
    if (e->u.index.inrange && (i < 0 || i >= v->len))
        li_internal(I, "in-range subscript %s.[%lld] out of range 0..%lld", e->u.index.vec, (long long)i, (long long)v->len - 1);
    return li_index(I, v, e->u.index.vec, i);
}

/* b's names bound to the n components v of its value (one name: all). */
static void push_bind(LcuInterp *I, const LcuBind *b, int n, const LcuScalar *v)
{
    if (b->nvars == 1) li_push(I, b->vars[0], n, v, NULL);
    else for (int i = 0; i < b->nvars; i++) li_push(I, b->vars[i], 1, v + i, NULL);
}

/* ---- GPU expressions: the result's flat components go to out ---- */
void li_eval_gpu(LcuInterp *I, const LcuExpr *e, LcuScalar *out)
{
    switch (e->kind) {
    case LE_INT: case LE_CHAR: out[0].i = e->u.i; return;
    case LE_FLOAT: out[0].f = e->u.f; return;
    case LE_BOOL: out[0].i = e->u.b; return;
    case LE_UNIT: out[0].i = 0; return;
    case LE_VAR: {
        const Slot *s = li_find(I, e->u.var);
        memcpy(out, I->sc + s->off, sizeof *out * (size_t)s->n);
        return;
    }
    case LE_TUPLE: {
        int k = 0;
        for (int i = 0; i < e->u.tuple.n; i++) {
            li_eval_gpu(I, e->u.tuple.elems[i], out + k);
            k += lcu_t_arity(e->u.tuple.elems[i]->type);
        }
        return;
    }
    case LE_LET: {
        const LcuBind *b = e->u.let.bind;
        int n = lcu_t_arity(b->rhs->type);
        LcuScalar tmp[n];
        li_eval_gpu(I, b->rhs, tmp);
        int mark = I->nslots;
        push_bind(I, b, n, tmp);
        li_eval_gpu(I, e->u.let.body, out);
        li_pop_to(I, mark);
        return;
    }
    case LE_LOOP: {   /* the body runs until it ends without recur */
        const LcuBind *b = e->u.let.bind;
        int n = lcu_t_arity(b->rhs->type);
        LcuScalar cur[n], next[n], *saved = I->recur_to;
        li_eval_gpu(I, b->rhs, cur);
        for (;;) {
            int mark = I->nslots;
            push_bind(I, b, n, cur);
            I->recur_to = next;
            I->recurred = false;
            li_eval_gpu(I, e->u.let.body, out);
            li_pop_to(I, mark);
            if (!I->recurred) break;
            memcpy(cur, next, sizeof cur);
        }
        I->recur_to = saved;
        I->recurred = false;
        return;
    }
    case LE_RECUR: {   /* a tail position: nothing runs between here and the iterate */
        LcuScalar *to = I->recur_to;
        int k = 0;
        for (int i = 0; i < e->u.tuple.n; i++) {
            li_eval_gpu(I, e->u.tuple.elems[i], to + k);
            k += lcu_t_arity(e->u.tuple.elems[i]->type);
        }
        I->recurred = true;
        return;
    }
    case LE_IF: {
        LcuScalar c;
        li_eval_gpu(I, e->u.if_.cond, &c);
        li_eval_gpu(I, c.i ? e->u.if_.then_e : e->u.if_.else_e, out);
        return;
    }
    case LE_BINOP: {
        LcuScalar x, y;
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR) {   /* short-circuit */
            li_eval_gpu(I, e->u.bin.l, &x);
            if ((e->u.bin.op == LOP_AND) != (x.i != 0)) { out[0].i = x.i != 0; return; }
            li_eval_gpu(I, e->u.bin.r, &y);
            out[0].i = y.i != 0;
            return;
        }
        li_eval_gpu(I, e->u.bin.l, &x);
        li_eval_gpu(I, e->u.bin.r, &y);
        out[0] = li_binop(I, e->u.bin.op, e->u.bin.l->type->base, x, y);
        return;
    }
    case LE_UNOP: {
        LcuScalar x;
        li_eval_gpu(I, e->u.un.e, &x);
        out[0] = li_unop(I, e->u.un.op, e->u.un.e->type->base, x);
        return;
    }
    case LE_INDEX: {
        const Slot *s = li_find(I, e->u.index.vec);
        LcuScalar i;
        li_eval_gpu(I, e->u.index.idx, &i);
        out[0] = li_index_at(I, s->ref, e, i.i);
        return;
    }
    case LE_LEN: out[0].i = li_find(I, e->u.len.vec)->ref->len; return;
    case LE_CALL: {
        const LcuBuiltin *b = li_builtin(I, e);
        LcuScalar a[3] = { { 0 }, { 0 }, { 0 } };
        for (int i = 0; i < b->nargs; i++) li_eval_gpu(I, e->u.call.args[i], a + i);
        out[0] = li_apply_builtin(I, b, a);
        return;
    }
    case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB:
        li_internal(I, "CPU-only expression in GPU code");
    }
}

/* Apply a thunk: it sees its `using` variables (from the kernel's slots) and
 * its parameters, nothing else; in an inline SOAC, a thunk without `using`
 * sees all of the SOAC's slots (the CPU variables it reads). */
void li_call_thunk(LcuInterp *I, const LcuThunk *t, const LcuScalar *args, LcuScalar *out)
{
    int mark = I->nslots, saved_base = I->base;
    if (I->flan && !t->nusing) {
        for (int i = 0; i < t->nparams; i++) li_push(I, t->params[i], 1, args + i, NULL);
        li_eval_gpu(I, t->body, out);
        li_pop_to(I, mark);
        return;
    }
    for (int i = 0; i < t->nusing; i++) {
        const Slot *s = li_find(I, t->using_[i]);   /* base is the kernel's here */
        Slot copy = *s;   /* li_push may move both stacks */
        LcuScalar v[copy.n ? copy.n : 1];
        if (copy.n) memcpy(v, I->sc + copy.off, sizeof *v * (size_t)copy.n);
        li_push(I, copy.name, copy.n, v, copy.ref);
    }
    for (int i = 0; i < t->nparams; i++) li_push(I, t->params[i], 1, args + i, NULL);
    I->base = mark;
    li_eval_gpu(I, t->body, out);
    I->base = saved_base;
    li_pop_to(I, mark);
}
