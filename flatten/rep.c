/* rep.c — type-directed operations on flat representations (flatten.h).
 *
 * Everything structural the flattener does to nested data — indexing,
 * packing, distributing, combining branches, appending — reduces to two
 * recursive operations on the lifted representation of an element type:
 * rep_gather (element j of the result is element idx[j] of the input) and
 * rep_concat.  A sequence level is a segment descriptor; gathering its
 * segments computes the inner index vector from the descriptors' offsets
 * and segment ids, one MAP per level. */
#include <string.h>
#include "flatten_impl.h"

int fv_arity(Type *t, bool lifted) { return flat_arity(t, lifted); }

FVal fv_make(Fl *F, Type *t, bool lifted, int n, Sym *c)
{
    PtrVec ts = { 0 };
    flat_layout(F->a, t, lifted, &ts);
    if (ts.len != n) ICE("flatten: %d components for a type with %d", n, ts.len);
    FVal v = { type_prune(t), lifted, n, c, (const LcuType **)ts.items, NULL };
    return v;
}

FVal fv_slice(Fl *F, FVal v, Type *t, int from)
{
    int k = fv_arity(t, v.lifted);
    if (from + k > v.n) ICE("flatten: component slice out of range");
    return fv_make(F, t, v.lifted, k, v.c + from);
}

LcuExpr *X_rest(Fl *F, int n, const Sym *c)
{
    LcuExpr **es = arena_alloc(F->a, sizeof *es * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) es[i] = X_var(F, c[i]);
    return X_tuple(F, n, es);
}

Type *fl_data_fields(Fl *F, Type *t) { return flat_data_fields(F->a, t); }

static LcuBase base_of(Type *t)
{
    switch (type_prune(t)->kind) {
    case TY_INT: case TY_STREAM: return LB_INT;
    case TY_FLOAT: return LB_FLOAT;
    case TY_BOOL: return LB_BOOL;
    case TY_CHAR: return LB_CHAR;
    default: ICE("flatten: not a scalar type");
    }
}

/* The element types of a composite value, in component order: a pair's two
 * halves, a datatype's fields, a closure's captured variables. */
static int parts(Fl *F, Type *t, Type ***out)
{
    t = type_prune(t);
    Type **ps = arena_alloc(F->a, sizeof *ps * 2);
    *out = ps;
    switch (t->kind) {
    case TY_PAIR: ps[0] = t->fst; ps[1] = t->snd; return 2;
    case TY_DATA: ps[0] = fl_data_fields(F, t); return 1;
    case TY_FUN: {
        Binder **bs;
        return fv_arity(t, true) == 0 ? 0 : flat_closure_captures(F->a, t, &bs, out);
    }
    default: return 0;
    }
}

void fv_outer_comps(Fl *F, Type *t, const Sym *c, PtrVec *out)
{
    Type **ps;
    int np = parts(F, t, &ps), off = 0;
    if (np == 0) {
        if (fv_arity(t, true) > 0) ptrvec_push(F->a, out, (void *)c[0]);   /* a vector, or an sd */
        return;
    }
    for (int i = 0; i < np; i++) {
        fv_outer_comps(F, ps[i], c + off, out);
        off += fv_arity(ps[i], true);
    }
}

LcuExpr *fv_count(Fl *F, FVal seq)
{
    if (seq.n == 0) fl_unsupported(F, (Span){ 0 }, "a sequence of values without data (functions)");
    /* #v of the first vector, or #sd (segment count, CPU only). */
    return X_var(F, fl_emit(F, T_int(F), X_len(F, seq.c[0])));
}

/* ---- gather ---- */
/* inrange: idx's values are in range for c by construction (segment ids,
 * filter indices, permutations the flattener made), so every subscript
 * of the gather is too (v.[i]): it cannot fail, and fusion may move it
 * past checks.  Otherwise only the subscripts that hold whatever idx
 * holds are: a segment id of the new descriptor indexes idx and its
 * offsets.  perm: idx is a permutation of c's positions (implies
 * inrange), so each nested descriptor keeps its total (and the element
 * index of its data is a permutation too).  rest: the components of c
 * gathered by the positions idx does not hold (the other side of a
 * partition), so each nested descriptor's total is what rest's leaves. */
