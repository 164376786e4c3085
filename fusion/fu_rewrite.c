/* fu_rewrite.c — fusing the SOACs of a merged kernel (the λcu paper's
 * Fig. 5 and horizontal tupling), repeated until nothing changes:
 *
 *   MAP ⊕ S          a MAP's elements are computed where S reads them: its
 *                    pull thunk is inlined at each subscript (bound once by a
 *                    let at the top of a thunk that reads it only at its own
 *                    index; a view also at in-range subscripts v.[e]), #A
 *                    becomes the MAP's size
 *   FILTER ⊕ REDUCE  the REDUCE runs over the FILTER's index space, filtered
 *                    out elements contribute the identity
 *   FILTER ⊕ FILTER  one FILTER with the conjunction of the predicates
 *   FILTER ⊕ MAP, PARTITION ⊕ MAP  the MAP's elements become more results
 *                    of the FILTER (of the PARTITION's part it reads)
 *   PERMUTE ⊕ PERMUTE  one PERMUTE with the composed index thunks
 *   REDUCE ⊕ ONCE    the ONCE reads the scalar in the same kernel (no rewrite)
 *   tupling          two MAPs, REDUCEs or SCANs (or SEG_REDUCEs/SEG_SCANs)
 *                    over the same size become one with a tuple result
 *   dead SOACs       results nothing reads are dropped (SOACs are pure)
 *
 * The preconditions of the index-space rules are those fu_pdg.c checked
 * before offering the pair to the scheduler. */
#include <string.h>
#include "fu_impl.h"


#define MAX_THUNK_NODES 4000     /* stop inlining before code size explodes */

/* known: KnownPos *, the names view_at bound to a position in a known segment */
typedef struct Rw { Fu *F; LcuKernel *k; NameSet *taken; const NameSet *views; SameSize same; void *ctx; PtrVec known; } Rw;
typedef struct KnownPos { Sym name; Sym sd; const LcuExpr *seg; } KnownPos;

static bool in_list(int n, const Sym *v, Sym x)
{
    for (int i = 0; i < n; i++) if (v[i] == x) return true;
    return false;
}

static bool arg_mentions(Rw *R, const LcuArg *g, int n, const Sym *xs)
{
    PtrVec fv = { 0 };
    fu_free_vars_arg(R->F, g, &fv);
    for (int i = 0; i < fv.len; i++) if (in_list(n, xs, fv.items[i])) return true;
    return false;
}

static bool bind_mentions(Rw *R, const LcuKBind *b, int n, const Sym *xs)
{
    for (int i = 0; i < b->soac->nargs; i++) if (arg_mentions(R, b->soac->args[i], n, xs)) return true;
    for (int i = 0; b->soac->kept && i < n; i++) if (fu_mentions(R->F, b->soac->kept, xs[i])) return true;
    return false;
}

static LcuExpr *plain_copy(Rw *R, const LcuExpr *e)
{
    Copier c = { R->F, R->taken, NULL, false, NULL, NULL, NULL };
    return fu_copy(&c, e, NULL);
}

/* let (t1, ..., tn) = rhs in body, with n names. */
/* let names = rhs in body; the names are copied into the arena (lcu_bind
 * keeps the array, and callers may pass one on their stack). */
static LcuExpr *mk_let(Rw *R, Span sp, int n, const Sym *names, LcuExpr *rhs, LcuExpr *body)
{
    Sym *vars = arena_alloc(R->F->a, sizeof *vars * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) vars[i] = names[i];
    return lcu_e_let(R->F->a, sp, lcu_bind(R->F->a, sp, n, vars, NULL, rhs), body);
}

/* The body of thunk t applied to index idx, all binders fresh. */
static LcuExpr *apply_thunk(Rw *R, const LcuThunk *t, int nargs, LcuExpr **args, Span sp)
{
    Copier c = { R->F, R->taken, NULL, true, NULL, NULL, NULL };
    const Sub *s = NULL;
    PtrVec lets = { 0 };
    Sym *names = arena_alloc(R->F->a, sizeof *names * (size_t)(nargs ? nargs : 1));
    for (int i = 0; i < nargs && i < t->nparams; i++) {
        const LcuExpr *a = args[i];
        bool simple = a->kind == LE_VAR || a->kind == LE_INT || a->kind == LE_FLOAT || a->kind == LE_BOOL || a->kind == LE_CHAR;
        if (simple && a->kind == LE_VAR) { s = sub_add(R->F, s, t->params[i], a->u.var, NULL); continue; }
        if (simple) { s = sub_add(R->F, s, t->params[i], NULL, a); continue; }
        names[lets.len] = fu_fresh(R->F, R->taken, t->params[i]);
        s = sub_add(R->F, s, t->params[i], names[lets.len], NULL);
        ptrvec_push(R->F->a, &lets, args[i]);
    }
    LcuExpr *body = fu_copy(&c, t->body, s);
    for (int i = lets.len - 1; i >= 0; i--) body = mk_let(R, sp, 1, &names[i], lets.items[i], body);
    return body;
}

/* Component `comp` of an n-component expression. */
static LcuExpr *component(Rw *R, LcuExpr *e, int n, int comp, Sym base, Span sp)
{
    if (n == 1) return e;
    if (e->kind == LE_TUPLE && e->u.tuple.n == n) return e->u.tuple.elems[comp];
    Sym *ts = arena_alloc(R->F->a, sizeof *ts * (size_t)n);
    for (int i = 0; i < n; i++) ts[i] = fu_fresh(R->F, R->taken, base);
    return mk_let(R, sp, n, ts, e, lcu_e_var(R->F->a, sp, ts[comp]));
}

