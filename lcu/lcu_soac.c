/* lcu_soac.c — kernel execution: the twelve SOACs, run sequentially.
 * SEG_ forms: the pull thunk sees global (flat) indices 0..total-1; the
 * index thunk of SEG_PERMUTE gives a position within the element's segment. */
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

Val *li_vec(LI *I, LcuBase b, int64_t len)
{
    Val *v = arena_alloc(I->a, sizeof *v);
    v->kind = V_VEC;
    v->base = b;
    v->len = len;
    v->data = arena_alloc(I->a, sizeof *v->data * (size_t)(len ? len : 1));
    return v;
}

static Val *new_sd(LI *I, int64_t nseg)
{
    Val *v = li_vec(I, LB_INT, nseg);
    v->kind = V_SD;
    return v;
}

/* Growable result columns: one per component of τ. */
typedef struct Cols { int n; LcuBase *base; Scalar **d; int64_t len, cap; } Cols;

static void cols_init(LI *I, Cols *c, const LcuType *tau, int64_t cap)
{
    c->n = lcu_t_arity(tau);
    c->base = arena_alloc(I->a, sizeof *c->base * (size_t)c->n);
    c->d = arena_alloc(I->a, sizeof *c->d * (size_t)c->n);
    c->len = 0;
    c->cap = cap ? cap : 1;
    for (int k = 0; k < c->n; k++) {
        c->base[k] = lcu_t_component(tau, k)->base;
        c->d[k] = arena_alloc(I->a, sizeof(Scalar) * (size_t)c->cap);
    }
}

static void cols_push(Cols *c, const Scalar *x)
{
    for (int k = 0; k < c->n; k++) c->d[k][c->len] = x[k];
    c->len++;
}

static void cols_out(LI *I, Cols *c, Val **out)
{
    for (int k = 0; k < c->n; k++) {
        Val *v = li_vec(I, c->base[k], 0);
        v->len = c->len;
        v->data = c->d[k];
        out[k] = v;
    }
}

static int64_t sd_total(const Val *sd)
{
    int64_t t = 0;
    for (int64_t s = 0; s < sd->len; s++) t += sd->data[s].i;
    return t;
}

static const LcuThunk *th(const LcuSoac *s, int i) { return s->args[i]->u.thunk; }

