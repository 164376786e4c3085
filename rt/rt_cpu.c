/* rt_cpu.c — the CPU implementation of nesl_rt.h: objects in a size-class
 * block cache, segment descriptors, host access.  Frames, errors,
 * statistics and options are rt_core.c's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rt_core.h"

#define NCLASSES (4 * 48)            /* quarter steps between powers of two */
#define MIN_EXP 6                     /* 64-byte blocks at least */
#define CACHE_LIMIT ((size_t)1 << 30) /* bytes kept in the free lists at most */
#define HDR 64                        /* object header room before the data */

typedef struct Block { struct Block *next; } Block;

struct NeslRt {
    NeslCore core;
    Block *free_list[NCLASSES];
    size_t cached;           /* bytes in the free lists */
};

NeslCore *nesl_core(NeslRt *rt) { return &rt->core; }
void nesl_tgt_reset(NeslRt *rt) { (void)rt; }
void nesl_tgt_flush_errors(NeslRt *rt) { (void)rt; }

/* ---- blocks: size classes 2^e, 1.25 * 2^e, 1.5 * 2^e, 1.75 * 2^e (at
 * most 25% unused), cached when freed ---- */
static size_t class_size(int c)
{
    int e = c / 4, q = c % 4;
    return ((size_t)1 << e) + (size_t)q * ((size_t)1 << (e - 2));
}

static int size_class(size_t n)
{
    if (n <= (size_t)1 << MIN_EXP) return 4 * MIN_EXP;
    int e = MIN_EXP;
    while (e < 62 && ((size_t)1 << (e + 1)) < n) e++;   /* 2^e < n <= 2^(e+1) */
    for (int q = 1; q < 4; q++)
        if (class_size(4 * e + q) >= n) return 4 * e + q;
    return 4 * (e + 1);
}

/* A block of at least n bytes; its class is stored 16 bytes before it. */
static void *blk_get(NeslRt *rt, size_t n)
{
    int c = size_class(n + 16);
    if (c >= NCLASSES) nesl_fail(rt, "out of memory (a block of %zu bytes)", n);
    Block *b = rt->free_list[c];
    char *p;
    if (b) {
        rt->free_list[c] = b->next;
        rt->cached -= class_size(c);
        p = (char *)b;
    } else {
        p = malloc(class_size(c));
        if (!p) {   /* flush the cache and retry once */
            for (int k = 0; k < NCLASSES; k++)
                while (rt->free_list[k]) {
                    Block *f = rt->free_list[k];
                    rt->free_list[k] = f->next;
                    free(f);
                }
            rt->cached = 0;
            p = malloc(class_size(c));
            if (!p) nesl_fail(rt, "out of memory (a block of %zu bytes)", n);
        }
    }
    *(int *)p = c;
    return p + 16;
}

static void blk_put(NeslRt *rt, void *q)
{
    if (!q) return;
    char *p = (char *)q - 16;
    int c = *(int *)p;
    size_t sz = class_size(c);
    if (rt->cached + sz > CACHE_LIMIT) { free(p); return; }
    Block *b = (Block *)p;
    b->next = rt->free_list[c];
    rt->free_list[c] = b;
    rt->cached += sz;
}

/* ---- frames ---- */
static void *new_obj(NeslRt *rt, NeslObjKind k, size_t bytes)
{
    NeslObj *o = blk_get(rt, HDR + bytes);
    o->kind = k;
    nesl_core_push(rt, o);
    return o;
}

void nesl_tgt_free_obj(NeslRt *rt, NeslObj *o)
{
    if (o->kind == NESL_OBJ_SD) {
        NeslSd *s = (NeslSd *)o;
        blk_put(rt, s->offs);
        blk_put(rt, s->segids);
    }
    blk_put(rt, o);
}

/* ---- objects ---- */
NeslVec *nesl_vec_new(NeslRt *rt, NeslBase b, int64_t len)
{
    if (len < 0 || (uint64_t)len > ((uint64_t)1 << 44)) nesl_fail(rt, "out of memory (a vector of %lld elements)", (long long)len);
    NeslVec *v = new_obj(rt, NESL_OBJ_VEC, nesl_base_size(b) * (size_t)len);
    v->base = b;
    v->len = len;
    v->data = (char *)v + HDR;
    return v;
}

NeslVec *nesl_vec_zero(NeslRt *rt, NeslBase b, int64_t len)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    memset(v->data, 0, nesl_base_size(b) * (size_t)len);
    return v;
}

