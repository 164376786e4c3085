/* prims_seq.c — whole-sequence primitives: length, subscript, dist, iseq,
 * rep, gather (->), write (<-), permute, pack, append, flatten, partition,
 * and the stable ranks.  Values are immutable, so elements are shared. */
#include <stdlib.h>
#include <string.h>
#include "prims_common.h"

Seq *prim_new_seq(Interp *I, int64_t n, Span where)
{
    if (n > PRIM_MAX_SEQ_LEN)
        rt_error(I, where, "Sequence too long (%lld elements).", (long long)n);
    return seq_alloc(I->heap, n);
}

Value p_LENGTH(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_int((int32_t)args[0].seq->len);
}

Value p_ELT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *s = args[0].seq;
    int32_t i = args[1].i;
    if (i < 0 || i >= s->len)
        rt_error(I, where, "Sequence reference (a[i]) out of bounds.");
    return s->elems[i];
}

Value p_DIST(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t n = args[1].i;
    if (n < 0)
        rt_error(I, where, "Negative length for function dist.");
    Seq *s = prim_new_seq(I, n, where);
    for (int32_t k = 0; k < n; k++)
        s->elems[k] = args[0];
    return v_seq(s);
}

Value p_ISEQ(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int64_t s = args[0].i, d = args[1].i, e = args[2].i;
    if (e < s || d <= 0)
        rt_error(I, where, "In [s:e:l], e must be >= to s, and l must be positive.");
    int64_t n = (e - s + d - 1) / d;
    Seq *r = prim_new_seq(I, n, where);
    for (int64_t k = 0; k < n; k++)
        r->elems[k] = v_int((int32_t)(s + k * d));
    return v_seq(r);
}

static Seq *copy_seq(Interp *I, Seq *s)
{
    Seq *r = seq_alloc(I->heap, s->len);
    if (s->len > 0)
        memcpy(r->elems, s->elems, (size_t)s->len * sizeof(Value));
    return r;
}

Value p_REP(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t i = args[2].i;
    if (i < 0 || i >= args[0].seq->len)
        rt_error(I, where, "Index out of bounds for function rep.");
    Seq *r = copy_seq(I, args[0].seq);
    r->elems[i] = args[1];
    return v_seq(r);
}

Value p_READ(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *a = args[0].seq, *ix = args[1].seq;
    Seq *r = seq_alloc(I->heap, ix->len);
    for (int64_t k = 0; k < ix->len; k++) {
        int32_t i = ix->elems[k].i;
        if (i < 0 || i >= a->len)
            rt_error(I, where, "Index out of bounds for function ->.");
        r->elems[k] = a->elems[i];
    }
    return v_seq(r);
}

/* Collisions: the last writer wins (NESL.md 5.7). */
Value p_WRITE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *pairs = args[1].seq;
    Seq *r = copy_seq(I, args[0].seq);
    for (int64_t k = 0; k < pairs->len; k++) {
        PairVal *p = pairs->elems[k].pair;
        int32_t j = p->fst.i;
        if (j < 0 || j >= r->len)
            rt_error(I, where, "Index out of bounds for function <-.");
        r->elems[j] = p->snd;
    }
    return v_seq(r);
}

Value p_PERMUTE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *a = args[0].seq, *ix = args[1].seq;
    if (a->len != ix->len)
        rt_error(I, where, "Length mismatch in function permute.");
    Seq *r = seq_alloc(I->heap, a->len);
    for (int64_t k = 0; k < a->len; k++) {
        int32_t j = ix->elems[k].i;
        if (j < 0 || j >= a->len)
            rt_error(I, where, "Index out of bounds for function permute.");
        r->elems[j] = a->elems[k];
    }
    return v_seq(r);
}