/* nb binds A's results, then B's (types: the checker's, again). */
static void concat_vars(Rw *R, LcuKBind *nb, const LcuKBind *A, const LcuKBind *B)
{
    int na = A->nvars, nbv = B->nvars;
    nb->nvars = na + nbv;
    nb->vars = arena_alloc(R->F->a, sizeof(Sym) * (size_t)(na + nbv));
    memcpy(nb->vars, A->vars, sizeof(Sym) * (size_t)na);
    memcpy(nb->vars + na, B->vars, sizeof(Sym) * (size_t)nbv);
    nb->var_spans = arena_alloc(R->F->a, sizeof(Span) * (size_t)(na + nbv));
    for (int i = 0; i < na + nbv; i++) nb->var_spans[i] = i < na ? A->var_spans[i] : B->var_spans[i - na];
    nb->types = NULL;
}

/* ------------------------------------------------------------------ MAP ⊕ S */

/* Only reads at the consumer's own index over the MAP's size are inlined:
 * those are in range, so inlining cannot hide a subscript error (a read at
 * another index keeps the MAP materialized); a view (fu_pdg.c, all of A's
 * results in R->views) also at in-range subscripts v.[e], at any index. */
typedef struct Inl { Rw *R; const LcuKBind *A; Sym *cse; Sym safe; bool view; bool did; } Inl;

static bool all_views(Rw *R, const LcuKBind *A)
{
    for (int i = 0; i < A->nvars; i++) if (!R->views || !nameset_has(R->views, A->vars[i])) return false;
    return true;
}

/* A view's pull read elsewhere than at the reader's own index: its own
 * subscripts v[i] become in range.  A view cannot fail (fu_pdg.c), so
 * each such v has the view's size, and the reader's index is in range
 * of that size; left checked, a view inlined into a view that is
 * inlined in turn would be read at a checked subscript, which the
 * rewrite does not inline (a lifted `++` over a gather by segment).
 * Known segments: where the view is read at offsets (s).[k] + pos_in (r,
 * lengths (s).[k]), a position in segment k of s, its own reads of
 * segids (s) are k (sd, seg below), so no segment ids are stored to be
 * looked up at computed positions. */
typedef struct OwnRead { Fu *F; Sym own; Sym sd; const LcuExpr *seg; } OwnRead;

static LcuExpr *own_read_inrange(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp)
{
    OwnRead *o = c->ctx;
    if (idx->kind != LE_VAR || idx->u.var != o->own) return NULL;
    const SdAccess *acc = o->sd ? fu_sd_access(o->F, vec) : NULL;
    if (acc && acc->kind == SD_SEGIDS && acc->sd == o->sd) {
        Copier plain = { o->F, NULL, NULL, false, NULL, NULL, NULL };
        return fu_copy(&plain, o->seg, NULL);
    }
    return inrange ? NULL : lcu_e_index(c->F->a, sp, vec, sp, idx, true);
}

static bool same_expr(const LcuExpr *x, const LcuExpr *y)
{
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case LE_VAR: return x->u.var == y->u.var;
    case LE_INT: return x->u.i == y->u.i;
    case LE_INDEX: return x->u.index.vec == y->u.index.vec && same_expr(x->u.index.idx, y->u.index.idx);
    case LE_BINOP: return x->u.bin.op == y->u.bin.op && same_expr(x->u.bin.l, y->u.bin.l) && same_expr(x->u.bin.r, y->u.bin.r);
    default: return false;
    }
}

/* Is e offsets (s).[k] + pos_in (r, lengths (s).[k]), or a name bound to
 * such a position?  Then s, and k in *seg. */
static Sym known_segment(Rw *R, const LcuExpr *e, const LcuExpr **seg)
{
    Fu *F = R->F;
    if (e->kind == LE_VAR)
        for (int i = 0; i < R->known.len; i++) {
            const KnownPos *kp = R->known.items[i];
            if (kp->name == e->u.var) { *seg = kp->seg; return kp->sd; }
        }
    if (e->kind != LE_BINOP || e->u.bin.op != LOP_ADD) return NULL;
    const LcuExpr *o = e->u.bin.l, *p = e->u.bin.r;
    if (o->kind != LE_INDEX || p->kind != LE_CALL || strcmp(p->u.call.name, "pos_in") || p->u.call.nargs != 2) return NULL;
    const LcuExpr *l = p->u.call.args[1];
    if (l->kind != LE_INDEX || !same_expr(o->u.index.idx, l->u.index.idx)) return NULL;
    const SdAccess *ao = fu_sd_access(F, o->u.index.vec), *al = fu_sd_access(F, l->u.index.vec);
    if (!ao || !al || ao->kind != SD_OFFSETS || al->kind != SD_LENGTHS || ao->sd != al->sd) return NULL;
    *seg = o->u.index.idx;
    return ao->sd;
}

/* The pull of a view inlined at idx: own reads in range, and segids (s)
 * read as k where idx is a known segment's position.  (Not where k
 * mentions a name of the thunk: substituted for the parameter or under a
 * renamed binder, it would change meaning.) */
static const LcuThunk *view_pull(Rw *R, const LcuThunk *t, const LcuExpr *idx, Sym *known_sd, const LcuExpr **seg)
{
    *known_sd = NULL;
    if (t->nparams != 1) return t;
    OwnRead o = { R->F, t->params[0], NULL, NULL };
    o.sd = known_segment(R, idx, &o.seg);
    if (o.sd) {
        NameSet names = { 0 };
        fu_all_names_expr(R->F, t->body, &names);
        nameset_add(R->F->a, &names, t->params[0]);
        PtrVec fv = { 0 };
        fu_free_vars_expr(R->F, o.seg, &fv);
        for (int i = 0; i < fv.len && o.sd; i++)
            if (nameset_has(&names, fv.items[i])) o.sd = NULL;
    }
    Copier c = { R->F, R->taken, NULL, false, own_read_inrange, NULL, &o };
    *known_sd = o.sd;
    *seg = o.seg;
    return lcu_thunk(R->F->a, t->span, 1, t->params, fu_copy(&c, t->body, NULL), 0, NULL);
}

/* View A's pull at a subscript idx other than the reader's own index.  A
 * known segment's position is bound to a fresh name, remembered (a view
 * the pull reads is inlined at that name next: the gather through an
 * index MAP). */