NeslVec *nesl_string(NeslRt *rt, const char *s, int64_t len)
{
    NeslVec *v = nesl_vec_new(rt, NESL_CHAR, len);
    if (len) memcpy(v->data, s, (size_t)len);
    return v;
}

const void *nesl_vec_host(NeslRt *rt, const NeslVec *v) { (void)rt; return v->data; }

NeslVec *nesl_vec_from_host(NeslRt *rt, NeslBase b, int64_t len, const void *data)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    if (len) memcpy(v->data, data, nesl_base_size(b) * (size_t)len);
    return v;
}

const int32_t *nesl_sd_host_lens(NeslRt *rt, const NeslSd *s) { (void)rt; return s->lens; }

void nesl_vec_get(NeslRt *rt, const NeslVec *v, int64_t i, void *out)
{
    size_t w = nesl_base_size(v->base);
    (void)rt;
    memcpy(out, (const char *)v->data + w * (size_t)i, w);
}

double nesl_wall(NeslRt *rt) { (void)rt; return nesl_clock(); }

void nesl_timer_start(NeslRt *rt) { nesl_core(rt)->timer_wall0 = nesl_clock(); }

double nesl_timer_stop(NeslRt *rt, double *wall_ms)
{
    double ms = (nesl_clock() - nesl_core(rt)->timer_wall0) * 1e3;
    if (wall_ms) *wall_ms = ms;
    return ms;
}

void *nesl_tmp(NeslRt *rt, size_t bytes) { return (char *)new_obj(rt, NESL_OBJ_TMP, bytes) + HDR; }

void *nesl_tmp_zero(NeslRt *rt, size_t bytes)
{
    void *p = nesl_tmp(rt, bytes);
    memset(p, 0, bytes);
    return p;
}

NeslSd *nesl_sd_new(NeslRt *rt, int64_t nsegs)
{
    NeslSd *s = new_obj(rt, NESL_OBJ_SD, sizeof(int32_t) * (size_t)nsegs);
    s->nsegs = nsegs;
    s->lens = (int32_t *)((char *)s + HDR);
    s->offs = NULL;
    s->segids = NULL;
    return s;
}

const int64_t *nesl_sd_offs(NeslRt *rt, NeslSd *s)
{
    if (!s->offs) {
        int64_t *o = blk_get(rt, sizeof *o * (size_t)(s->nsegs + 1)), t = 0;
        for (int64_t g = 0; g < s->nsegs; g++) { o[g] = t; t += s->lens[g]; }
        o[s->nsegs] = t;
        s->offs = o;
    }
    return s->offs;
}

int64_t nesl_sd_total(NeslRt *rt, NeslSd *s) { return nesl_sd_offs(rt, s)[s->nsegs]; }

const int32_t *nesl_sd_lens(NeslRt *rt, NeslSd *s)
{
    (void)rt;
    return s->lens;
}

const int32_t *nesl_sd_segids(NeslRt *rt, NeslSd *s)
{
    if (!s->segids) {
        const int64_t *o = nesl_sd_offs(rt, s);
        int32_t *ids = blk_get(rt, sizeof *ids * (size_t)o[s->nsegs]);
        for (int64_t g = 0; g < s->nsegs; g++)
            for (int64_t i = o[g]; i < o[g + 1]; i++) ids[i] = (int32_t)g;
        s->segids = ids;
    }
    return s->segids;
}

/* ---- CPU builtins ---- */
NeslSd *nesl_make_sd(NeslRt *rt, const NeslVec *lens)
{
    const int32_t *l = lens->data;
    for (int64_t i = 0; i < lens->len; i++)
        if (l[i] < 0) nesl_fail(rt, "make_sd: negative segment length %lld", (long long)l[i]);
    NeslSd *s = nesl_sd_new(rt, lens->len);
    if (lens->len) memcpy(s->lens, l, sizeof *l * (size_t)lens->len);
    return s;
}

NeslSd *nesl_make_sd_total(NeslRt *rt, const NeslVec *lens, int32_t total)
{
    NeslSd *s = nesl_make_sd(rt, lens);
    int64_t sum = 0;
    for (int64_t i = 0; i < s->nsegs; i++) sum += s->lens[i];
    if (sum != total) nesl_sd_total_differs(rt, sum, total);
    return s;
}

