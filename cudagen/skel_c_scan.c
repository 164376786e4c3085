/* skel_c_scan.c — the C skeletons of REDUCE, SCAN, SEG_REDUCE, SEG_SCAN.
 *
 * Order of evaluation: the interpreter folds left to right from the
 * identity, acc = op(acc, A1(i)).  With floats, or an operator that can
 * fail, the generated code does exactly that, sequentially (a float sum in
 * another order would not be bit-identical).  Otherwise (ints, bools,
 * chars: associative operators are exact) it folds blocks of consecutive
 * elements in parallel, each starting from its first element, and combines
 * the block results in order, starting from the identity: by associativity
 * alone (the identity is used once, like the interpreter) the result is the
 * interpreter's.  The SEG_ forms fold each segment sequentially, in order,
 * and run the segments in parallel: bit-identical for every type. */
#include "skel_c.h"

/* Parallel blocks are used when the fold is exact in any grouping. */
static bool blocked(const SoacGen *s)
{
    if (s->aux.may_fail) return false;
    for (int k = 0; k < s->n; k++)
        if (s->tau[k] == LB_FLOAT) return false;
    return true;
}

static bool may_fail(const SoacGen *s) { return s->pull.may_fail || s->aux.may_fail; }

/* a = (i == lo) ? A1(i) : op(a, A1(i)) */
static void fold_first(Gen *g, SoacGen *s, CBlock *in, CExpr **acc, CExpr *i, CExpr *lo)
{
    CExpr **x = sk_pull(g, s, in, i);
    CBlock *first = cb_new(g->a), *rest = cb_new(g->a);
    cs_if(g->a, in, cx_bin(g->a, CB_EQ, i, lo), first, rest);
    sk_assign(g, s, first, acc, x);
    sk_assign(g, s, rest, acc, sk_op(g, s, rest, acc, x, i));
}

/* Block partial results part[k][b] of the nb blocks. */
static CExpr **partials(Gen *g, SoacGen *s, CExpr *nb)
{
    CExpr **part = arena_alloc(g->a, sizeof *part * (size_t)s->n);
    for (int k = 0; k < s->n; k++) part[k] = sk_tmp(g, s, gen_base_ctype(g, s->tau[k]), "part", nb, false);
    return part;
}

/* Pass 1 of the blocked forms: part[b] = fold of block b from its first element. */
static void block_folds(Gen *g, SoacGen *s, CBlock *blk, CExpr *nb, CExpr **part)
{
    CExpr *b, *lo, *hi, *i;
    CBlock *body = sk_blocks(g, blk, s->size, nb, &b, &lo, &hi);
    CExpr **a = sk_vars(g, s, body, "a", s->ident);
    CBlock *in = sk_for(g, body, "i", lo, hi, &i);
    fold_first(g, s, in, a, i, lo);
    sk_store(g, body, s->n, part, b, a);
    if (s->pull.may_fail) sk_raise(g, s, blk);
}

void sk_reduce(Gen *g, SoacGen *s)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    CExpr **acc = sk_vars(g, s, blk, "acc", s->ident), *i;
    if (!blocked(s)) {
        CBlock *in = sk_for(g, blk, "i", cx_int(a, 0), s->size, &i);
        sk_assign(g, s, in, acc, sk_op(g, s, in, acc, sk_pull(g, s, in, i), i));
        if (may_fail(s)) sk_raise(g, s, blk);
    } else {
        CExpr *nb = sk_var(g, blk, "int64_t", "nb", cx_calln(a, "nesl_nblocks", 1, s->size));
        CExpr **part = partials(g, s, nb), *b;
        block_folds(g, s, blk, nb, part);
        /* every block is non-empty when n > 0 */
        CBlock *nonempty = cb_new(a);
        cs_if(a, blk, cx_bin(a, CB_GT, s->size, cx_int(a, 0)), nonempty, NULL);
        CBlock *in = sk_for(g, nonempty, "b", cx_int(a, 0), nb, &b);
        CExpr *x[s->n];
        for (int k = 0; k < s->n; k++) x[k] = cx_index(a, part[k], b);
        sk_assign(g, s, in, acc, sk_op(g, s, in, acc, x, b));
    }
    for (int k = 0; k < s->n; k++) s->out[k] = cval_new(g, lcu_t_base(a, s->tau[k]), 1, &acc[k]);
}