Value p_PACK(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    Seq *p = args[0].seq;
    int64_t n = 0;
    for (int64_t k = 0; k < p->len; k++)
        n += p->elems[k].pair->snd.b;
    Seq *r = seq_alloc(I->heap, n);
    n = 0;
    for (int64_t k = 0; k < p->len; k++)
        if (p->elems[k].pair->snd.b)
            r->elems[n++] = p->elems[k].pair->fst;
    return v_seq(r);
}

Value p_APPEND(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *a = args[0].seq, *b = args[1].seq;
    Seq *r = prim_new_seq(I, a->len + b->len, where);
    if (a->len > 0)
        memcpy(r->elems, a->elems, (size_t)a->len * sizeof(Value));
    if (b->len > 0)
        memcpy(r->elems + a->len, b->elems, (size_t)b->len * sizeof(Value));
    return v_seq(r);
}

Value p_FLATTEN(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *m = args[0].seq;
    int64_t n = 0;
    for (int64_t k = 0; k < m->len; k++)
        n += m->elems[k].seq->len;
    Seq *r = prim_new_seq(I, n, where);
    n = 0;
    for (int64_t k = 0; k < m->len; k++) {
        Seq *row = m->elems[k].seq;
        if (row->len > 0)
            memcpy(r->elems + n, row->elems, (size_t)row->len * sizeof(Value));
        n += row->len;
    }
    return v_seq(r);
}

Value p_PARTITION(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *a = args[0].seq, *c = args[1].seq;
    int64_t total = 0;
    for (int64_t k = 0; k < c->len; k++) {
        if (c->elems[k].i < 0)
            rt_error(I, where, "Negative count for function partition.");
        total += c->elems[k].i;
    }
    if (total != a->len)
        rt_error(I, where, "Counts must sum to the length of the sequence in partition.");
    Seq *r = seq_alloc(I->heap, c->len);
    int64_t at = 0;
    for (int64_t k = 0; k < c->len; k++) {
        Seq *piece = seq_alloc(I->heap, c->elems[k].i);
        if (piece->len > 0)
            memcpy(piece->elems, a->elems + at, (size_t)piece->len * sizeof(Value));
        at += piece->len;
        r->elems[k] = v_seq(piece);
    }
    return v_seq(r);
}

/* ------------------------------------------------------------------ rank */

/* Stable merge sort of positions by key; `down` reverses the order of
 * unequal keys only, so equal keys keep their input order either way. */
static void merge_sort(int64_t *ix, int64_t *tmp, const double *key, int64_t n, bool down)
{
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n;
            int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                double a = key[ix[i]], b = key[ix[j]];
                bool take_right = down ? b > a : b < a;
                tmp[o++] = take_right ? ix[j++] : ix[i++];
            }
            while (i < mid) tmp[o++] = ix[i++];
            while (j < hi) tmp[o++] = ix[j++];
        }
        memcpy(ix, tmp, (size_t)n * sizeof *ix);
    }
}

static Value rank(Interp *I, Seq *a, bool down)
{
    int64_t n = a->len;
    Seq *r = seq_alloc(I->heap, n);
    if (n == 0)
        return v_seq(r);
    double *key = malloc((size_t)n * sizeof *key);
    int64_t *ix = malloc((size_t)n * sizeof *ix);
    int64_t *tmp = malloc((size_t)n * sizeof *tmp);
    if (!key || !ix || !tmp)
        ICE("out of memory in rank");
    for (int64_t k = 0; k < n; k++) {
        Value v = a->elems[k];
        key[k] = v.kind == V_FLOAT ? v.f : (double)v.i;   /* ints are exact in a double */
        ix[k] = k;
    }
    merge_sort(ix, tmp, key, n, down);
    for (int64_t k = 0; k < n; k++)
        r->elems[ix[k]] = v_int((int32_t)k);
    free(key);
    free(ix);
    free(tmp);
    return v_seq(r);
}

Value p_RANK(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    return rank(I, args[0].seq, false);
}

Value p_RANK_DOWN(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    return rank(I, args[0].seq, true);
}
