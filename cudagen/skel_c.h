/* skel_c.h — helpers shared by the C (OpenMP) skeletons, skel_c*.c. */
#ifndef NESSLC_SKEL_C_H
#define NESSLC_SKEL_C_H
#include "cudagen.h"

/* The thunks of a SOAC applied in an iteration it (int64 C expression);
 * each returns the flat results (side-effect free, valid in blk). */
CExpr **sk_pull(Gen *g, SoacGen *s, CBlock *blk, CExpr *it);
CExpr *sk_index(Gen *g, SoacGen *s, CBlock *blk, CExpr *it);
CExpr *sk_pred(Gen *g, SoacGen *s, CBlock *blk, CExpr **x, CExpr *it);
CExpr **sk_op(Gen *g, SoacGen *s, CBlock *blk, CExpr **acc, CExpr **x, CExpr *it);

/* Stores of n results: dst[k][idx] = res[k]; vars[k] = res[k] (all at once). */
void sk_store(Gen *g, CBlock *blk, int n, CExpr **dst, CExpr *idx, CExpr **res);
void sk_assign(Gen *g, SoacGen *s, CBlock *blk, CExpr **vars, CExpr **res);
/* n fresh variables of τ's component types initialized to init[k] (NULL: none). */
CExpr **sk_vars(Gen *g, SoacGen *s, CBlock *blk, const char *base, CExpr **init);

/* A new output vector of len (an int64 name) elements: its value, and its
 * data pointer in *data. */
const CVal *sk_out_vec(Gen *g, SoacGen *s, LcuBase b, CExpr *len, bool zero, CExpr **data);
/* An int64 variable (or other type) with a fresh name. */
CExpr *sk_var(Gen *g, CBlock *blk, const char *type, const char *base, CExpr *init);
/* (T *)nesl_tmp(rt, sizeof(T) * n), in a variable. */
CExpr *sk_tmp(Gen *g, SoacGen *s, const char *elem_type, const char *base, CExpr *n, bool zero);

/* #pragma text, fmt's %s formatted with the C names of one or two
 * variables (never code: the names of an if() clause). */
void sk_pragma(Gen *g, CBlock *blk, const char *fmt, const CExpr *name);
void sk_pragma2(Gen *g, CBlock *blk, const char *fmt, const CExpr *n1, const CExpr *n2);
/* for (int64_t i = lo; i < hi; i++): the body block; *i gets the variable. */
CBlock *sk_for(Gen *g, CBlock *blk, const char *base, CExpr *lo, CExpr *hi, CExpr **i);
/* Parallel loop over nb blocks of the n elements: the body, with *lo and
 * *hi the block's element range and *b its number. */
CBlock *sk_blocks(Gen *g, CBlock *blk, CExpr *n, CExpr *nb, CExpr **b, CExpr **lo, CExpr **hi);
/* nesl_err_raise(err) */
void sk_raise(Gen *g, SoacGen *s, CBlock *blk);

/* skel_c_scan.c */
void sk_reduce(Gen *g, SoacGen *s);
void sk_scan(Gen *g, SoacGen *s);
void sk_seg_reduce(Gen *g, SoacGen *s);
void sk_seg_scan(Gen *g, SoacGen *s);

#endif
