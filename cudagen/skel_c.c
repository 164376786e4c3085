/* skel_c.c — the C (OpenMP) skeletons: MAP, ONCE, PERMUTE, FILTER and
 * PARTITION with their SEG_ forms, and the helpers every skeleton uses
 * (reductions and scans are in skel_c_scan.c).  doc/codegen.md describes
 * the generated loops.
 *
 * Parallel loops are `#pragma omp parallel for` with static blocks of
 * consecutive elements; the program is also correct without OpenMP (the
 * pragmas are then ignored).  Errors are recorded per iteration in the
 * kernel's NeslErr and raised after the loop, so the message is the one of
 * the first failing iteration, as in the sequential interpreter. */
#include <string.h>
#include "skel_c.h"

/* ---- thunk application ---- */
typedef struct Capture { CExpr **res; } Capture;

static void k_capture(Gen *g, void *ctx, CBlock *blk, int n, CExpr **res)
{
    (void)blk;
    Capture *c = ctx;
    c->res = arena_alloc(g->a, sizeof *res * (size_t)n);
    memcpy(c->res, res, sizeof *res * (size_t)n);
}

static CExpr **apply(Gen *g, SoacGen *s, const ThunkGen *t, CBlock *blk, int n, CExpr **args,
                     const LcuBase *bases, const GenRange *range0, CExpr *it)
{
    ErrCtx ec = { s->err.err, it, false, false };
    Capture cap = { NULL };
    Cont k = { k_capture, &cap };
    gen_thunk(g, t, n, args, bases, range0, &ec, &k, blk);
    return cap.res;
}

CExpr **sk_pull(Gen *g, SoacGen *s, CBlock *blk, CExpr *it)
{
    CExpr *i = cx_cast(g->a, "int32_t", it);
    LcuBase b = LB_INT;
    return apply(g, s, &s->pull, blk, 1, &i, &b, s->range, it);
}

CExpr *sk_index(Gen *g, SoacGen *s, CBlock *blk, CExpr *it)
{
    CExpr *i = cx_cast(g->a, "int32_t", it);
    LcuBase b = LB_INT;
    return apply(g, s, &s->aux, blk, 1, &i, &b, s->range, it)[0];
}

CExpr *sk_pred(Gen *g, SoacGen *s, CBlock *blk, CExpr **x, CExpr *it)
{
    return apply(g, s, &s->aux, blk, s->n, x, s->tau, s->pred_range, it)[0];
}

CExpr **sk_op(Gen *g, SoacGen *s, CBlock *blk, CExpr **acc, CExpr **x, CExpr *it)
{
    int n = s->n;
    CExpr *args[2 * n];
    LcuBase bases[2 * n];
    for (int k = 0; k < n; k++) {
        args[k] = acc[k];
        args[n + k] = x[k];
        bases[k] = bases[n + k] = s->tau[k];
    }
    return apply(g, s, &s->aux, blk, 2 * n, args, bases, NULL, it);
}

/* ---- stores and variables ---- */
void sk_store(Gen *g, CBlock *blk, int n, CExpr **dst, CExpr *idx, CExpr **res)
{
    for (int k = 0; k < n; k++) cs_assign(g->a, blk, cx_index(g->a, dst[k], idx), res[k]);
}

void sk_assign(Gen *g, SoacGen *s, CBlock *blk, CExpr **vars, CExpr **res)
{
    int n = s->n;
    if (n == 1) { cs_assign(g->a, blk, vars[0], res[0]); return; }
    /* results may read the variables (even be them): compute all, then assign */
    CExpr *t[n];
    for (int k = 0; k < n; k++) t[k] = sk_var(g, blk, gen_base_ctype(g, s->tau[k]), "t", res[k]);
    for (int k = 0; k < n; k++) cs_assign(g->a, blk, vars[k], t[k]);
}

CExpr *sk_var(Gen *g, CBlock *blk, const char *type, const char *base, CExpr *init)
{
    const char *v = gen_fresh(g, base);
    cs_decl(g->a, blk, type, v, init);
    return cx_name(g->a, v);
}