/* total: the outer sequence's new total where known (else 0) */
static void gather_into(Fl *F, Type *t, const Sym *c, Sym idx, Sym *out, bool inrange, bool perm, const Sym *rest, Sym total)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM:
        out[0] = fl_gather_as(F, base_of(t), c[0], idx, inrange);
        return;
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps), off = 0;
        for (int i = 0; i < np; i++) {
            gather_into(F, ps[i], c + off, idx, out + off, inrange, perm, rest ? rest + off : NULL, 0);
            off += fv_arity(ps[i], true);
        }
        return;
    }
    case TY_SEQ: {
        Sym sd = c[0];
        Sym lens = fl_sd_lengths(F, sd);
        Sym offs = fl_sd_offsets(F, sd);
        Sym nl = fl_gather_as(F, LB_INT, lens, idx, inrange);
        Sym nsd;
        if (total) nsd = fl_make_sd_total(F, nl, X_var(F, total));
        else if (perm) nsd = fl_make_sd_total(F, nl, X_var(F, fl_sd_total(F, sd)));
        else if (rest) nsd = fl_make_sd_total(F, nl, X_bin(F, LOP_SUB, X_var(F, fl_sd_total(F, sd)), X_var(F, fl_sd_total(F, rest[0]))));
        else nsd = fl_make_sd(F, nl);
        Sym noffs = fl_sd_offsets(F, nsd);
        Sym nsid = fl_sd_segids(F, nsd);
        Sym p = fl_fresh(F, "p");
        LcuExpr *seg = X_idx(F, nsid, X_var(F, p));
        LcuExpr *from = X_idx_in(F, idx, seg);
        /* Only the lengths' read nl can fail.  Where idx holds a bad
         * position, that read stops the program (the interpreter) or
         * records the error and gives 0 (compiled code), so no p lies in
         * that segment: the offsets' read and the element gather below are
         * in range by construction, and fusion may inline the gather at an
         * in-range subscript (fu_pdg.c, map_is_view). */
        LcuExpr *body = X_bin(F, LOP_ADD, X_idx_in(F, offs, from),
                              X_bin(F, LOP_SUB, X_var(F, p), X_idx_in(F, noffs, X_idx(F, nsid, X_var(F, p)))));
        Sym iidx = fl_map(F, LB_INT, p, body, X_len(F, nsid));
        out[0] = nsd;
        gather_into(F, t->elem, c + 1, iidx, out + 1, true, perm, rest ? rest + 1 : NULL, 0);
        return;
    }
    case TY_FUNID: case TY_VAR:
        break;
    }
    ICE("flatten: gather over a bad type");
}

static FVal gather(Fl *F, Type *t, const Sym *c, Sym idx, bool inrange, bool perm, const Sym *rest, Sym total)
{
    int n = fv_arity(t, true);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(n ? n : 1));
    gather_into(F, t, c, idx, out, inrange, perm, rest, total);
    return fv_make(F, t, true, n, out);
}

FVal rep_gather(Fl *F, Type *t, const Sym *c, Sym idx) { return gather(F, t, c, idx, false, false, NULL, 0); }
FVal rep_gather_in(Fl *F, Type *t, const Sym *c, Sym idx) { return gather(F, t, c, idx, true, false, NULL, 0); }
FVal rep_permute_in(Fl *F, Type *t, const Sym *c, Sym idx) { return gather(F, t, c, idx, true, true, NULL, 0); }
FVal rep_gather_rest_in(Fl *F, Type *t, const Sym *c, Sym idx, const Sym *rest)
{
    return gather(F, t, c, idx, true, false, rest, 0);
}
FVal rep_gather_total_in(Fl *F, Type *t, const Sym *c, Sym idx, Sym total)
{
    if (type_prune(t)->kind != TY_SEQ) ICE("flatten: a known total for a gather of a non-sequence");
    return gather(F, t, c, idx, true, false, NULL, total);
}

/* ---- filter: the elements where flags holds, for values without
 * nested sequences (one FILTER per component); false otherwise ---- */
static bool has_seq(Fl *F, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: return false;
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps);
        for (int i = 0; i < np; i++)
            if (has_seq(F, ps[i])) return true;
        return false;
    }
    case TY_SEQ: case TY_FUNID: case TY_VAR: return true;
    }
    return true;
}

