/* lcu_lib.c — library calls (LE_LIB): the interpreter's own library
 * kernels (stable ranks, clock) and the hook for everything else. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lcu_interp.h"

/* Key order for ranks: numbers ascending, NaNs last (all equal). */
static int key_cmp(LcuBase b, LcuScalar x, LcuScalar y)
{
    if (b == LB_FLOAT) {
        bool xn = isnan(x.f), yn = isnan(y.f);
        if (xn || yn) return xn - yn;
        return (x.f > y.f) - (x.f < y.f);
    }
    return (x.i > y.i) - (x.i < y.i);
}

/* Stable merge sort of the positions idx[0..n) by key (descending if down);
 * tmp has room for n. */
static void sort_idx(LcuBase b, const LcuScalar *key, bool down, int64_t *idx, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    sort_idx(b, key, down, idx, tmp, h);
    sort_idx(b, key, down, idx + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        int c = key_cmp(b, key[idx[j]], key[idx[i]]);
        /* take the right one only if it strictly precedes: stability */
        if (down ? c > 0 : c < 0) tmp[k++] = idx[j++];
        else tmp[k++] = idx[i++];
    }
    while (i < h) tmp[k++] = idx[i++];
    while (j < n) tmp[k++] = idx[j++];
    memcpy(idx, tmp, sizeof *idx * (size_t)n);
}

/* rank[i] = position of v[i] in the stable sort of each segment (one
 * segment of all of v when sd is NULL), relative to the segment start. */
static LcuVal *rank(LcuInterp *I, const LcuVal *sd, const LcuVal *v, bool down)
{
    if (sd && li_sd_total(sd) != v->len)
        li_unguarded(I, "seg_rank: the segment descriptor covers %lld elements but the vector has %lld",
                (long long)li_sd_total(sd), (long long)v->len);
    LcuVal *r = lcu_val_vec(I, LB_INT, v->len);
    int64_t *idx = malloc(sizeof *idx * (size_t)(v->len ? 2 * v->len : 1));
    if (!idx) li_fail(I, "out of memory");
    int64_t nseg = sd ? sd->len : 1, off = 0;
    for (int64_t g = 0; g < nseg; g++) {
        int64_t len = sd ? sd->data[g].i : v->len;
        for (int64_t i = 0; i < len; i++) idx[i] = off + i;
        sort_idx(v->base, v->data, down, idx, idx + v->len, len);
        for (int64_t i = 0; i < len; i++) r->data[idx[i]].i = i;
        off += len;
    }
    free(idx);
    return r;
}

LcuVal *li_lib_call(LcuInterp *I, const LcuExpr *e, int nargs, LcuVal **args)
{
    I->stats->lib_calls++;
    for (int i = 0; i < nargs; i++)
        if (args[i]->kind == LV_VEC) I->stats->lib_elements += args[i]->len;
    const char *name = e->u.lib.name;
    switch (lcu_lib_kind(name, e->u.lib.tag)) {
    case LLIB_RANK_UP: return rank(I, NULL, args[0], false);
    case LLIB_RANK_DOWN: return rank(I, NULL, args[0], true);
    case LLIB_SEG_RANK_UP: return rank(I, args[0], args[1], false);
    case LLIB_SEG_RANK_DOWN: return rank(I, args[0], args[1], true);
    case LLIB_CLOCK: {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        LcuScalar s = { .f = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 };
        return lcu_val_scalar(I, LB_FLOAT, s);
    }
    case LLIB_NONE: break;
    }
    if (!I->hook) li_fail(I, "library function %s is not available", name);
    LcuVal *r = I->hook(I->hook_ctx, I, name, e->u.lib.tag, nargs, args, e->u.lib.result);
    if (!r) li_abort(I, LCU_FAIL_RUNTIME);   /* the hook reported the error */
    if (!li_val_has_type(r, e->u.lib.result)) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        if (f) { lcu_print_type(f, e->u.lib.result); fclose(f); }
        fprintf(I->err, "nesslc: internal error: λcu interpreter: library function %s returned a value "
                "that is not of its declared type %s\n", name, buf ? buf : "?");
        free(buf);
        li_abort(I, LCU_FAIL_INTERNAL);
    }
    return r;
}