static LcuExpr *view_at(Rw *R, const LcuKBind *A, LcuExpr *idx, Span sp)
{
    const LcuThunk *t = A->soac->args[0]->u.thunk;
    Sym sd;
    const LcuExpr *seg;
    const LcuThunk *pull = view_pull(R, t, idx, &sd, &seg);
    LcuExpr *args[1] = { idx };
    if (!sd || idx->kind == LE_VAR) return apply_thunk(R, pull, 1, args, sp);
    Sym nm = fu_fresh(R->F, R->taken, t->params[0]);
    KnownPos *kp = arena_alloc(R->F->a, sizeof *kp);
    *kp = (KnownPos){ nm, sd, seg };
    ptrvec_push(R->F->a, &R->known, kp);
    args[0] = lcu_e_var(R->F->a, sp, nm);
    return mk_let(R, sp, 1, &nm, idx, apply_thunk(R, pull, 1, args, sp));
}

static LcuExpr *on_index_map(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp)
{
    Inl *in = c->ctx;
    const LcuKBind *A = in->A;
    for (int comp = 0; comp < A->nvars; comp++) {
        if (A->vars[comp] != vec) continue;
        bool own = in->safe && idx->kind == LE_VAR && idx->u.var == in->safe;
        if (!own && !(inrange && in->view)) return NULL;
        in->did = true;
        if (!own) return component(in->R, view_at(in->R, A, idx, sp), A->nvars, comp, A->vars[comp], sp);
        if (in->cse) return lcu_e_var(in->R->F->a, sp, in->cse[comp]);
        LcuExpr *args[1] = { idx };
        LcuExpr *body = apply_thunk(in->R, A->soac->args[0]->u.thunk, 1, args, sp);
        return component(in->R, body, A->nvars, comp, A->vars[comp], sp);
    }
    return NULL;
}

static LcuExpr *on_len_map(Copier *c, Sym vec, Span sp)
{
    Inl *in = c->ctx;
    (void)sp;
    if (!in_list(in->A->nvars, in->A->vars, vec)) return NULL;
    in->did = true;
    return plain_copy(in->R, soac_size_arg(in->A->soac)->u.expr);
}

static LcuArg *inline_map_arg(Rw *R, const LcuKBind *A, const LcuKBind *B, int argno, bool *did)
{
    const LcuArg *g = B->soac->args[argno];
    Inl in = { R, A, NULL, NULL, all_views(R, A), false };
    Copier c = { R->F, R->taken, NULL, false, on_index_map, on_len_map, &in };
    if (g->kind == LA_THUNK) {
        const LcuThunk *t = g->u.thunk;
        /* pull thunks (and PERMUTE's index thunk) range over 0..size-1, and
         * so does a predicate's parameter for a pulled index */
        LcuSoacKind bk = B->soac->kind;
        Sym own = soac_index_param(B->soac, argno);
        if (own) {
            /* B's index space: its size, or total (s) for a SEG_ SOAC over s */
            const LcuArg *space = soac_size_arg(B->soac);
            LcuArg total;
            if (bk >= LS_SEG_PERMUTE) {
                LcuExpr **sd = arena_alloc(R->F->a, sizeof *sd);   /* lcu_e_call keeps the array */
                sd[0] = plain_copy(R, space->u.expr);
                total = (LcuArg){ LA_EXPR, g->span, { .expr = lcu_e_call(R->F->a, g->span, intern_cstr(R->F->in, "total"), 1, sd) } };
                space = &total;
            }
            LcuArg len = { LA_EXPR, g->span, { .expr = lcu_e_len(R->F->a, g->span, A->vars[0], false) } };
            if (R->same(R->ctx, space, &len) || R->same(R->ctx, space, soac_size_arg(A->soac)))
                in.safe = own;
        }
        const LcuThunk *pull = A->soac->args[0]->u.thunk;
        /* read only at the thunk's own index, over the MAP's size, and worth
         * sharing: bound once at the top.  Evaluating it where the thunk
         * would not (an untaken branch) is safe: the MAP computed every
         * element of that index space. */
        if (in.safe && lcu_expr_size(pull->body) > 4 && arg_mentions(R, g, A->nvars, A->vars)
            && thunk_reads_only_at(R->F, t, in.safe, A->nvars, A->vars, false)) {
            in.cse = arena_alloc(R->F->a, sizeof(Sym) * (size_t)A->nvars);
            for (int i = 0; i < A->nvars; i++) in.cse[i] = fu_fresh(R->F, R->taken, A->vars[i]);
            LcuExpr *idx = lcu_e_var(R->F->a, t->span, in.safe);
            LcuExpr *args[1] = { idx };
            LcuExpr *val = apply_thunk(R, pull, 1, args, t->span);
            LcuExpr *body = fu_copy(&c, t->body, NULL);
            body = mk_let(R, t->span, A->nvars, in.cse, val, body);
            *did = true;
            LcuArg *n = lcu_arg_thunk(R->F->a, lcu_thunk(R->F->a, t->span, t->nparams, t->params, body, 0, NULL));
            n->span = g->span;
            return n;
        }
        LcuArg *n = lcu_arg_thunk(R->F->a, lcu_thunk(R->F->a, t->span, t->nparams, t->params, fu_copy(&c, t->body, NULL), 0, NULL));
        n->span = g->span;
        *did |= in.did;
        return n;
    }
    LcuArg *n = lcu_arg_expr(R->F->a, g->span, fu_copy(&c, g->u.expr, NULL));
    *did |= in.did;
    return n;
}

/* B's kept with A inlined as in its value arguments (it reads only the
 * kernel's parameters, so in a checked kernel nothing changes). */
static LcuExpr *inline_map_kept(Rw *R, const LcuKBind *A, const LcuExpr *kept, bool *did)
{
    Inl in = { R, A, NULL, NULL, all_views(R, A), false };
    Copier c = { R->F, R->taken, NULL, false, on_index_map, on_len_map, &in };
    LcuExpr *e = fu_copy(&c, kept, NULL);
    *did |= in.did;
    return e;
}

