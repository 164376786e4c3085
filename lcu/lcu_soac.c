/* lcu_soac.c — kernel execution: the twelve SOACs, run sequentially, in
 * kernels and inline (Flan form).
 * SEG_ forms: the pull thunk sees global (flat) indices 0..total-1; the
 * index thunk of SEG_PERMUTE gives a position within the element's segment. */
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

/* Growable result columns: one per component of τ. */
typedef struct Cols { int n; LcuBase *base; LcuScalar **d; int64_t len, cap; } Cols;

static void cols_init(LcuInterp *I, Cols *c, const LcuType *tau, int64_t cap)
{
    c->n = lcu_t_arity(tau);
    c->base = li_alloc(I, sizeof *c->base * (size_t)c->n);
    c->d = li_alloc(I, sizeof *c->d * (size_t)c->n);
    c->len = 0;
    c->cap = cap ? cap : 1;
    for (int k = 0; k < c->n; k++) {
        c->base[k] = lcu_t_component(tau, k)->base;
        c->d[k] = li_alloc(I, sizeof(LcuScalar) * (size_t)c->cap);
    }
}

static void cols_push(Cols *c, const LcuScalar *x)
{
    for (int k = 0; k < c->n; k++) c->d[k][c->len] = x[k];
    c->len++;
}

static void cols_out(LcuInterp *I, Cols *c, LcuVal **out)
{
    for (int k = 0; k < c->n; k++) {
        LcuVal *v = li_alloc(I, sizeof *v);
        v->kind = LV_VEC;
        v->base = c->base[k];
        v->len = c->len;
        v->data = c->d[k];
        out[k] = v;
    }
}

int64_t li_sd_total(const LcuVal *sd)
{
    int64_t t = 0;
    for (int64_t s = 0; s < sd->len; s++) t += sd->data[s].i;
    return t;
}

static const LcuThunk *th(const LcuSoac *s, int i) { return s->args[i]->u.thunk; }