CExpr **sk_vars(Gen *g, SoacGen *s, CBlock *blk, const char *base, CExpr **init)
{
    CExpr **v = arena_alloc(g->a, sizeof *v * (size_t)s->n);
    for (int k = 0; k < s->n; k++) v[k] = sk_var(g, blk, gen_base_ctype(g, s->tau[k]), base, init ? init[k] : NULL);
    return v;
}

static const char *ptr_of(Gen *g, const char *t)
{
    size_t n = strlen(t);
    char *p = arena_alloc(g->a, n + 3);
    memcpy(p, t, n);
    memcpy(p + n, " *", 3);
    return p;
}

const CVal *sk_out_vec(Gen *g, SoacGen *s, LcuBase b, CExpr *len, bool zero, CExpr **data)
{
    CExpr *v = sk_var(g, s->blk, "NeslVec *", "y",
                      cx_calln(g->a, zero ? "nesl_vec_zero" : "nesl_vec_new", 3, s->rt, cx_name(g->a, gen_base_enum(g, b)), len));
    const char *pt = ptr_of(g, gen_base_ctype(g, b));
    *data = sk_var(g, s->blk, pt, "yd", cx_cast(g->a, pt, cx_arrow(g->a, v, "data")));
    CVal *r = cval_new(g, lcu_t_vec(g->a, b), 1, &v);
    r->data = *data;
    r->len = len;
    return r;
}

CExpr *sk_tmp(Gen *g, SoacGen *s, const char *elem_type, const char *base, CExpr *n, bool zero)
{
    const char *pt = ptr_of(g, elem_type);
    CExpr *bytes = cx_bin(g->a, CB_MUL, cx_sizeof(g->a, elem_type), cx_cast(g->a, "size_t", n));
    return sk_var(g, s->blk, pt, base, cx_cast(g->a, pt, cx_calln(g->a, zero ? "nesl_tmp_zero" : "nesl_tmp", 2, s->rt, bytes)));
}

void sk_pragma2(Gen *g, CBlock *blk, const char *fmt, const CExpr *n1, const CExpr *n2)
{
    if (n1->kind != CX_NAME || (n2 && n2->kind != CX_NAME)) ICE("a pragma clause names a variable");
    char buf[200];
    snprintf(buf, sizeof buf, fmt, n1->u.name, n2 ? n2->u.name : "");
    cs_pragma(g->a, blk, arena_strndup(g->a, buf, strlen(buf)));
}

void sk_pragma(Gen *g, CBlock *blk, const char *fmt, const CExpr *name) { sk_pragma2(g, blk, fmt, name, NULL); }

CBlock *sk_for(Gen *g, CBlock *blk, const char *base, CExpr *lo, CExpr *hi, CExpr **i)
{
    const char *v = gen_fresh(g, base);
    CBlock *body = cb_new(g->a);
    cs_for(g->a, blk, v, lo, hi, body);
    *i = cx_name(g->a, v);
    return body;
}

CBlock *sk_blocks(Gen *g, CBlock *blk, CExpr *n, CExpr *nb, CExpr **b, CExpr **lo, CExpr **hi)
{
    sk_pragma(g, blk, "omp parallel for schedule(static) if(%s > 1)", nb);
    CBlock *body = sk_for(g, blk, "b", cx_int(g->a, 0), nb, b);
    *lo = sk_var(g, body, "int64_t", "lo", cx_calln(g->a, "nesl_block_lo", 3, n, nb, *b));
    *hi = sk_var(g, body, "int64_t", "hi", cx_calln(g->a, "nesl_block_lo", 3, n, nb, cx_bin(g->a, CB_ADD, *b, cx_int(g->a, 1))));
    return body;
}

void sk_raise(Gen *g, SoacGen *s, CBlock *blk)
{
    cs_expr(g->a, blk, cx_calln(g->a, "nesl_err_raise", 1, s->err.err));
}