/* One MAP, the latest that can be inlined, into each SOAC that reads it.
 * Latest first: by the time a producer is inlined, those of its readers
 * that were MAPs are inlined into their own readers (and dropped as dead
 * by the caller), so a producer read by a chain of MAPs that ends in one
 * SOAC is copied into that SOAC once, bound at the top (inline_map_arg),
 * not once per reader and again per reader's reader (cnd's k in
 * Black-Scholes: 310 copies of its guards in one thunk, earliest first). */
static bool inline_maps(Rw *R)
{
    LcuKernel *k = R->k;
    for (int a = k->nbinds - 1; a >= 0; a--) {
        bool changed = false;
        const LcuKBind *A = k->binds[a];
        if (A->soac->kind != LS_MAP || lcu_has_loop(A->soac->args[0]->u.thunk->body)) continue;
        for (int b = a + 1; b < k->nbinds; b++) {
            LcuKBind *B = k->binds[b];
            if (!bind_mentions(R, B, A->nvars, A->vars)) continue;
            LcuArg **args = arena_alloc(R->F->a, sizeof *args * (size_t)B->soac->nargs);
            bool small = true, did = false;
            for (int i = 0; i < B->soac->nargs; i++) {
                args[i] = inline_map_arg(R, A, B, i, &did);
                if (args[i]->kind == LA_THUNK && lcu_expr_size(args[i]->u.thunk->body) > MAX_THUNK_NODES) small = false;
            }
            LcuExpr *kept = B->soac->kept ? inline_map_kept(R, A, B->soac->kept, &did) : NULL;
            if (!small || !did) continue;
            LcuKBind *nb = arena_alloc(R->F->a, sizeof *nb);
            *nb = *B;
            nb->soac = lcu_soac(R->F->a, B->soac->span, B->soac->kind, B->soac->nargs, args);
            nb->soac->kept = kept;
            k->binds[b] = nb;
            changed = true;
        }
        if (changed) return true;
    }
    return false;
}

/* ------------------------------------------------------------------ index-space rules */

typedef struct Repl { Rw *R; int n; const Sym *vars; const Sym *to; Sym r; } Repl;

/* a_c[r] -> t_c */
static LcuExpr *on_index_repl(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp)
{
    (void)inrange;
    Repl *p = c->ctx;
    for (int i = 0; i < p->n; i++)
        if (p->vars[i] == vec) {
            if (idx->kind != LE_VAR || idx->u.var != p->r) ICE("fusion: index-space rule on a read at another index");
            return lcu_e_var(p->R->F->a, sp, p->to[i]);
        }
    return NULL;
}

static bool size_is_len_of(Rw *R, const LcuKBind *A, const LcuArg *sz)
{
    if (sz->kind == LA_EXPR && sz->u.expr->kind == LE_LEN && in_list(A->nvars, A->vars, sz->u.expr->u.len.vec)) return true;
    LcuArg len = { LA_EXPR, sz->span, { .expr = lcu_e_len(R->F->a, sz->span, A->vars[0], false) } };
    return R->same(R->ctx, sz, &len);
}

/* The element results of a FILTER or SEG_FILTER (the latter's last result
 * is its descriptor). */
static int elems_of(const LcuKBind *A)
{
    switch (A->soac->kind) {
    case LS_SEG_FILTER: return A->nvars - 1;
    case LS_PARTITION: return A->nvars / 2;   /* (true part.., false part..) */
    default: return A->nvars;
    }
}

/* The part of PARTITION A's results that B reads (-1: both or neither). */
static int part_read(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    int ne = elems_of(A);
    bool t = bind_mentions(R, B, ne, A->vars), f = bind_mentions(R, B, ne, A->vars + ne);
    return t == f ? -1 : t ? 0 : 1;
}

/* Can B take the index space of A (B reads A only at its own index)? */
static bool index_space_ok(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    if (A->soac->kind == LS_SEG_FILTER) {
        int ne = elems_of(A);
        return arg_mentions(R, B->soac->args[0], ne, A->vars)
            && seg_filter_consumer_ok(R->F, B->soac, ne, A->vars, A->vars[ne]);
    }
    const LcuSoac *so = B->soac;
    if (A->soac->kind == LS_PARTITION) {   /* B over the part it reads, which is one */
        int ne = elems_of(A), part = part_read(R, A, B);
        if (part < 0 || so->args[0]->kind != LA_THUNK) return false;
        const Sym *pv = A->vars + part * ne;
        if (!thunk_reads_only_at_param(R->F, so->args[0]->u.thunk, ne, pv, true)) return false;
        const LcuArg *sz = soac_size_arg(so);
        if (sz->kind == LA_EXPR && sz->u.expr->kind == LE_LEN && in_list(ne, pv, sz->u.expr->u.len.vec)) return true;
        LcuArg len = { LA_EXPR, sz->span, { .expr = lcu_e_len(R->F->a, sz->span, pv[0], false) } };
        return R->same(R->ctx, sz, &len);
    }
    bool filtered = A->soac->kind != LS_PERMUTE;   /* B's index and #A are not A's (fu_pdg.c, index_space_rule) */
    if (so->args[0]->kind != LA_THUNK || !thunk_reads_only_at_param(R->F, so->args[0]->u.thunk, A->nvars, A->vars, filtered)) return false;
    if (!arg_mentions(R, so->args[0], A->nvars, A->vars)) return false;
    for (int i = 1; i < so->nargs - 1; i++) if (arg_reads_beyond_len(R->F, so->args[i], A->nvars, A->vars, filtered)) return false;
    return size_is_len_of(R, A, soac_size_arg(so));
}

/* B's pull over A's index space: let (q1..qk) = A.pull(i) in BODY, where
 * BODY gets q (fresh names for A's elements) and i. */
static LcuExpr *pull_through_part(Rw *R, const LcuKBind *A, int part, const LcuThunk *bpull, Sym i, Sym *q, LcuExpr **bbody_out)
{
    Span sp = bpull->span;
    LcuExpr *iv = lcu_e_var(R->F->a, sp, i);
    LcuExpr *args[1] = { iv };
    LcuExpr *val = apply_thunk(R, A->soac->args[0]->u.thunk, 1, args, sp);
    int ne = elems_of(A);
    Repl rp = { R, ne, A->vars + part * ne, q, i };  /* the index after renaming */
    Copier c = { R->F, R->taken, NULL, false, on_index_repl, NULL, &rp };
    const Sub *s = sub_add(R->F, NULL, bpull->params[0], i, NULL);
    *bbody_out = fu_copy(&c, bpull->body, s);
    return val;
}