/* The scalar bases of t's components, in component order. */
static void bases_into(Fl *F, Type *t, LcuBase *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: out[0] = base_of(t); return;
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps), off = 0;
        for (int i = 0; i < np; i++) {
            bases_into(F, ps[i], out + off);
            off += fv_arity(ps[i], true);
        }
        return;
    }
    case TY_SEQ: case TY_FUNID: case TY_VAR: ICE("flatten: bases_into of a sequence");
    }
}

/* The bases of t's k components where t has some and no sequence in it
 * (one vector a component), else NULL. */
static LcuBase *flat_bases(Fl *F, Type *t, int *k)
{
    *k = fv_arity(t, true);
    if (*k == 0 || has_seq(F, t)) return NULL;
    LcuBase *bs = arena_alloc(F->a, sizeof *bs * (size_t)*k);
    bases_into(F, t, bs);
    return bs;
}

bool rep_filter_flat(Fl *F, Type *t, const Sym *c, Sym flags, LcuExpr *n, FVal *out)
{
    int k;
    LcuBase *bs = flat_bases(F, t, &k);
    if (!bs) return false;
    Sym *r = arena_alloc(F->a, sizeof *r * (size_t)k);
    fl_filter_elems(F, k, bs, c, flags, n, r);
    *out = fv_make(F, t, true, k, r);
    return true;
}

/* ---- segment by segment: each segment's a part, then its b part ----
 * For values without nested sequences (false otherwise): one MAP per
 * component, over the new descriptor's total, that reads a or b directly
 * at a position marked pos_in (within the segment's part).  Concatenating
 * and then permuting the concatenation (p_append's general form) reads the
 * same elements, but the marked positions let fusion read the segment id
 * of an inlined producer as the segment at hand (doc/fusion.md, "Known
 * segments") instead of storing the segment ids to look it up. */
bool rep_interleave_flat(Fl *F, Type *t, const SegParts *sp, FVal *out)
{
    int k;
    LcuBase *bs = flat_bases(F, t, &k);
    if (!bs) return false;
    Sym *r = arena_alloc(F->a, sizeof *r * (size_t)k);
    for (int c = 0; c < k; c++) {
        Sym p = fl_fresh(F, "p");
#define SEG X_idx(F, sp->nsid, X_var(F, p))
#define POS X_bin(F, LOP_SUB, X_var(F, p), X_idx_in(F, sp->noffs, SEG))
        LcuExpr *la = X_idx_in(F, sp->la, SEG);
        LcuExpr *at_a = X_bin(F, LOP_ADD, X_idx_in(F, sp->oa, SEG), X_call2(F, "pos_in", POS, X_idx_in(F, sp->la, SEG)));
        LcuExpr *at_b = X_bin(F, LOP_ADD, X_idx_in(F, sp->ob, SEG),
                              X_call2(F, "pos_in", X_bin(F, LOP_SUB, POS, X_idx_in(F, sp->la, SEG)), X_idx_in(F, sp->lb, SEG)));
        LcuExpr *body = X_if(F, X_bin(F, LOP_LT, POS, la), X_idx_in(F, sp->a[c], at_a), X_idx_in(F, sp->b[c], at_b));
#undef SEG
#undef POS
        r[c] = fl_map(F, bs[c], p, body, X_len(F, sp->nsid));
    }
    *out = fv_make(F, t, true, k, r);
    return true;
}

/* ---- two sequences a segment: a lifted [a, b] of sequences ----
 * zip_sd (sa, sb) has a's segment k at 2k and b's at 2k + 1, its offsets
 * taken from a's and b's without a scan.  For elements without nested
 * sequences (false otherwise), one MAP per component over the new total
 * reads a or b directly at a position marked pos_in, as
 * rep_interleave_flat does: no concatenation of the parts, no permutation
 * index, and no make_sd of permuted lengths. */