/* ---- MAP: one parallel loop ---- */
static void c_map(Gen *g, SoacGen *s)
{
    CExpr *d[s->n], *i;
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    /* elements that loop cost unequal time: handed out in small chunks */
    bool loops = s->soac->args[0]->kind == LA_THUNK && lcu_has_loop(s->soac->args[0]->u.thunk->body);
    sk_pragma(g, s->blk, loops ? "omp parallel for schedule(dynamic, 64) if(%s >= NESL_PAR_MIN)"
                               : "omp parallel for schedule(static) if(%s >= NESL_PAR_MIN)", s->size);
    CBlock *body = sk_for(g, s->blk, "i", cx_int(g->a, 0), s->size, &i);
    sk_store(g, body, s->n, d, i, sk_pull(g, s, body, i));
    if (s->pull.may_fail) sk_raise(g, s, s->blk);
}

/* ---- ONCE: sequential code; errors are immediate ---- */
static void c_once(Gen *g, SoacGen *s)
{
    CExpr *unit = cx_int(g->a, 0);
    LcuBase ub = LB_UNIT;
    Capture cap = { NULL };
    Cont k = { k_capture, &cap };
    gen_thunk(g, &s->pull, 1, &unit, &ub, NULL, &s->herr, &k, s->blk);
    for (int j = 0; j < s->n; j++) {
        CExpr *v = sk_var(g, s->blk, gen_base_ctype(g, s->tau[j]), "o", cap.res[j]);
        s->out[j] = cval_new(g, lcu_t_base(g->a, s->tau[j]), 1, &v);
    }
}

/* ---- PERMUTE, SEG_PERMUTE: the targets are computed and checked in a
 * first parallel loop, which also detects repeated targets; the writes
 * then run in parallel, or in order when a target repeats (the last write
 * wins, as in the interpreter). ---- */
static void permute(Gen *g, SoacGen *s, bool seg)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    CExpr *d[s->n], *i, *off = NULL, *ids = NULL;
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, true, &d[k]);
    CExpr *tg = sk_tmp(g, s, "int64_t", "tg", s->size, false);
    CExpr *hit = sk_tmp(g, s, "uint8_t", "hit", s->size, true);
    CExpr *conflict = sk_var(g, blk, "int", "conflict", cx_int(a, 0));
    if (seg) {
        off = sk_var(g, blk, "const int64_t *", "off", cx_calln(a, "nesl_sd_offs", 2, s->rt, s->sd->comps[0]));
        ids = sk_var(g, blk, "const int32_t *", "ids", cx_calln(a, "nesl_sd_segids", 2, s->rt, s->sd->comps[0]));
    }
    sk_pragma(g, blk, "omp parallel for schedule(static) if(%s >= NESL_PAR_MIN)", s->size);
    CBlock *body = sk_for(g, blk, "i", cx_int(a, 0), s->size, &i);
    if (s->pull.may_fail) {   /* its errors come first in an iteration */
        CExpr **x = sk_pull(g, s, body, i);
        for (int k = 0; k < s->n; k++)
            if (x[k]->kind == CX_NAME) cs_expr(a, body, cx_cast(a, "void", x[k]));
    }
    CExpr *t = gen_hoist(g, body, "int32_t", "t", sk_index(g, s, body, i));
    CExpr *len = s->size, *dst = t;
    if (seg) {
        CExpr *gi = sk_var(g, body, "int32_t", "g", cx_index(a, ids, i));
        len = sk_var(g, body, "int64_t", "len", cx_index(a, cx_arrow(a, s->sd->comps[0], "lens"), gi));
        dst = cx_bin(a, CB_ADD, cx_index(a, off, gi), t);
    }
    const char *name = seg ? "SEG_PERMUTE" : "PERMUTE";
    CBlock *ok = cb_new(a), *cap = cb_new(a), *mark = cb_new(a);
    cs_if(a, body, cx_calln(a, "nesl_ck_target", 5, s->err.err, i, cx_str(a, name, (int)strlen(name)), t, len), ok, NULL);
    CExpr *dv = sk_var(g, ok, "int64_t", "d", dst);
    cs_assign(a, ok, cx_index(a, tg, i), dv);
    CExpr *h = sk_var(g, ok, "uint8_t", "h", NULL);
    cs_pragma(a, ok, "omp atomic capture");
    cs_block(a, ok, cap);
    cs_assign(a, cap, h, cx_index(a, hit, dv));
    cs_add_assign(a, cap, cx_index(a, hit, dv), cx_int(a, 1));
    cs_if(a, ok, h, mark, NULL);
    cs_pragma(a, mark, "omp atomic write");
    cs_assign(a, mark, conflict, cx_int(a, 1));
    sk_raise(g, s, blk);
    cs_expr(a, blk, cx_cast(a, "void", conflict));   /* read only by the pragma */
    sk_pragma2(g, blk, "omp parallel for schedule(static) if(%s >= NESL_PAR_MIN && !%s)", s->size, conflict);
    body = sk_for(g, blk, "i", cx_int(a, 0), s->size, &i);
    CExpr **x = sk_pull(g, s, body, i);
    sk_store(g, body, s->n, d, sk_var(g, body, "int64_t", "d", cx_index(a, tg, i)), x);
}