/* B's pull over A's index space, B reading A's elements (part 0; or, for
 * a PARTITION, the part B reads). */
static LcuExpr *pull_through(Rw *R, const LcuKBind *A, const LcuThunk *bpull, Sym i, Sym *q, LcuExpr **bbody_out)
{
    return pull_through_part(R, A, 0, bpull, i, q, bbody_out);
}

static LcuArg *thunk_arg(Rw *R, Span sp, int np, Sym *ps, LcuExpr *body)
{
    LcuArg *g = lcu_arg_thunk(R->F->a, lcu_thunk(R->F->a, sp, np, ps, body, 0, NULL));
    g->span = sp;
    return g;
}

/* A's predicate applied to q. */
static LcuExpr *pred_on(Rw *R, const LcuKBind *A, Sym *q, Span sp)
{
    int n = elems_of(A);
    LcuExpr **args = arena_alloc(R->F->a, sizeof *args * (size_t)n);
    for (int i = 0; i < n; i++) args[i] = lcu_e_var(R->F->a, sp, q[i]);
    return apply_thunk(R, A->soac->args[1]->u.thunk, n, args, sp);
}

static LcuKBind *filter_reduce(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    const LcuThunk *bpull = B->soac->args[0]->u.thunk;
    Span sp = bpull->span;
    Sym i = bpull->params[0];
    int ne = elems_of(A);
    Sym *q = arena_alloc(R->F->a, sizeof *q * (size_t)ne);
    for (int c = 0; c < ne; c++) q[c] = fu_fresh(R->F, R->taken, A->soac->args[1]->u.thunk->params[c]);
    LcuExpr *bbody;
    LcuExpr *val = pull_through(R, A, bpull, i, q, &bbody);
    LcuExpr *idn = plain_copy(R, B->soac->args[1]->u.expr);
    LcuExpr *body = mk_let(R, sp, ne, q, val, lcu_e_if(R->F->a, sp, pred_on(R, A, q, sp), bbody, idn));
    LcuArg **args = arena_alloc(R->F->a, sizeof *args * 4);
    Sym *ps = arena_alloc(R->F->a, sizeof *ps);
    ps[0] = i;
    args[0] = thunk_arg(R, sp, 1, ps, body);
    args[1] = B->soac->args[1];
    args[2] = B->soac->args[2];
    args[3] = lcu_arg_expr(R->F->a, B->soac->args[3]->span, plain_copy(R, soac_size_arg(A->soac)->u.expr));
    LcuKBind *nb = arena_alloc(R->F->a, sizeof *nb);
    *nb = *B;
    nb->soac = lcu_soac(R->F->a, B->soac->span, B->soac->kind, 4, args);
    return nb;
}

static LcuKBind *filter_filter(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    /* B's pull is exactly A's elements: keep A's pull, conjoin the predicates */
    const LcuThunk *bp = B->soac->args[1]->u.thunk;
    Span sp = bp->span;
    int n = elems_of(A);
    Sym *q = arena_alloc(R->F->a, sizeof *q * (size_t)n);
    LcuExpr **qs = arena_alloc(R->F->a, sizeof *qs * (size_t)n);
    for (int c = 0; c < n; c++) {
        q[c] = fu_fresh(R->F, R->taken, A->soac->args[1]->u.thunk->params[c]);
        qs[c] = lcu_e_var(R->F->a, sp, q[c]);
    }
    LcuExpr *pa = pred_on(R, A, q, sp);
    LcuExpr *pb = apply_thunk(R, bp, n, qs, sp);
    LcuArg **args = arena_alloc(R->F->a, sizeof *args * 3);
    args[0] = A->soac->args[0];
    args[1] = thunk_arg(R, sp, n, q, lcu_e_binop(R->F->a, sp, LOP_AND, pa, pb));
    args[2] = A->soac->args[2];
    LcuKBind *nb = arena_alloc(R->F->a, sizeof *nb);
    *nb = *B;
    /* no kept: the conjunction does not keep A's count (it keeps B's,
     * which is dropped too, simply: the flattener gives no FILTER one) */
    nb->soac = lcu_soac(R->F->a, B->soac->span, A->soac->kind, 3, args);
    return nb;
}

static LcuExpr *tuple_of(Rw *R, Span sp, LcuExpr *ea, int na, LcuExpr *eb, int nb);

/* FILTER ⊕ MAP, PARTITION ⊕ MAP: the MAP's elements are more results of
 * A, computed from its pulled elements (for every element: the predicate
 * then keeps those of the survivors).  The new SOAC binds A's results
 * too, so it takes B's place and A goes (index_space_rules).  B reads one
 * part of a PARTITION (part); the other part gets the MAP's elements
 * under fresh names that nothing reads. */