void sk_scan(Gen *g, SoacGen *s)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    CExpr *d[s->n], *i;
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    if (!blocked(s)) {
        CExpr **acc = sk_vars(g, s, blk, "acc", s->ident);
        CBlock *in = sk_for(g, blk, "i", cx_int(a, 0), s->size, &i);
        CExpr **x = sk_pull(g, s, in, i);
        sk_store(g, in, s->n, d, i, acc);
        sk_assign(g, s, in, acc, sk_op(g, s, in, acc, x, i));
        if (may_fail(s)) sk_raise(g, s, blk);
        return;
    }
    CExpr *nb = sk_var(g, blk, "int64_t", "nb", cx_calln(a, "nesl_nblocks", 1, s->size));
    CExpr **part = partials(g, s, nb), *b;
    CBlock *multi = cb_new(a), *single = cb_new(a);
    cs_if(a, blk, cx_bin(a, CB_GT, nb, cx_int(a, 1)), multi, single);
    block_folds(g, s, multi, nb, part);
    /* part[b] becomes the carry into block b: an exclusive scan, in order */
    CExpr **c = sk_vars(g, s, multi, "c", s->ident);
    CBlock *in = sk_for(g, multi, "b", cx_int(a, 0), nb, &b);
    CExpr *t[s->n];
    for (int k = 0; k < s->n; k++) {
        t[k] = sk_var(g, in, gen_base_ctype(g, s->tau[k]), "t", cx_index(a, part[k], b));
        cs_assign(a, in, cx_index(a, part[k], b), c[k]);
    }
    sk_assign(g, s, in, c, sk_op(g, s, in, c, t, b));
    sk_store(g, single, s->n, part, cx_int(a, 0), s->ident);
    /* pass 2: each block scans from its carry */
    CExpr *lo, *hi;
    CBlock *body = sk_blocks(g, blk, s->size, nb, &b, &lo, &hi);
    CExpr *carry[s->n];
    for (int k = 0; k < s->n; k++) carry[k] = cx_index(a, part[k], b);
    CExpr **acc = sk_vars(g, s, body, "a", carry);
    in = sk_for(g, body, "i", lo, hi, &i);
    CExpr **x = sk_pull(g, s, in, i);
    sk_store(g, in, s->n, d, i, acc);
    sk_assign(g, s, in, acc, sk_op(g, s, in, acc, x, i));
    if (s->pull.may_fail) sk_raise(g, s, blk);
}

/* SEG_REDUCE, SEG_SCAN: segments in parallel, each folded in order. */
static void seg_fold(Gen *g, SoacGen *s, bool scan)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    CExpr *sd = s->sd->comps[0], *d[s->n], *gi, *i;
    CExpr *ns = sk_var(g, blk, "int64_t", "ns", cx_arrow(a, sd, "nsegs"));
    CExpr *off = sk_var(g, blk, "const int64_t *", "off", cx_calln(a, "nesl_sd_offs", 2, s->rt, sd));
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], scan ? s->size : ns, false, &d[k]);
    sk_pragma(g, blk, "omp parallel for schedule(dynamic, 64) if(%s >= NESL_PAR_MIN)", s->size);
    CBlock *body = sk_for(g, blk, "g", cx_int(a, 0), ns, &gi);
    CExpr **acc = sk_vars(g, s, body, "a", s->ident);
    CBlock *in = sk_for(g, body, "i", cx_index(a, off, gi), cx_index(a, off, cx_bin(a, CB_ADD, gi, cx_int(a, 1))), &i);
    CExpr **x = sk_pull(g, s, in, i);
    if (scan) sk_store(g, in, s->n, d, i, acc);
    sk_assign(g, s, in, acc, sk_op(g, s, in, acc, x, i));
    if (!scan) sk_store(g, body, s->n, d, gi, acc);
    if (may_fail(s)) sk_raise(g, s, blk);
}

void sk_seg_reduce(Gen *g, SoacGen *s) { seg_fold(g, s, false); }
void sk_seg_scan(Gen *g, SoacGen *s) { seg_fold(g, s, true); }