static void c_permute(Gen *g, SoacGen *s) { permute(g, s, false); }
static void c_seg_permute(Gen *g, SoacGen *s) { permute(g, s, true); }

/* ---- FILTER, PARTITION and their SEG_ forms: flags and per-block counts
 * in a first parallel pass, offsets by a sequential scan of the counts,
 * the kept elements written by a second pass (their pull thunk evaluated
 * again).  The SEG_ forms keep the flat order, so only the new segment
 * lengths are extra (one parallel pass over the segments). ---- */
static void filter(Gen *g, SoacGen *s, bool part, bool seg)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    int n = s->n;
    if (s->pred_range)   /* clamp_pred: the one error the predicate can raise, at iteration #v */
        cs_expr(a, blk, gen_clamp_check(g, s->pred_range, s->err.err, s->size));
    CExpr *fl = sk_tmp(g, s, "uint8_t", "fl", s->size, false);
    CExpr *nb = sk_var(g, blk, "int64_t", "nb", cx_calln(a, "nesl_nblocks", 1, s->size));
    CExpr *cnt = sk_tmp(g, s, "int64_t", "cnt", nb, false);
    CExpr *b, *lo, *hi, *i;
    CBlock *body = sk_blocks(g, blk, s->size, nb, &b, &lo, &hi);
    CExpr *c = sk_var(g, body, "int64_t", "c", cx_int(a, 0));
    CBlock *in = sk_for(g, body, "i", lo, hi, &i);
    CExpr *p = sk_pred(g, s, in, sk_pull(g, s, in, i), i);
    cs_assign(a, in, cx_index(a, fl, i), p);
    cs_add_assign(a, in, c, cx_index(a, fl, i));
    cs_assign(a, body, cx_index(a, cnt, b), c);
    if (s->pull.may_fail || s->aux.may_fail) sk_raise(g, s, blk);
    /* exclusive scan of the block counts */
    CExpr *kept = sk_var(g, blk, "int64_t", "kept", cx_int(a, 0));
    CBlock *sc = sk_for(g, blk, "b", cx_int(a, 0), nb, &b);
    CExpr *t = sk_var(g, sc, "int64_t", "t", cx_index(a, cnt, b));
    cs_assign(a, sc, cx_index(a, cnt, b), kept);
    cs_add_assign(a, sc, kept, t);
    if (s->kept && !seg) {   /* the flattener's count (LcuSoac.kept): checked, a difference is its bug */
        CBlock *bad = cb_new(a);
        const char *name = part ? "PARTITION" : "FILTER";
        cs_expr(a, bad, cx_calln(a, "nesl_kept_differs", 4, s->rt, cx_str(a, name, (int)strlen(name)), kept, s->kept));
        cs_if(a, blk, cx_bin(a, CB_NE, kept, s->kept), bad, NULL);
    }
    CExpr *dt[n], *df[n], *nf = NULL;
    const CVal *sdt = NULL, *sdf = NULL;
    for (int k = 0; k < n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], kept, false, &dt[k]);
    if (part) {
        nf = sk_var(g, blk, "int64_t", "nf", cx_bin(a, CB_SUB, s->size, kept));
        for (int k = 0; k < n; k++) s->out[n + seg + k] = sk_out_vec(g, s, s->tau[k], nf, false, &df[k]);
    }
    body = sk_blocks(g, blk, s->size, nb, &b, &lo, &hi);
    CExpr *o = sk_var(g, body, "int64_t", "o", cx_index(a, cnt, b));
    CExpr *of = part ? sk_var(g, body, "int64_t", "of", cx_bin(a, CB_SUB, lo, o)) : NULL;
    in = sk_for(g, body, "i", lo, hi, &i);
    CBlock *yes = cb_new(a), *no = part ? cb_new(a) : NULL;
    cs_if(a, in, cx_index(a, fl, i), yes, no);
    sk_store(g, yes, n, dt, o, sk_pull(g, s, yes, i));
    cs_add_assign(a, yes, o, cx_int(a, 1));
    if (part) {
        sk_store(g, no, n, df, of, sk_pull(g, s, no, i));
        cs_add_assign(a, no, of, cx_int(a, 1));
    }
    if (!seg) return;
    /* the new segment lengths */
    CExpr *sd = s->sd->comps[0];
    CExpr *ns = sk_var(g, blk, "int64_t", "ns", cx_arrow(a, sd, "nsegs"));
    CExpr *off = sk_var(g, blk, "const int64_t *", "off", cx_calln(a, "nesl_sd_offs", 2, s->rt, sd));
    CExpr *st = sk_var(g, blk, "NeslSd *", "sdt", cx_calln(a, "nesl_sd_new", 2, s->rt, ns));
    CExpr *sf = part ? sk_var(g, blk, "NeslSd *", "sdf", cx_calln(a, "nesl_sd_new", 2, s->rt, ns)) : NULL;
    CExpr *gi;
    sk_pragma(g, blk, "omp parallel for schedule(static) if(%s >= NESL_PAR_MIN)", s->size);
    body = sk_for(g, blk, "g", cx_int(a, 0), ns, &gi);
    CExpr *m = sk_var(g, body, "int64_t", "m", cx_int(a, 0));
    CExpr *g1 = cx_bin(a, CB_ADD, gi, cx_int(a, 1));
    in = sk_for(g, body, "i", cx_index(a, off, gi), cx_index(a, off, g1), &i);
    cs_add_assign(a, in, m, cx_index(a, fl, i));
    cs_assign(a, body, cx_index(a, cx_arrow(a, st, "lens"), gi), cx_cast(a, "int32_t", m));
    if (part) {
        CExpr *len = cx_bin(a, CB_SUB, cx_index(a, off, g1), cx_index(a, off, gi));
        cs_assign(a, body, cx_index(a, cx_arrow(a, sf, "lens"), gi), cx_cast(a, "int32_t", cx_bin(a, CB_SUB, len, m)));
    }
    sdt = cval_new(g, lcu_t_sd(a), 1, &st);
    s->out[n] = sdt;
    if (part) {
        sdf = cval_new(g, lcu_t_sd(a), 1, &sf);
        s->out[2 * n + 1] = sdf;
    }
}

static void c_filter(Gen *g, SoacGen *s) { filter(g, s, false, false); }
static void c_partition(Gen *g, SoacGen *s) { filter(g, s, true, false); }
static void c_seg_filter(Gen *g, SoacGen *s) { filter(g, s, false, true); }
static void c_seg_partition(Gen *g, SoacGen *s) { filter(g, s, true, true); }

const Skeletons *cgen_c_skeletons(void)
{
    static const Skeletons c = {
        "C", false,
        c_map, c_permute, sk_reduce, sk_scan, c_filter, c_partition, c_once,
        c_seg_permute, sk_seg_reduce, sk_seg_scan, c_seg_filter, c_seg_partition,
        NULL, NULL, NULL, NULL,
    };
    return &c;
}
