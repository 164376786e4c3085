/* rt_cpu_lib.c — result printing in the λcu interpreter's format and the
 * library kernels (stable ranks) of the CPU runtime (nesl_rt.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_rt.h"

/* ---- printing: ints in decimal, floats %.15g plus ".0" when that shows
 * no '.' or exponent, bools T/F, chars 'a' escaped, unit (), vectors
 * [a, b], segment descriptors sd[lengths] ---- */
static void put_char_escaped(int c)
{
    c &= 255;
    if (c == '\n') fputs("\\n", stdout);
    else if (c == '\t') fputs("\\t", stdout);
    else if (c == '\\') fputs("\\\\", stdout);
    else if (c == '\'') fputs("\\'", stdout);
    else if (c >= ' ' && c <= '~') putchar(c);
    else printf("\\x%02x", c);
}

static void put_int(int64_t x) { printf("%lld", (long long)x); }

static void put_float(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.15g", x);
    if (!strpbrk(buf, ".enia")) strcat(buf, ".0");
    fputs(buf, stdout);
}

static void put_char(int c)
{
    putchar('\'');
    put_char_escaped(c);
    putchar('\'');
}

void nesl_put_int(NeslRt *rt, int32_t x) { (void)rt; put_int(x); }
void nesl_put_float(NeslRt *rt, double x) { (void)rt; put_float(x); }
void nesl_put_bool(NeslRt *rt, bool x) { (void)rt; fputs(x ? "T" : "F", stdout); }
void nesl_put_char(NeslRt *rt, uint8_t x) { (void)rt; put_char(x); }
void nesl_put_unit(NeslRt *rt, uint8_t x) { (void)rt; (void)x; fputs("()", stdout); }
void nesl_put_nl(NeslRt *rt) { (void)rt; putchar('\n'); }

void nesl_put_vec(NeslRt *rt, const NeslVec *v)
{
    const void *data = nesl_vec_host(rt, v);
    putchar('[');
    for (int64_t i = 0; i < v->len; i++) {
        if (i) fputs(", ", stdout);
        switch (v->base) {
        case NESL_INT: put_int(((const int32_t *)data)[i]); break;
        case NESL_FLOAT: put_float(((const double *)data)[i]); break;
        case NESL_BOOL: fputs(((const bool *)data)[i] ? "T" : "F", stdout); break;
        case NESL_CHAR: put_char(((const uint8_t *)data)[i]); break;
        case NESL_UNIT: fputs("()", stdout); break;
        }
    }
    putchar(']');
}

void nesl_put_sd(NeslRt *rt, const NeslSd *s)
{
    const int32_t *lens = nesl_sd_host_lens(rt, s);
    fputs("sd[", stdout);
    for (int64_t g = 0; g < s->nsegs; g++) {
        if (g) fputs(", ", stdout);
        put_int(lens[g]);
    }
    putchar(']');
}

/* ---- ranks: the interpreter's stable merge sort of positions by key ---- */
typedef struct Keys { NeslBase base; const void *data; } Keys;

/* numbers ascending, NaNs last (all equal) */
static int key_cmp(const Keys *k, int64_t x, int64_t y)
{
    if (k->base == NESL_FLOAT) {
        double a = ((const double *)k->data)[x], b = ((const double *)k->data)[y];
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