static LcuKBind *filter_map(Rw *R, const LcuKBind *A, const LcuKBind *B, int part)
{
    const LcuThunk *bpull = B->soac->args[0]->u.thunk;
    Span sp = bpull->span;
    Sym i = bpull->params[0];
    int ne = elems_of(A), nm = B->nvars;
    Sym *q = arena_alloc(R->F->a, sizeof *q * (size_t)ne);
    LcuExpr **qs = arena_alloc(R->F->a, sizeof *qs * (size_t)ne);
    for (int c = 0; c < ne; c++) {
        q[c] = fu_fresh(R->F, R->taken, A->soac->args[1]->u.thunk->params[c]);
        qs[c] = lcu_e_var(R->F->a, sp, q[c]);
    }
    LcuExpr *bbody;
    LcuExpr *val = pull_through_part(R, A, part, bpull, i, q, &bbody);
    LcuExpr *elems = ne == 1 ? qs[0] : lcu_e_tuple(R->F->a, sp, ne, qs);
    LcuExpr *pull = mk_let(R, sp, ne, q, val, tuple_of(R, sp, elems, ne, bbody, nm));
    Sym *ps = arena_alloc(R->F->a, sizeof *ps), *pp = arena_alloc(R->F->a, sizeof *pp * (size_t)(ne + nm));
    ps[0] = i;
    for (int c = 0; c < ne + nm; c++) pp[c] = fu_fresh(R->F, R->taken, c < ne ? A->soac->args[1]->u.thunk->params[c] : B->vars[c - ne]);
    LcuArg **args = arena_alloc(R->F->a, sizeof *args * 3);
    args[0] = thunk_arg(R, sp, 1, ps, pull);
    args[1] = thunk_arg(R, sp, ne + nm, pp, pred_on(R, A, pp, sp));
    args[2] = A->soac->args[2];
    LcuKBind *nb = arena_alloc(R->F->a, sizeof *nb);
    *nb = *B;
    if (A->soac->kind == LS_FILTER) {
        concat_vars(R, nb, A, B);
    } else {   /* (A's true part, its MAP elements, A's false part, its MAP elements) */
        int w = ne + nm;
        nb->nvars = 2 * w;
        nb->vars = arena_alloc(R->F->a, sizeof(Sym) * (size_t)(2 * w));
        nb->var_spans = arena_alloc(R->F->a, sizeof(Span) * (size_t)(2 * w));
        for (int p = 0; p < 2; p++)
            for (int c = 0; c < w; c++) {
                bool mine = c >= ne;   /* a MAP element */
                Sym v = !mine ? A->vars[p * ne + c] : p == part ? B->vars[c - ne] : fu_fresh(R->F, R->taken, B->vars[c - ne]);
                nb->vars[p * w + c] = v;
                nb->var_spans[p * w + c] = mine ? B->var_spans[c - ne] : A->var_spans[p * ne + c];
            }
        nb->types = NULL;
    }
    nb->soac = lcu_soac(R->F->a, B->soac->span, A->soac->kind, 3, args);
    nb->soac->kept = A->soac->kept;   /* A's predicate on A's elements: the same count */
    return nb;
}

static LcuKBind *permute_permute(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    /* B[I2(I1(i))] = f(A.pull(i)): B's pull and index thunks at j = I1(i) */
    const LcuThunk *bpull = B->soac->args[0]->u.thunk, *bidx = B->soac->args[1]->u.thunk;
    const LcuThunk *aidx = A->soac->args[1]->u.thunk;
    Span sp = bpull->span;
    Sym i = fu_fresh(R->F, R->taken, bpull->params[0]);
    Sym *q = arena_alloc(R->F->a, sizeof *q * (size_t)A->nvars);
    for (int c = 0; c < A->nvars; c++) q[c] = fu_fresh(R->F, R->taken, A->vars[c]);
    LcuExpr *iv = lcu_e_var(R->F->a, sp, i);
    LcuExpr *args1[1] = { iv };
    LcuExpr *val = apply_thunk(R, A->soac->args[0]->u.thunk, 1, args1, sp);
    Sym j = fu_fresh(R->F, R->taken, bpull->params[0]);
    Repl rp = { R, A->nvars, A->vars, q, j };
    Copier c = { R->F, R->taken, NULL, false, on_index_repl, NULL, &rp };
    LcuExpr *bbody = fu_copy(&c, bpull->body, sub_add(R->F, NULL, bpull->params[0], j, NULL));
    LcuExpr *pull = mk_let(R, sp, 1, &j, apply_thunk(R, aidx, 1, args1, sp), mk_let(R, sp, A->nvars, q, val, bbody));
    Sym i2 = fu_fresh(R->F, R->taken, bidx->params[0]);
    LcuExpr *iv2 = lcu_e_var(R->F->a, sp, i2);
    LcuExpr *args2[1] = { iv2 };
    LcuExpr *inner[1] = { apply_thunk(R, aidx, 1, args2, sp) };
    LcuExpr *index = apply_thunk(R, bidx, 1, inner, sp);
    Sym *p1 = arena_alloc(R->F->a, sizeof *p1), *p2 = arena_alloc(R->F->a, sizeof *p2);
    p1[0] = i; p2[0] = i2;
    LcuArg **args = arena_alloc(R->F->a, sizeof *args * 3);
    args[0] = thunk_arg(R, sp, 1, p1, pull);
    args[1] = thunk_arg(R, sp, 1, p2, index);
    args[2] = lcu_arg_expr(R->F->a, B->soac->args[2]->span, plain_copy(R, soac_size_arg(A->soac)->u.expr));
    LcuKBind *nb = arena_alloc(R->F->a, sizeof *nb);
    *nb = *B;
    nb->soac = lcu_soac(R->F->a, B->soac->span, LS_PERMUTE, 3, args);
    return nb;
}

static bool exact_pull_of(const LcuKBind *A, const LcuThunk *t)
{
    const LcuExpr *b = t->body;
    int m = b->kind == LE_TUPLE ? b->u.tuple.n : 1;
    if (m != elems_of(A) || t->nparams != 1) return false;
    for (int i = 0; i < m; i++) {
        const LcuExpr *x = b->kind == LE_TUPLE ? b->u.tuple.elems[i] : b;
        if (x->kind != LE_INDEX || x->u.index.vec != A->vars[i]) return false;
        if (x->u.index.idx->kind != LE_VAR || x->u.index.idx->u.var != t->params[0]) return false;
    }
    return true;
}

/* Does a SOAC between binds a and b read a's results? */
static bool mentioned_between(Rw *R, int a, int b)
{
    const LcuKBind *A = R->k->binds[a];
    for (int m = a + 1; m < b; m++) if (bind_mentions(R, R->k->binds[m], A->nvars, A->vars)) return true;
    return false;
}