bool rep_zip_flat(Fl *F, Type *t, const Sym *a, const Sym *b, Sym *zsd, FVal *out)
{
    int k;
    LcuBase *bs = flat_bases(F, t, &k);
    if (!bs) return false;
    Sym la = fl_sd_lengths(F, a[0]), oa = fl_sd_offsets(F, a[0]);
    Sym lb = fl_sd_lengths(F, b[0]), ob = fl_sd_offsets(F, b[0]);
    Sym z = fl_zip_sd(F, a[0], b[0]);
    Sym zid = fl_sd_segids(F, z), zoffs = fl_sd_offsets(F, z);
    Sym *r = arena_alloc(F->a, sizeof *r * (size_t)k);
    for (int c = 0; c < k; c++) {
        Sym p = fl_fresh(F, "p");
#define SEG X_idx(F, zid, X_var(F, p))
#define PAIR X_bin(F, LOP_DIV, SEG, X_int(F, 2))
#define POS X_bin(F, LOP_SUB, X_var(F, p), X_idx_in(F, zoffs, SEG))
        LcuExpr *at_a = X_bin(F, LOP_ADD, X_idx_in(F, oa, PAIR), X_call2(F, "pos_in", POS, X_idx_in(F, la, PAIR)));
        LcuExpr *at_b = X_bin(F, LOP_ADD, X_idx_in(F, ob, PAIR), X_call2(F, "pos_in", POS, X_idx_in(F, lb, PAIR)));
        LcuExpr *is_a = X_bin(F, LOP_EQ, X_bin(F, LOP_MOD, SEG, X_int(F, 2)), X_int(F, 0));
        LcuExpr *body = X_if(F, is_a, X_idx_in(F, a[1 + c], at_a), X_idx_in(F, b[1 + c], at_b));
#undef SEG
#undef PAIR
#undef POS
        r[c] = fl_map(F, bs[c], p, body, X_len(F, zid));
    }
    *zsd = z;
    *out = fv_make(F, t, true, k, r);
    return true;
}

/* ---- concat ---- */
static void concat_into(Fl *F, Type *t, const Sym *a, LcuExpr *na, const Sym *b, LcuExpr *nb, Sym *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: {
        /* na and nb are #a and #b (rep_concat's callers), so both reads
         * are in range by construction */
        Sym i = fl_fresh(F, "i");
        LcuExpr *body = X_if(F, X_bin(F, LOP_LT, X_var(F, i), na), X_idx_in(F, a[0], X_var(F, i)),
                             X_idx_in(F, b[0], X_bin(F, LOP_SUB, X_var(F, i), na)));
        out[0] = fl_map(F, base_of(t), i, body, X_bin(F, LOP_ADD, na, nb));
        return;
    }
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps), off = 0;
        for (int i = 0; i < np; i++) {
            concat_into(F, ps[i], a + off, na, b + off, nb, out + off);
            off += fv_arity(ps[i], true);
        }
        return;
    }
    case TY_SEQ: {
        Sym ta = fl_sd_total(F, a[0]);
        Sym tb = fl_sd_total(F, b[0]);
        out[0] = fl_cat_sd(F, a[0], b[0]);
        concat_into(F, t->elem, a + 1, X_var(F, ta), b + 1, X_var(F, tb), out + 1);
        return;
    }
    case TY_FUNID: case TY_VAR:
        break;
    }
    ICE("flatten: concat over a bad type");
}

FVal rep_concat(Fl *F, Type *t, const Sym *c1, LcuExpr *n1, const Sym *c2, LcuExpr *n2)
{
    int n = fv_arity(t, true);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(n ? n : 1));
    concat_into(F, t, c1, n1, c2, n2, out);
    return fv_make(F, t, true, n, out);
}

/* ---- empty, singleton, dist ---- */
static void empty_into(Fl *F, Type *t, bool lifted, Sym *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM:
        out[0] = lifted ? fl_empty(F, base_of(t)) : fl_emit(F, T_base(F, base_of(t)), X_default(F, base_of(t)));
        return;
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps), off = 0;
        for (int i = 0; i < np; i++) {
            empty_into(F, ps[i], lifted, out + off);
            off += fv_arity(ps[i], lifted);
        }
        return;
    }
    case TY_SEQ:
        if (lifted) {
            Sym l = fl_empty(F, LB_INT);
            out[0] = fl_make_sd_total(F, l, X_int(F, 0));
            out++;
        }
        empty_into(F, t->elem, true, out);
        return;
    case TY_FUNID: case TY_VAR:
        break;
    }
    ICE("flatten: empty value of a bad type");
}

FVal rep_empty(Fl *F, Type *t, bool lifted)
{
    int n = fv_arity(t, lifted);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(n ? n : 1));
    empty_into(F, t, lifted, out);
    return fv_make(F, t, lifted, n, out);
}

