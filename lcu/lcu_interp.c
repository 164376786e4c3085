/* lcu_interp.c — reference interpreter for checked λcu programs.
 *
 * CPU values are Val trees in an arena.  Inside a kernel, every variable is a
 * slot on one stack: scalars live on a Scalar stack, vectors are referenced;
 * GPU expressions write their (flat) result into caller-provided Scalars, so
 * evaluating a thunk per element allocates nothing.  Runtime errors unwind
 * with longjmp to lcu_interp (all memory is in the arena or the stacks). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

_Noreturn void li_fail(LI *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(I->err, "RUNTIME ERROR: ");
    vfprintf(I->err, fmt, ap);
    fputc('\n', I->err);
    va_end(ap);
    longjmp(I->jb, 1);
}

/* ---- slot stack ---- */
void li_push(LI *I, Sym name, int n, const Scalar *s, const Val *ref)
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

static void pop_to(LI *I, int nslots)
{
    I->nslots = nslots;
    I->nsc = nslots ? I->slots[nslots - 1].off + I->slots[nslots - 1].n : 0;
}

const Slot *li_find(LI *I, Sym x)
{
    for (int i = I->nslots - 1; i >= I->base; i--)
        if (I->slots[i].name == x) return &I->slots[i];
    li_fail(I, "internal: unbound '%s' in GPU code", x);
}

/* ---- scalar operators (shared by the CPU and GPU levels) ---- */
Scalar li_binop(LI *I, LcuBinop op, LcuBase b, Scalar x, Scalar y)
{
    Scalar r = { 0 };
    bool fl = b == LB_FLOAT;
    switch (op) {
    case LOP_ADD: if (fl) r.f = x.f + y.f; else r.i = (int64_t)((uint64_t)x.i + (uint64_t)y.i); return r;
    case LOP_SUB: if (fl) r.f = x.f - y.f; else r.i = (int64_t)((uint64_t)x.i - (uint64_t)y.i); return r;
    case LOP_MUL: if (fl) r.f = x.f * y.f; else r.i = (int64_t)((uint64_t)x.i * (uint64_t)y.i); return r;
    case LOP_DIV:
        if (fl) { r.f = x.f / y.f; return r; }
        if (y.i == 0) li_fail(I, "integer division by zero");
        if (y.i == -1) { r.i = (int64_t)(0 - (uint64_t)x.i); return r; }
        r.i = x.i / y.i;
        return r;
    case LOP_MOD:
        if (y.i == 0) li_fail(I, "integer division by zero");
        r.i = y.i == -1 ? 0 : x.i % y.i;
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

Scalar li_unop(LI *I, LcuUnop op, LcuBase from, Scalar x)
{
    Scalar r = { 0 };
    switch (op) {
    case LUOP_NEG: if (from == LB_FLOAT) r.f = -x.f; else r.i = (int64_t)(0 - (uint64_t)x.i); return r;
    case LUOP_NOT: r.i = !x.i; return r;
    case LUOP_TO_FLOAT: r.f = from == LB_FLOAT ? x.f : (double)x.i; return r;
    case LUOP_TO_INT:
        if (from != LB_FLOAT) return x;
        if (!(x.f > -9.2e18 && x.f < 9.2e18)) li_fail(I, "int(%g) is out of range", x.f);
        r.i = (int64_t)x.f;
        return r;
    }
    return r;
}

Scalar li_index(LI *I, const Val *v, Sym name, int64_t i)
{
    if (i < 0 || i >= v->len) li_fail(I, "index %lld out of range for '%s' of length %lld", (long long)i, name, (long long)v->len);
    return v->data[i];
}

/* ---- GPU expressions: the result's flat components go to out ---- */
void li_eval_gpu(LI *I, const LcuExpr *e, Scalar *out)
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
        Scalar tmp[n];
        li_eval_gpu(I, b->rhs, tmp);
        int mark = I->nslots;
        if (b->nvars == 1) li_push(I, b->vars[0], n, tmp, NULL);
        else for (int i = 0; i < b->nvars; i++) li_push(I, b->vars[i], 1, tmp + i, NULL);
        li_eval_gpu(I, e->u.let.body, out);
        pop_to(I, mark);
        return;
    }
    case LE_IF: {
        Scalar c;
        li_eval_gpu(I, e->u.if_.cond, &c);
        li_eval_gpu(I, c.i ? e->u.if_.then_e : e->u.if_.else_e, out);
        return;
    }
    case LE_BINOP: {
        Scalar x, y;
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
        Scalar x;
        li_eval_gpu(I, e->u.un.e, &x);
        out[0] = li_unop(I, e->u.un.op, e->u.un.e->type->base, x);
        return;
    }
    case LE_INDEX: {
        const Slot *s = li_find(I, e->u.index.vec);
        Scalar i;
        li_eval_gpu(I, e->u.index.idx, &i);
        out[0] = li_index(I, s->ref, e->u.index.vec, i.i);
        return;
    }
    case LE_LEN: out[0].i = li_find(I, e->u.len.vec)->ref->len; return;
    case LE_VECLIT: case LE_RUN: case LE_CALL: case LE_BLOCK:
        li_fail(I, "internal: CPU-only expression in GPU code");
    }
}

/* Apply a thunk: it sees its `using` variables (from the kernel's slots) and
 * its parameters, nothing else. */
void li_call_thunk(LI *I, const LcuThunk *t, const Scalar *args, Scalar *out)
{
    int mark = I->nslots, saved_base = I->base;
    for (int i = 0; i < t->nusing; i++) {
        const Slot *s = li_find(I, t->using_[i]);   /* base is the kernel's here */
        Slot copy = *s;   /* li_push may move both stacks */
        Scalar v[copy.n ? copy.n : 1];
        if (copy.n) memcpy(v, I->sc + copy.off, sizeof *v * (size_t)copy.n);
        li_push(I, copy.name, copy.n, v, copy.ref);
    }
    for (int i = 0; i < t->nparams; i++) li_push(I, t->params[i], 1, args + i, NULL);
    I->base = mark;
    li_eval_gpu(I, t->body, out);
    I->base = saved_base;
    pop_to(I, mark);
}
