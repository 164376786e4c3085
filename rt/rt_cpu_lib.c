/* rt_cpu_lib.c — the library kernels (stable ranks) of the CPU runtime
 * (nesl_rt.h); printing is rt_print.c, shared with the CUDA runtime. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_rt.h"

/* ---- ranks: the interpreter's stable merge sort of positions by key ---- */
typedef struct Keys { NeslBase base; const void *data; } Keys;

/* numbers ascending, NaNs last (all equal) */
static int key_cmp(const Keys *k, int64_t x, int64_t y)
{
    if (k->base == NESL_FLOAT || k->base == NESL_F32) {
        double a, b;   /* a float converts to double exactly: the same order */
        if (k->base == NESL_FLOAT) a = ((const double *)k->data)[x], b = ((const double *)k->data)[y];
        else a = ((const float *)k->data)[x], b = ((const float *)k->data)[y];
        bool an = isnan(a), bn = isnan(b);
        if (an || bn) return an - bn;
        return (a > b) - (a < b);
    }
    int32_t a = ((const int32_t *)k->data)[x], b = ((const int32_t *)k->data)[y];
    return (a > b) - (a < b);
}

static void sort_idx(const Keys *k, bool down, int64_t *idx, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    sort_idx(k, down, idx, tmp, h);
    sort_idx(k, down, idx + h, tmp, n - h);
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n) {
        int c = key_cmp(k, idx[j], idx[i]);
        if (down ? c > 0 : c < 0) tmp[o++] = idx[j++];   /* the right one only if strictly first */
        else tmp[o++] = idx[i++];
    }
    while (i < h) tmp[o++] = idx[i++];
    while (j < n) tmp[o++] = idx[j++];
    memcpy(idx, tmp, sizeof *idx * (size_t)n);
}

NeslVec *nesl_rank(NeslRt *rt, NeslSd *sd, const NeslVec *v, bool down)
{
    if (sd && nesl_sd_total(rt, sd) != v->len)
        nesl_fail(rt, "seg_rank: the segment descriptor covers %lld elements but the vector has %lld",
                  (long long)nesl_sd_total(rt, sd), (long long)v->len);
    NeslVec *r = nesl_vec_new(rt, NESL_INT, v->len);
    int32_t *rd = r->data;
    size_t mark = nesl_mark(rt);
    int64_t *idx = nesl_tmp(rt, sizeof *idx * (size_t)(2 * v->len));
    Keys k = { v->base, v->data };
    int64_t nseg = sd ? sd->nsegs : 1, off = 0;
    for (int64_t g = 0; g < nseg; g++) {
        int64_t len = sd ? sd->lens[g] : v->len;
        for (int64_t i = 0; i < len; i++) idx[i] = off + i;
        sort_idx(&k, down, idx, idx + v->len, len);
        for (int64_t i = 0; i < len; i++) rd[idx[i]] = (int32_t)i;
        off += len;
    }
    nesl_release(rt, mark, 0);
    return r;
}