/* Execute one SOAC; out gets one value per flat result component. */
static void exec_soac(LcuInterp *I, const LcuSoac *s, const LcuType *tau, LcuVal **out)
{
    int n = lcu_t_arity(tau);
    LcuScalar x[n], acc[2 * n], idx, ok;
    int nargs = s->nargs;
    int64_t size = 0;
    const LcuVal *sd = NULL;
    if (s->kind != LS_ONCE) {
        const LcuExpr *last = s->args[nargs - 1]->u.expr;
        if (s->kind >= LS_SEG_PERMUTE) {
            sd = li_find(I, last->u.var)->ref;
            size = li_sd_total(sd);
        } else {
            LcuScalar v;
            li_eval_gpu(I, last, &v);
            if (v.i < 0) li_unguarded(I, "%s over a negative size %lld", lcu_soac_name(s->kind), (long long)v.i);
            size = v.i;
        }
    }
    I->stats->soac_launches[s->kind]++;
    I->stats->soac_elements[s->kind] += s->kind == LS_ONCE ? 1 : size;
    Cols a, b;
    switch (s->kind) {
    case LS_ONCE: {
        LcuScalar unit = { 0 };
        li_call_thunk(I, th(s, 0), &unit, x);
        for (int k = 0; k < n; k++) {
            LcuVal *v = li_alloc(I, sizeof *v);
            v->kind = LV_SCALAR;
            v->base = lcu_t_component(tau, k)->base;
            v->s = x[k];
            out[k] = v;
        }
        return;
    }
    case LS_MAP:
        cols_init(I, &a, tau, size);
        for (int64_t i = 0; i < size; i++) {
            LcuScalar ii = { .i = i };
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
            LcuScalar ii = { .i = i };
            if (sd) while (i >= off + sd->data[seg].i) off += sd->data[seg++].i;
            int64_t len = sd ? sd->data[seg].i : size;
            li_call_thunk(I, th(s, 0), &ii, x);
            li_call_thunk(I, th(s, 1), &ii, &idx);
            if (idx.i < 0 || idx.i >= len)
                li_unguarded(I, "%s target index %lld out of range 0..%lld", lcu_soac_name(s->kind), (long long)idx.i, (long long)len - 1);
            for (int k = 0; k < n; k++) a.d[k][(sd ? off : 0) + idx.i] = x[k];
        }
        cols_out(I, &a, out);
        return;
    }
    case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: {
        LcuScalar v[n];
        li_eval_gpu(I, s->args[1]->u.expr, v);
        bool scan = s->kind == LS_SCAN || s->kind == LS_SEG_SCAN;
        cols_init(I, &a, tau, scan ? size : sd ? sd->len : 1);
        int64_t nseg = sd ? sd->len : 1, i = 0;
        for (int64_t g = 0; g < nseg; g++) {
            int64_t end = i + (sd ? sd->data[g].i : size);
            memcpy(acc, v, sizeof v);
            for (; i < end; i++) {
                LcuScalar ii = { .i = i };
                li_call_thunk(I, th(s, 0), &ii, acc + n);
                if (scan) cols_push(&a, acc);
                li_call_thunk(I, th(s, 2), acc, x);
                memcpy(acc, x, sizeof x);
            }
            if (!scan) cols_push(&a, acc);
        }
        if (s->kind == LS_REDUCE) {
            for (int k = 0; k < n; k++) {
                LcuVal *r = li_alloc(I, sizeof *r);
                r->kind = LV_SCALAR;
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
        LcuVal *sa = sd ? lcu_val_sd(I, nseg) : NULL, *sb = sd ? lcu_val_sd(I, nseg) : NULL;
        for (int64_t g = 0; g < nseg; g++) {
            int64_t end = i + (sd ? sd->data[g].i : size), la = a.len, lb = b.len;
            for (; i < end; i++) {
                LcuScalar ii = { .i = i };
                li_call_thunk(I, th(s, 0), &ii, x);
                li_call_thunk(I, th(s, 1), x, &ok);
                if (ok.i) cols_push(&a, x);
                else if (part) cols_push(&b, x);
            }
            if (sd) { sa->data[g].i = a.len - la; sb->data[g].i = b.len - lb; }
        }
        if (s->kept) {   /* the flattener's count (lcu.h): a wrong one is its bug */
            LcuScalar v;
            li_eval_gpu(I, s->kept, &v);
            if (v.i != a.len)
                li_internal(I, "%s kept %lld elements, not the %lld given", lcu_soac_name(s->kind), (long long)a.len, (long long)v.i);
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

/* Push a CPU or kernel variable's value as a slot. */
static void push_val(LcuInterp *I, Sym name, const LcuVal *v)
{
    switch (v->kind) {
    case LV_SCALAR: li_push(I, name, 1, &v->s, NULL); return;
    case LV_TUPLE: {   /* a tuple of scalars (the checker allows no other here) */
        LcuScalar tmp[v->n ? v->n : 1];
        for (int i = 0; i < v->n; i++) tmp[i] = v->elems[i]->s;
        li_push(I, name, v->n, tmp, NULL);
        return;
    }
    case LV_VEC: case LV_SD: li_push(I, name, 0, NULL, v); return;
    }
}

static const LcuType *pull_type(const LcuSoac *s) { return s->args[0]->u.thunk->body->type; }

static long long val_bytes(const LcuVal *v)
{
    static const int size[] = { [LB_BOOL] = 1, [LB_INT] = 4, [LB_FLOAT] = 8, [LB_CHAR] = 1, [LB_UNIT] = 0 };
    switch (v->kind) {
    case LV_SCALAR: return size[v->base];
    case LV_TUPLE: { long long s = 0; for (int i = 0; i < v->n; i++) s += val_bytes(v->elems[i]); return s; }
    case LV_VEC: return (long long)v->len * size[v->base];
    case LV_SD: return (long long)v->len * 4;
    }
    return 0;
}

static struct LcuKernelStats *kernel_stats(LcuStats *s, const char *name)
{
    for (int i = 0; i < s->nkernels; i++)
        if (s->kernels[i].name == name) return &s->kernels[i];
    if (s->nkernels == s->kcap) {
        s->kcap = s->kcap ? 2 * s->kcap : 64;
        s->kernels = realloc(s->kernels, sizeof *s->kernels * (size_t)s->kcap);
        if (!s->kernels) ICE("out of memory");
    }
    s->kernels[s->nkernels] = (struct LcuKernelStats){ name, 0, 0, 0 };
    return &s->kernels[s->nkernels++];
}

LcuVal *li_run_kernel(LcuInterp *I, const LcuKernel *k, LcuVal **args)
{
    I->stats->kernel_launches++;
    struct LcuKernelStats *ks = NULL;
    if (I->stats->per_kernel) {
        ks = kernel_stats(I->stats, k->name);
        ks->launches++;
        for (int i = 0; i < k->nparams; i++) ks->bytes_read += val_bytes(args[i]);
    }
    int mark = I->nslots, saved_base = I->base;
    I->base = mark;
    for (int i = 0; i < k->nparams; i++) push_val(I, k->params[i].name, args[i]);
    li_push_arena(I);   /* the kernel's temporaries */
    for (int i = 0; i < k->nbinds; i++) {
        const LcuKBind *b = k->binds[i];
        LcuVal **res = li_alloc(I, sizeof *res * (size_t)b->nvars);
        exec_soac(I, b->soac, pull_type(b->soac), res);
        for (int j = 0; j < b->nvars; j++) push_val(I, b->vars[j], res[j]);
    }
    LcuVal *out[k->nrets];
    for (int i = 0; i < k->nrets; i++) {
        const Slot *s = li_find(I, k->rets[i]);
        if (s->ref) out[i] = (LcuVal *)s->ref;
        else out[i] = lcu_val_scalar(I, lcu_t_component(k->result, i)->base, I->sc[s->off]);
    }
    LcuVal *r = lcu_val_tuple(I, k->nrets, out);
    if (ks) ks->bytes_written += val_bytes(r);
    I->base = saved_base;
    li_pop_to(I, mark);
    return li_pop_arena(I, r);
}

/* ---- inline SOACs (Flan form) ---- */
typedef struct Bound { Sym x; const struct Bound *next; } Bound;
typedef struct Names { Sym *v; int n, cap; } Names;

static void fv_add(LcuInterp *I, Names *ns, const Bound *b, Sym x)
{
    for (; b; b = b->next)
        if (b->x == x) return;
    for (int i = 0; i < ns->n; i++)
        if (ns->v[i] == x) return;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 8;
        Sym *v = li_alloc(I, sizeof *v * (size_t)ns->cap);
        if (ns->n) memcpy(v, ns->v, sizeof *v * (size_t)ns->n);
        ns->v = v;
    }
    ns->v[ns->n++] = x;
}

static void fv_soac(LcuInterp *I, Names *ns, const Bound *b, const LcuSoac *s);

static void fv_expr(LcuInterp *I, Names *ns, const Bound *b, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING: return;
    case LE_VAR: fv_add(I, ns, b, e->u.var); return;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) fv_expr(I, ns, b, e->u.tuple.elems[i]);
        return;
    case LE_LET: case LE_LOOP: {
        const LcuBind *bd = e->u.let.bind;
        fv_expr(I, ns, b, bd->rhs);
        Bound nb[bd->nvars];
        for (int i = 0; i < bd->nvars; i++) { nb[i].x = bd->vars[i]; nb[i].next = i ? &nb[i - 1] : b; }
        fv_expr(I, ns, &nb[bd->nvars - 1], e->u.let.body);
        return;
    }
    case LE_IF:
        fv_expr(I, ns, b, e->u.if_.cond);
        fv_expr(I, ns, b, e->u.if_.then_e);
        fv_expr(I, ns, b, e->u.if_.else_e);
        return;
    case LE_BINOP: fv_expr(I, ns, b, e->u.bin.l); fv_expr(I, ns, b, e->u.bin.r); return;
    case LE_UNOP: fv_expr(I, ns, b, e->u.un.e); return;
    case LE_INDEX: fv_add(I, ns, b, e->u.index.vec); fv_expr(I, ns, b, e->u.index.idx); return;
    case LE_LEN: fv_add(I, ns, b, e->u.len.vec); return;
    case LE_RUN: case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) fv_expr(I, ns, b, e->u.call.args[i]);
        return;
    case LE_LIB:
        for (int i = 0; i < e->u.lib.nargs; i++) fv_expr(I, ns, b, e->u.lib.args[i]);
        return;
    case LE_SOAC: fv_soac(I, ns, b, e->u.soac); return;
    case LE_BLOCK:   /* not in GPU code; for completeness */
        for (int i = 0; i < e->u.block.nbinds; i++) {
            const LcuBind *bd = e->u.block.binds[i];
            fv_expr(I, ns, b, bd->rhs);
            for (int j = 0; j < bd->nvars; j++) {
                Bound *nb = li_alloc(I, sizeof *nb);
                nb->x = bd->vars[j];
                nb->next = b;
                b = nb;
            }
        }
        fv_expr(I, ns, b, e->u.block.result);
        return;
    }
}

static void fv_soac(LcuInterp *I, Names *ns, const Bound *b, const LcuSoac *s)
{
    for (int i = 0; i < s->nargs; i++) {
        const LcuArg *g = s->args[i];
        switch (g->kind) {
        case LA_EXPR: fv_expr(I, ns, b, g->u.expr); break;
        case LA_THUNK: {
            const LcuThunk *t = g->u.thunk;
            if (t->nusing) {
                for (int j = 0; j < t->nusing; j++) fv_add(I, ns, b, t->using_[j]);
                break;
            }
            Bound nb[t->nparams ? t->nparams : 1];
            const Bound *tb = b;
            for (int j = 0; j < t->nparams; j++) { nb[j].x = t->params[j]; nb[j].next = tb; tb = &nb[j]; }
            fv_expr(I, ns, tb, t->body);
            break;
        }
        }
    }
    if (s->kept) fv_expr(I, ns, b, s->kept);
}

Sym *li_soac_free_vars(LcuInterp *I, const LcuSoac *s, int *n)
{
    Names ns = { 0 };
    fv_soac(I, &ns, NULL, s);
    *n = ns.n;
    return ns.v;
}

LcuVal *li_run_soac(LcuInterp *I, const LcuSoac *s, const LcuType *result, int nfree, Sym *names, LcuVal **vals)
{
    I->stats->kernel_launches++;   /* as `run` of a one-SOAC kernel */
    int mark = I->nslots, saved_base = I->base;
    bool saved_flan = I->flan;
    I->base = mark;
    for (int i = 0; i < nfree; i++) push_val(I, names[i], vals[i]);
    li_push_arena(I);
    I->flan = true;
    int n = lcu_t_arity(result);
    LcuVal *res[n];
    exec_soac(I, s, pull_type(s), res);
    LcuVal *r = lcu_val_tuple(I, n, res);
    I->flan = saved_flan;
    I->base = saved_base;
    li_pop_to(I, mark);
    return li_pop_arena(I, r);
}
