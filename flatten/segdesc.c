/* segdesc.c — segment descriptors as the flattener reads them.
 *
 * Every read of an sd's lengths, offsets, segment ids or total goes
 * through these functions.  Most descriptors come from make_sd over
 * lengths computed on the device: their accessors are the CPU builtins,
 * and total needs the device's scan.  A descriptor of n copies of one
 * sequence of length l (a context-invariant sequence replicated over a
 * lifted context, doc/flattening.md "Uniform descriptors") is made by
 * dist_sd(n, l) instead, and its accessors are arithmetic the flattener
 * writes itself: total n * l on the CPU, without a wait for the device;
 * segment ids div_in(p, l) and offsets k * l as MAPs that fusion pulls
 * into their consumers, so the ids are never stored.  A descriptor whose
 * total the flattener knows on the CPU (a filter's kept count, the sum of
 * two concatenated sequences' totals, a singleton's length) is made by
 * make_sd (lens, total), so that the CUDA runtime answers total (s) and
 * segment ids without a wait for the device (quicksort asked for four
 * such a level) and checks it against the scan.  Reads still say
 * total (s): fusion proves sizes equal through it (a MAP over total (s)
 * and a SEG_REDUCE over s). */
#include "flatten_impl.h"

typedef struct UniformSd { Sym sd, n, len, total; } UniformSd;

static const UniformSd *uniform(const Fl *F, Sym sd)
{
    for (int i = F->uniform.len - 1; i >= 0; i--) {
        const UniformSd *u = F->uniform.items[i];
        if (u->sd == sd) return u;
    }
    return NULL;
}

static Sym accessor(Fl *F, const char *f, Sym sd)
{
    return fl_emit(F, T_vec(F, LB_INT), X_call1(F, f, X_var(F, sd)));
}

Sym fl_sd_lengths(Fl *F, Sym sd)
{
    const UniformSd *u = uniform(F, sd);
    return u ? fl_dist(F, LB_INT, X_var(F, u->len), X_var(F, u->n)) : accessor(F, "lengths", sd);
}

Sym fl_sd_offsets(Fl *F, Sym sd)
{
    const UniformSd *u = uniform(F, sd);
    if (!u) return accessor(F, "offsets", sd);
    Sym k = fl_fresh(F, "k");
    return fl_map(F, LB_INT, k, X_bin(F, LOP_MUL, X_var(F, k), X_var(F, u->len)), X_var(F, u->n));
}

Sym fl_sd_segids(Fl *F, Sym sd)
{
    const UniformSd *u = uniform(F, sd);
    if (!u) return accessor(F, "segids", sd);
    /* p < n * l, so l > 0 wherever the thunk runs */
    Sym p = fl_fresh(F, "p");
    return fl_map(F, LB_INT, p, X_call2(F, "div_in", X_var(F, p), X_var(F, u->len)), X_var(F, u->total));
}

LcuExpr *fl_sd_uniform_len(Fl *F, Sym sd)
{
    const UniformSd *u = uniform(F, sd);
    return u ? X_var(F, u->len) : NULL;
}

Sym fl_sd_total(Fl *F, Sym sd)
{
    const UniformSd *u = uniform(F, sd);
    return u ? u->total : fl_emit(F, T_int(F), X_call1(F, "total", X_var(F, sd)));
}

Sym fl_make_sd(Fl *F, Sym lens)
{
    return fl_emit(F, T_sd(F), X_call1(F, "make_sd", X_var(F, lens)));
}

Sym fl_make_sd_total(Fl *F, Sym lens, LcuExpr *total)
{
    return fl_emit(F, T_sd(F), X_call2(F, "make_sd", X_var(F, lens), total));
}

/* sum_sd (a, b), cat_sd (a, b): descriptors whose offsets the runtime
 * takes from a's and b's, without make_sd's scan (lcu.h). */
Sym fl_sum_sd(Fl *F, Sym a, Sym b) { return fl_emit(F, T_sd(F), X_call2(F, "sum_sd", X_var(F, a), X_var(F, b))); }
Sym fl_cat_sd(Fl *F, Sym a, Sym b) { return fl_emit(F, T_sd(F), X_call2(F, "cat_sd", X_var(F, a), X_var(F, b))); }
Sym fl_zip_sd(Fl *F, Sym a, Sym b) { return fl_emit(F, T_sd(F), X_call2(F, "zip_sd", X_var(F, a), X_var(F, b))); }
Sym fl_filter_sd(Fl *F, Sym sd, Sym kept) { return fl_emit(F, T_sd(F), X_call2(F, "filter_sd", X_var(F, sd), X_var(F, kept))); }

/* The registry entry outlives the block: the sd's uses are in its scope,
 * and n, l and the total are bound before it in the same block. */
Sym fl_dist_sd(Fl *F, LcuExpr *n, LcuExpr *len, Sym *total)
{
    UniformSd *u = arena_alloc(F->a, sizeof *u);
    u->n = fl_emit(F, T_int(F), n);
    u->len = fl_emit(F, T_int(F), len);
    LcuExpr *args[2] = { X_var(F, u->n), X_var(F, u->len) };
    u->sd = fl_emit(F, T_sd(F), X_call(F, "dist_sd", 2, args));   /* fails when n * l overflows */
    u->total = fl_emit(F, T_int(F), X_bin(F, LOP_MUL, X_var(F, u->n), X_var(F, u->len)));
    ptrvec_push(F->a, &F->uniform, u);
    if (total) *total = u->total;
    return u->sd;
}

/* n copies of the unlifted sequence v of type seqt, as a lifted sequence:
 * element p of the copies is element p mod l of v. */
FVal fl_dist_seq(Fl *F, FVal v, LcuExpr *n)
{
    Type *et = type_prune(v.type)->elem;
    Sym total;
    Sym sd = fl_dist_sd(F, n, fv_count(F, v), &total);
    const UniformSd *u = uniform(F, sd);
    Sym p = fl_fresh(F, "p");
    LcuExpr *seg = X_call2(F, "div_in", X_var(F, p), X_var(F, u->len));
    LcuExpr *at = X_bin(F, LOP_SUB, X_var(F, p), X_bin(F, LOP_MUL, seg, X_var(F, u->len)));
    Sym idx = fl_map(F, LB_INT, p, at, X_var(F, total));
    return lseq_make(F, v.type, sd, rep_gather_in(F, et, v.c, idx));
}