/* (The CPU's offsets are computed when first read, from the lengths.) */
NeslSd *nesl_sum_sd(NeslRt *rt, NeslSd *a, NeslSd *b)
{
    if (a->nsegs != b->nsegs) nesl_sd_parts_differ(rt, "sum_sd", a->nsegs, b->nsegs);
    NeslSd *s = nesl_sd_new(rt, a->nsegs);
    for (int64_t g = 0; g < s->nsegs; g++) s->lens[g] = a->lens[g] + b->lens[g];
    return s;
}

NeslSd *nesl_zip_sd(NeslRt *rt, NeslSd *a, NeslSd *b)
{
    if (a->nsegs != b->nsegs) nesl_sd_parts_differ(rt, "zip_sd", a->nsegs, b->nsegs);
    NeslSd *s = nesl_sd_new(rt, 2 * a->nsegs);
    for (int64_t g = 0; g < a->nsegs; g++) {
        s->lens[2 * g] = a->lens[g];
        s->lens[2 * g + 1] = b->lens[g];
    }
    return s;
}

NeslSd *nesl_cat_sd(NeslRt *rt, NeslSd *a, NeslSd *b)
{
    NeslSd *s = nesl_sd_new(rt, a->nsegs + b->nsegs);
    if (a->nsegs) memcpy(s->lens, a->lens, sizeof *s->lens * (size_t)a->nsegs);
    if (b->nsegs) memcpy(s->lens + a->nsegs, b->lens, sizeof *s->lens * (size_t)b->nsegs);
    return s;
}

NeslSd *nesl_filter_sd(NeslRt *rt, NeslSd *src, const NeslVec *kept)
{
    const int64_t *o = nesl_sd_offs(rt, src);
    const int32_t *k = kept->data;
    for (int64_t r = 0; r < kept->len; r++)
        if (k[r] < 0 || k[r] >= o[src->nsegs] || (r > 0 && k[r] <= k[r - 1])) nesl_filter_sd_unsorted(rt, r, k[r]);
    NeslSd *s = nesl_sd_new(rt, src->nsegs);
    int64_t r = 0;
    for (int64_t g = 0; g < s->nsegs; g++) {
        int64_t r0 = r;
        while (r < kept->len && k[r] < o[g + 1]) r++;
        s->lens[g] = (int32_t)(r - r0);
    }
    return s;
}

NeslSd *nesl_dist_sd(NeslRt *rt, int32_t n, int32_t l)
{
    nesl_dist_sd_check(rt, n, l);
    NeslSd *s = nesl_sd_new(rt, n);
    for (int32_t g = 0; g < n; g++) s->lens[g] = l;
    return s;
}

NeslVec *nesl_lengths(NeslRt *rt, const NeslSd *s)
{
    NeslVec *v = nesl_vec_new(rt, NESL_INT, s->nsegs);
    if (s->nsegs) memcpy(v->data, s->lens, sizeof(int32_t) * (size_t)s->nsegs);
    return v;
}

NeslVec *nesl_offsets(NeslRt *rt, NeslSd *s)
{
    const int64_t *o = nesl_sd_offs(rt, s);
    NeslVec *v = nesl_vec_new(rt, NESL_INT, s->nsegs);
    int32_t *d = v->data;
    for (int64_t g = 0; g < s->nsegs; g++) d[g] = (int32_t)o[g];
    return v;
}

NeslVec *nesl_segids(NeslRt *rt, NeslSd *s)
{
    const int32_t *ids = nesl_sd_segids(rt, s);
    int64_t t = nesl_sd_total(rt, s);
    NeslVec *v = nesl_vec_new(rt, NESL_INT, t);
    if (t) memcpy(v->data, ids, sizeof *ids * (size_t)t);
    return v;
}

/* ---- the runtime object ---- */
NeslRt *nesl_rt_new(int argc, char **argv, int nsites, const char *const *sites)
{
    NeslRt *rt = calloc(1, sizeof *rt);
    if (!rt) { fputs("RUNTIME ERROR: out of memory\n", stderr); exit(1); }
    nesl_core_init(rt, &rt->core, argc, argv, nsites, sites);
    return rt;
}

int nesl_rt_free(NeslRt *rt)
{
    if (rt->core.stats) nesl_print_stats(rt);
    fflush(stdout);
    nesl_release(rt, 0, 0);
    for (int k = 0; k < NCLASSES; k++)
        while (rt->free_list[k]) {
            Block *f = rt->free_list[k];
            rt->free_list[k] = f->next;
            free(f);
        }
    free(rt->core.objs);
    free(rt->core.kst);
    free(rt);
    return 0;
}