/* Unlifted components -> lifted components of count 1. */
static void single_into(Fl *F, Type *t, const Sym *c, Sym *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: {
        LcuExpr **e = arena_alloc(F->a, sizeof *e);
        e[0] = X_var(F, c[0]);
        out[0] = fl_emit(F, T_vec(F, base_of(t)), lcu_e_veclit(F->a, (Span){ 0 }, 1, e));
        return;
    }
    case TY_PAIR: case TY_DATA: case TY_FUN: {
        Type **ps;
        int np = parts(F, t, &ps), ou = 0, ol = 0;
        for (int i = 0; i < np; i++) {
            single_into(F, ps[i], c + ou, out + ol);
            ou += fv_arity(ps[i], false);
            ol += fv_arity(ps[i], true);
        }
        return;
    }
    case TY_SEQ: {
        FVal s = fv_make(F, t, false, fv_arity(t, false), (Sym *)c);
        LcuExpr **e = arena_alloc(F->a, sizeof *e);
        e[0] = fv_count(F, s);   /* a variable */
        Sym l = fl_emit(F, T_vec(F, LB_INT), lcu_e_veclit(F->a, (Span){ 0 }, 1, e));
        out[0] = fl_make_sd_total(F, l, X_var(F, e[0]->u.var));
        memcpy(out + 1, c, sizeof *out * (size_t)s.n);
        return;
    }
    case TY_FUNID: case TY_VAR:
        break;
    }
    ICE("flatten: singleton of a bad type");
}

FVal rep_singleton(Fl *F, FVal v)
{
    int n = fv_arity(v.type, true);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(n ? n : 1));
    single_into(F, v.type, v.c, out);
    return fv_make(F, v.type, true, n, out);
}

FVal rep_dist(Fl *F, FVal v, LcuExpr *n)
{
    Type *t = type_prune(v.type);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: {
        Sym *o = arena_alloc(F->a, sizeof *o);
        o[0] = fl_dist(F, base_of(t), X_var(F, v.c[0]), n);
        return fv_make(F, t, true, 1, o);
    }
    case TY_SEQ:   /* a uniform descriptor (segdesc.c) */
        return fl_dist_seq(F, v, n);
    default: break;
    }
    /* Composite: gather n copies of the singleton. */
    FVal one = rep_singleton(F, v);
    Sym i = fl_fresh(F, "i");
    Sym zeros = fl_map(F, LB_INT, i, X_int(F, 0), n);
    return rep_gather_in(F, t, one.c, zeros);
}

FVal fv_direct(Fl *F, FVal v)
{
    if (!v.via) return v;
    return rep_gather_in(F, v.type, v.c, v.via);
}

FVal materialize(Fl *F, const Ctx *cx, FVal v)
{
    if (v.lifted) return v;
    if (!cx->lifted) ICE("flatten: materialize outside a lifted context");
    return rep_dist(F, v, X_var(F, cx->count));
}

/* ---- sequences ---- */
FVal seq_of_elems(Fl *F, Type *seqt, FVal elems)
{
    return fv_make(F, seqt, false, elems.n, elems.c);
}

FVal elems_of_seq(Fl *F, FVal seq)
{
    return fv_make(F, type_prune(seq.type)->elem, true, seq.n, seq.c);
}

Sym lseq_sd(FVal lseq) { return lseq.c[0]; }

FVal lseq_elems(Fl *F, FVal lseq)
{
    return fv_make(F, type_prune(lseq.type)->elem, true, lseq.n - 1, lseq.c + 1);
}

FVal lseq_make(Fl *F, Type *seqt, Sym sd, FVal elems)
{
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(elems.n + 1));
    c[0] = sd;
    memcpy(c + 1, elems.c, sizeof *c * (size_t)elems.n);
    return fv_make(F, seqt, true, elems.n + 1, c);
}

FVal fl_emit_if(Fl *F, Type *t, bool lifted, LcuExpr *cond, LcuExpr *then_b, LcuExpr *else_b)
{
    PtrVec ts = { 0 };
    flat_layout(F->a, t, lifted, &ts);
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items, X_if(F, cond, then_b, else_b));
    return fv_make(F, t, lifted, ts.len, c);
}