/* Execute one SOAC; out gets one value per flat result component. */
static void exec_soac(LI *I, const LcuSoac *s, const LcuType *tau, Val **out)
{
    int n = lcu_t_arity(tau);
    Scalar x[n], acc[2 * n], idx, ok;
    int nargs = s->nargs;
    int64_t size = 0;
    const Val *sd = NULL;
    if (s->kind != LS_ONCE) {
        const LcuExpr *last = s->args[nargs - 1]->u.expr;
        if (s->kind >= LS_SEG_PERMUTE) {
            sd = li_find(I, last->u.var)->ref;
            size = sd_total(sd);
        } else {
            Scalar v;
            li_eval_gpu(I, last, &v);
            if (v.i < 0) li_fail(I, "%s over a negative size %lld", lcu_soac_name(s->kind), (long long)v.i);
            size = v.i;
        }
    }
    I->stats->soac_launches[s->kind]++;
    I->stats->soac_elements[s->kind] += s->kind == LS_ONCE ? 1 : size;
    Cols a, b;
    switch (s->kind) {
    case LS_ONCE: {
        Scalar unit = { 0 };
        li_call_thunk(I, th(s, 0), &unit, x);
        for (int k = 0; k < n; k++) {
            Val *v = arena_alloc(I->a, sizeof *v);
            v->kind = V_SCALAR;
            v->base = lcu_t_component(tau, k)->base;
            v->s = x[k];
            out[k] = v;
        }
        return;
    }
    case LS_MAP:
        cols_init(I, &a, tau, size);
        for (int64_t i = 0; i < size; i++) {
            Scalar ii = { .i = i };
            li_call_thunk(I, th(s, 0), &ii, x);
            cols_push(&a, x);
        }
        cols_out(I, &a, out);
        return;
    case LS_PERMUTE: case LS_SEG_PERMUTE: {
        cols_init(I, &a, tau, size);
        a.len = size;
        int64_t seg = 0, off = 0;
        for (int64_t i = 0; i < size; i++) {
            Scalar ii = { .i = i };
            if (sd) while (i >= off + sd->data[seg].i) off += sd->data[seg++].i;
            int64_t len = sd ? sd->data[seg].i : size;
            li_call_thunk(I, th(s, 0), &ii, x);
            li_call_thunk(I, th(s, 1), &ii, &idx);
            if (idx.i < 0 || idx.i >= len)
                li_fail(I, "%s target index %lld out of range 0..%lld", lcu_soac_name(s->kind), (long long)idx.i, (long long)len - 1);
            for (int k = 0; k < n; k++) a.d[k][(sd ? off : 0) + idx.i] = x[k];
        }
        cols_out(I, &a, out);
        return;
    }
    case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: {
        Scalar v[n];
        li_eval_gpu(I, s->args[1]->u.expr, v);
        bool scan = s->kind == LS_SCAN || s->kind == LS_SEG_SCAN;
        cols_init(I, &a, tau, scan ? size : sd ? sd->len : 1);
        int64_t nseg = sd ? sd->len : 1, i = 0;
        for (int64_t g = 0; g < nseg; g++) {
            int64_t end = i + (sd ? sd->data[g].i : size);
            memcpy(acc, v, sizeof v);
            for (; i < end; i++) {
                Scalar ii = { .i = i };
                li_call_thunk(I, th(s, 0), &ii, acc + n);
                if (scan) cols_push(&a, acc);
                li_call_thunk(I, th(s, 2), acc, x);
                memcpy(acc, x, sizeof x);
            }
            if (!scan) cols_push(&a, acc);
        }
        if (s->kind == LS_REDUCE) {
            for (int k = 0; k < n; k++) {
                Val *r = arena_alloc(I->a, sizeof *r);
                r->kind = V_SCALAR;
                r->base = a.base[k];
                r->s = acc[k];
                out[k] = r;
            }
            return;
        }
        cols_out(I, &a, out);
        return;
    }
    case LS_FILTER: case LS_PARTITION: case LS_SEG_FILTER: case LS_SEG_PARTITION: {
        bool part = s->kind == LS_PARTITION || s->kind == LS_SEG_PARTITION;
        cols_init(I, &a, tau, size);
        cols_init(I, &b, tau, size);
        int64_t nseg = sd ? sd->len : 1, i = 0;
        Val *sa = sd ? new_sd(I, nseg) : NULL, *sb = sd ? new_sd(I, nseg) : NULL;
        for (int64_t g = 0; g < nseg; g++) {
            int64_t end = i + (sd ? sd->data[g].i : size), la = a.len, lb = b.len;
            for (; i < end; i++) {
                Scalar ii = { .i = i };
                li_call_thunk(I, th(s, 0), &ii, x);
                li_call_thunk(I, th(s, 1), x, &ok);
                if (ok.i) cols_push(&a, x);
                else if (part) cols_push(&b, x);
            }
            if (sd) { sa->data[g].i = a.len - la; sb->data[g].i = b.len - lb; }
        }
        int k = 0;
        cols_out(I, &a, out + k);
        k += n;
        if (sd) out[k++] = sa;
        if (part) {
            cols_out(I, &b, out + k);
            k += n;
            if (sd) out[k++] = sb;
        }
        return;
    }
    }
}

Val **li_run_kernel(LI *I, const LcuKernel *k, Val **args)
{
    I->stats->kernel_launches++;
    int mark = I->nslots, saved_base = I->base;
    I->base = mark;
    for (int i = 0; i < k->nparams; i++) {
        const Val *v = args[i];
        if (v->kind == V_SCALAR) li_push(I, k->params[i].name, 1, &v->s, NULL);
        else li_push(I, k->params[i].name, 0, NULL, v);
    }
    for (int i = 0; i < k->nbinds; i++) {
        const LcuKBind *b = k->binds[i];
        const LcuThunk *pull = b->soac->args[0]->u.thunk;
        const LcuType *tau = pull->body->type;
        Val **res = arena_alloc(I->a, sizeof *res * (size_t)b->nvars);
        exec_soac(I, b->soac, tau, res);
        for (int j = 0; j < b->nvars; j++) {
            if (res[j]->kind == V_SCALAR) li_push(I, b->vars[j], 1, &res[j]->s, NULL);
            else li_push(I, b->vars[j], 0, NULL, res[j]);
        }
    }
    Val **out = arena_alloc(I->a, sizeof *out * (size_t)k->nrets);
    for (int i = 0; i < k->nrets; i++) {
        const Slot *s = li_find(I, k->rets[i]);
        if (s->ref) out[i] = (Val *)s->ref;
        else {
            Val *v = arena_alloc(I->a, sizeof *v);
            v->kind = V_SCALAR;
            v->base = lcu_t_component(k->result, i)->base;
            v->s = I->sc[s->off];
            out[i] = v;
        }
    }
    I->base = saved_base;
    I->nslots = mark;
    I->nsc = mark ? I->slots[mark - 1].off + I->slots[mark - 1].n : 0;
    return out;
}