static bool index_space_rules(Rw *R)
{
    LcuKernel *k = R->k;
    for (int a = 0; a < k->nbinds; a++) {
        const LcuKBind *A = k->binds[a];
        LcuSoacKind ak = A->soac->kind;
        if (ak != LS_FILTER && ak != LS_SEG_FILTER && ak != LS_PERMUTE && ak != LS_PARTITION) continue;
        for (int b = a + 1; b < k->nbinds; b++) {
            const LcuKBind *B = k->binds[b];
            LcuSoacKind bk = B->soac->kind;
            if (!bind_mentions(R, B, A->nvars, A->vars) || !index_space_ok(R, A, B)) continue;
            LcuKBind *nb = NULL;
            bool absorb = false;   /* nb binds A's results too */
            if (ak == LS_FILTER && bk == LS_REDUCE) nb = filter_reduce(R, A, B);
            else if ((ak == LS_FILTER || ak == LS_PARTITION) && bk == LS_MAP && !mentioned_between(R, a, b))   /* (index_space_ok: one part) */
                nb = filter_map(R, A, B, ak == LS_PARTITION ? part_read(R, A, B) : 0), absorb = true;
            else if (ak == LS_FILTER && bk == LS_FILTER && exact_pull_of(A, B->soac->args[0]->u.thunk)) nb = filter_filter(R, A, B);
            else if (ak == LS_PERMUTE && bk == LS_PERMUTE) nb = permute_permute(R, A, B);
            else if (ak == LS_SEG_FILTER && bk == LS_SEG_REDUCE) nb = filter_reduce(R, A, B);
            else if (ak == LS_SEG_FILTER && bk == LS_SEG_FILTER && exact_pull_of(A, B->soac->args[0]->u.thunk)) nb = filter_filter(R, A, B);
            if (!nb) continue;
            /* what is left of A in the new SOAC is #A: A's size */
            Inl in = { R, A, NULL, NULL, false, false };
            Copier c = { R->F, R->taken, NULL, false, NULL, on_len_map, &in };
            for (int i = 0; i < nb->soac->nargs; i++) {
                const LcuArg *g = nb->soac->args[i];
                if (g->kind == LA_EXPR) { nb->soac->args[i] = lcu_arg_expr(R->F->a, g->span, fu_copy(&c, g->u.expr, NULL)); continue; }
                const LcuThunk *t = g->u.thunk;
                nb->soac->args[i] = thunk_arg(R, g->span, t->nparams, t->params, fu_copy(&c, t->body, NULL));
            }
            if (nb->soac->kept) nb->soac->kept = fu_copy(&c, nb->soac->kept, NULL);
            k->binds[b] = nb;
            if (absorb) {
                memmove(&k->binds[a], &k->binds[a + 1], sizeof *k->binds * (size_t)(k->nbinds - a - 1));
                k->nbinds--;
            }
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------ dead SOACs */

static bool drop_dead(Rw *R)
{
    LcuKernel *k = R->k;
    for (int a = k->nbinds - 1; a >= 0; a--) {
        const LcuKBind *A = k->binds[a];
        bool used = false;
        for (int i = 0; i < A->nvars && !used; i++) used = in_list(k->nrets, k->rets, A->vars[i]);
        for (int b = a + 1; b < k->nbinds && !used; b++) used = bind_mentions(R, k->binds[b], A->nvars, A->vars);
        if (used) continue;
        memmove(&k->binds[a], &k->binds[a + 1], sizeof *k->binds * (size_t)(k->nbinds - a - 1));
        k->nbinds--;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ tupling */

static void splice(Rw *R, PtrVec *out, LcuExpr *e, int n, Sym base, Span sp)
{
    if (n == 1) { ptrvec_push(R->F->a, out, e); return; }
    if (e->kind == LE_TUPLE && e->u.tuple.n == n) {
        for (int i = 0; i < n; i++) ptrvec_push(R->F->a, out, e->u.tuple.elems[i]);
        return;
    }
    /* let-bind: the caller wraps; here components refer to fresh names */
    (void)base; (void)sp;
    ICE("fusion: splice of a non-tuple");
}

/* (eA..., eB...) where eX has nX components; non-tuple multi-component
 * values are bound by lets around the tuple. */
static LcuExpr *tuple_of(Rw *R, Span sp, LcuExpr *ea, int na, LcuExpr *eb, int nb)
{
    PtrVec comps = { 0 };
    LcuExpr *wrap[2] = { NULL, NULL };
    Sym *names[2] = { NULL, NULL };
    LcuExpr *es[2] = { ea, eb };
    int ns[2] = { na, nb };
    for (int s = 0; s < 2; s++) {
        if (ns[s] == 1 || (es[s]->kind == LE_TUPLE && es[s]->u.tuple.n == ns[s])) { splice(R, &comps, es[s], ns[s], NULL, sp); continue; }
        names[s] = arena_alloc(R->F->a, sizeof(Sym) * (size_t)ns[s]);
        for (int i = 0; i < ns[s]; i++) {
            names[s][i] = fu_fresh(R->F, R->taken, intern_cstr(R->F->in, "t"));
            ptrvec_push(R->F->a, &comps, lcu_e_var(R->F->a, sp, names[s][i]));
        }
        wrap[s] = es[s];
    }
    LcuExpr *body = lcu_e_tuple(R->F->a, sp, comps.len, (LcuExpr **)comps.items);
    for (int s = 1; s >= 0; s--) if (wrap[s]) body = mk_let(R, sp, ns[s], names[s], wrap[s], body);
    return body;
}

static int arity_of(const LcuKBind *b)
{
    switch (b->soac->kind) {
    case LS_MAP: case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: return b->nvars;
    default: return -1;
    }
}

/* The pull thunks of A and B as one, over A's parameter. */
static LcuArg *tuple_pulls(Rw *R, const LcuKBind *A, const LcuKBind *B, int na, int nb)
{
    const LcuThunk *ta = A->soac->args[0]->u.thunk, *tb = B->soac->args[0]->u.thunk;
    Span sp = ta->span;
    Sym i = ta->params[0];
    NameSet avoid = { 0 };
    nameset_add(R->F->a, &avoid, i);
    Copier ca = { R->F, R->taken, NULL, false, NULL, NULL, NULL };
    Copier cb = { R->F, R->taken, &avoid, false, NULL, NULL, NULL };
    LcuExpr *ea = fu_copy(&ca, ta->body, NULL);
    LcuExpr *eb = fu_copy(&cb, tb->body, sub_add(R->F, NULL, tb->params[0], i, NULL));
    Sym *ps = arena_alloc(R->F->a, sizeof *ps);
    ps[0] = i;
    return thunk_arg(R, sp, 1, ps, tuple_of(R, sp, ea, na, eb, nb));
}

static LcuExpr *tuple_exprs(Rw *R, Span sp, const LcuExpr *a, int na, const LcuExpr *b, int nb)
{
    return tuple_of(R, sp, plain_copy(R, a), na, plain_copy(R, b), nb);
}

/* Monoid operators: params (accA.., accB.., elA.., elB..). */
static LcuArg *tuple_ops(Rw *R, const LcuThunk *oa, const LcuThunk *ob, int na, int nb)
{
    Span sp = oa->span;
    int n = na + nb;
    Sym *ps = arena_alloc(R->F->a, sizeof *ps * (size_t)(2 * n));
    const Sub *sa = NULL, *sb = NULL;
    for (int c = 0; c < na; c++) {
        ps[c] = oa->params[c];
        ps[n + c] = oa->params[na + c];
    }
    NameSet used = { 0 };
    for (int c = 0; c < 2 * na; c++) nameset_add(R->F->a, &used, oa->params[c]);
    for (int c = 0; c < nb; c++) {
        Sym acc = ob->params[c], el = ob->params[nb + c];
        Sym acc2 = nameset_has(&used, acc) ? fu_fresh(R->F, R->taken, acc) : acc;
        nameset_add(R->F->a, &used, acc2);
        Sym el2 = nameset_has(&used, el) ? fu_fresh(R->F, R->taken, el) : el;
        nameset_add(R->F->a, &used, el2);
        ps[na + c] = acc2;
        ps[n + na + c] = el2;
        sb = sub_add(R->F, sb, acc, acc2, NULL);
        sb = sub_add(R->F, sb, el, el2, NULL);
    }
    Copier ca = { R->F, R->taken, &used, false, NULL, NULL, NULL };
    LcuExpr *ea = fu_copy(&ca, oa->body, sa);
    LcuExpr *eb = fu_copy(&ca, ob->body, sb);
    return thunk_arg(R, sp, 2 * n, ps, tuple_of(R, sp, ea, na, eb, nb));
}

static LcuKBind *tuple_binds(Rw *R, const LcuKBind *A, const LcuKBind *B)
{
    int na = A->nvars, nb = B->nvars;
    LcuSoac *sa = A->soac;
    LcuArg **args = arena_alloc(R->F->a, sizeof *args * (size_t)sa->nargs);
    args[0] = tuple_pulls(R, A, B, na, nb);
    if (sa->kind != LS_MAP) {
        args[1] = lcu_arg_expr(R->F->a, sa->args[1]->span, tuple_exprs(R, sa->args[1]->span, sa->args[1]->u.expr, na, B->soac->args[1]->u.expr, nb));
        args[2] = tuple_ops(R, sa->args[2]->u.thunk, B->soac->args[2]->u.thunk, na, nb);
    }
    args[sa->nargs - 1] = sa->args[sa->nargs - 1];
    LcuKBind *nb_ = arena_alloc(R->F->a, sizeof *nb_);
    *nb_ = *B;
    concat_vars(R, nb_, A, B);
    nb_->soac = lcu_soac(R->F->a, B->soac->span, sa->kind, sa->nargs, args);
    return nb_;
}

/* Whether no SOAC of the kernel reads bind a's results. */
static bool is_sink(Rw *R, int a)
{
    const LcuKBind *A = R->k->binds[a];
    for (int b = 0; b < R->k->nbinds; b++)
        if (b != a && bind_mentions(R, R->k->binds[b], A->nvars, A->vars)) return false;
    return true;
}

/* Two independent SOACs of one kind over one size become one.  With
 * sinks_only, only SOACs no other reads: run before inlining, so that the
 * producers the two share (Black-Scholes's call and put prices share all
 * but the last step) are inlined once into the tuple, bound at its top,
 * instead of once into each and computed twice per element. */
static bool tuple_horizontal(Rw *R, bool sinks_only)
{
    LcuKernel *k = R->k;
    for (int a = 0; a < k->nbinds; a++) {
        const LcuKBind *A = k->binds[a];
        if (arity_of(A) < 0 || (sinks_only && !is_sink(R, a))) continue;
        for (int b = a + 1; b < k->nbinds; b++) {
            const LcuKBind *B = k->binds[b];
            if (B->soac->kind != A->soac->kind || arity_of(B) < 0) continue;
            if (sinks_only && !is_sink(R, b)) continue;
            if (!R->same(R->ctx, soac_size_arg(A->soac), soac_size_arg(B->soac))) continue;
            bool blocked = bind_mentions(R, B, A->nvars, A->vars);
            for (int m = a + 1; m < b && !blocked; m++) blocked = bind_mentions(R, k->binds[m], A->nvars, A->vars);
            if (blocked) continue;
            k->binds[b] = tuple_binds(R, A, B);
            memmove(&k->binds[a], &k->binds[a + 1], sizeof *k->binds * (size_t)(k->nbinds - a - 1));
            k->nbinds--;
            return true;
        }
    }
    return false;
}

void rewrite_kernel(Fu *F, LcuKernel *k, NameSet *taken, const NameSet *views, SameSize same, void *ctx)
{
    Rw R = { F, k, taken, views, same, ctx, { 0 } };
    while (tuple_horizontal(&R, true)) { }
    for (int guard = 0; guard < 10000; guard++) {
        bool changed = inline_maps(&R);
        changed |= drop_dead(&R);
        if (!changed) changed = index_space_rules(&R);
        if (!changed) changed = tuple_horizontal(&R, false);
        if (!changed) return;
    }
    ICE("fusion: the SOAC rewrite of kernel %s does not terminate", k->name);
}
