/* expr.c — the flattening transform on expressions (DESIGN.md §3).
 *
 * An expression is compiled in an unlifted context (one value) or a lifted
 * one (a value per element of the context, `count` of them).  In a lifted
 * context, values that are the same for every element stay unlifted
 * ("uniform"): constants, variables of enclosing unlifted code and anything
 * pure computed only from them.  They are distributed only where lifted
 * code consumes them.
 *
 *  - apply-to-each: the generators' elements become a lifted context over all
 *    of them (in a lifted context: over the concatenation of all segments,
 *    with the lifted free variables distributed by segment id); a filter
 *    packs the context; the body's lifted result is the elements of the
 *    result sequence(s).
 *  - if on a lifted condition: PARTITION of the indices, each branch on its
 *    packed part (skipped when empty, which ends recursion), then the two
 *    results are concatenated and permuted back (lifted_if.c). */
#include <string.h>
#include "flatten_impl.h"

/* ---- environments and free variables ---- */
const Env *fl_env_add(Fl *F, const Env *env, Binder *b, FVal v)
{
    Env *e = arena_alloc(F->a, sizeof *e);
    e->b = b;
    e->v = v;
    e->next = env;
    return e;
}

const FVal *fl_env_find(const Env *env, Binder *b)
{
    for (; env; env = env->next)
        if (env->b == b) return &env->v;
    return NULL;
}

const Env *fl_bind(Fl *F, const Env *env, Pattern *p, FVal v)
{
    switch (p->kind) {
    case PAT_VAR:
        return fl_env_add(F, env, p->binder, fv_make(F, p->type ? p->type : v.type, v.lifted, v.n, v.c));
    case PAT_PAIR: {
        Type *t = type_prune(v.type);
        int k = fv_arity(t->fst, v.lifted);
        env = fl_bind(F, env, p->fst, fv_slice(F, v, t->fst, 0));
        return fl_bind(F, env, p->snd, fv_slice(F, v, t->snd, k));
    }
    case PAT_CON:
        return fl_bind(F, env, p->sub, fv_make(F, fl_data_fields(F, v.type), v.lifted, v.n, v.c));
    }
    ICE("flatten: bad pattern");
}

static bool bset_has(const BSet *s, Binder *b)
{
    for (int i = 0; i < s->v.len; i++) if (s->v.items[i] == b) return true;
    return false;
}
static void bset_add(Fl *F, BSet *s, Binder *b) { if (!bset_has(s, b)) ptrvec_push(F->a, &s->v, b); }

static void pattern_binders(Fl *F, Pattern *p, BSet *s)
{
    switch (p->kind) {
    case PAT_VAR: bset_add(F, s, p->binder); return;
    case PAT_PAIR: pattern_binders(F, p->fst, s); pattern_binders(F, p->snd, s); return;
    case PAT_CON: pattern_binders(F, p->sub, s); return;
    }
}

/* Local variables referenced (used) and bound (bound) inside e. */
static void scan_vars(Fl *F, Expr *e, BSet *used, BSet *bound)
{
    if (!e) return;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY:
        return;
    case EX_VAR:
        if (e->ref == REF_LOCAL) bset_add(F, used, e->binder);
        return;
    case EX_PAIR: case EX_APPLY: case EX_SUBSCRIPT:
        scan_vars(F, e->a, used, bound); scan_vars(F, e->b, used, bound); return;
    case EX_IF: case EX_RANGE:
        scan_vars(F, e->a, used, bound); scan_vars(F, e->b, used, bound); scan_vars(F, e->c, used, bound); return;
    case EX_TIME: scan_vars(F, e->a, used, bound); return;
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) {
            scan_vars(F, e->binds[i].value, used, bound);
            pattern_binders(F, e->binds[i].pat, bound);
        }
        scan_vars(F, e->a, used, bound);
        return;
    case EX_LAMBDA:
        pattern_binders(F, e->param, bound);
        scan_vars(F, e->a, used, bound);
        return;
    case EX_OP:
        for (int i = 0; i < e->nargs; i++) scan_vars(F, e->args[i], used, bound);
        return;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) {
            scan_vars(F, e->gens[i].seq, used, bound);
            pattern_binders(F, e->gens[i].pat, bound);
        }
        scan_vars(F, e->a, used, bound);
        scan_vars(F, e->b, used, bound);
        return;
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) scan_vars(F, e->elems[i], used, bound);
        return;
    }
}

/* The free local variables of e (and of e2), excluding those in `except`. */
BSet fl_free_vars(Fl *F, Expr *e, Expr *e2, const BSet *except)
{
    BSet used = { 0 }, bound = { 0 }, out = { 0 };
    scan_vars(F, e, &used, &bound);
    scan_vars(F, e2, &used, &bound);
    for (int i = 0; i < used.v.len; i++) {
        Binder *b = used.v.items[i];
        if (!bset_has(&bound, b) && !(except && bset_has(except, b))) bset_add(F, &out, b);
    }
    return out;
}

/* True when every free variable of e is uniform in cx. */
static bool all_uniform(Fl *F, const Ctx *cx, Expr *e)
{
    BSet fv = fl_free_vars(F, e, NULL, NULL);
    for (int i = 0; i < fv.v.len; i++) {
        const FVal *v = fl_env_find(cx->env, fv.v.items[i]);
        if (v && v->lifted) return false;
    }
    return true;
}

/* ---- purity: may an expression be computed once for all elements? ---- */
static bool prim_pure(int prim) { return fl_prim_pure(prim); }

static bool expr_pure(Fl *F, Expr *e, int depth);

static bool fun_type_pure(Fl *F, Type *t, int depth)
{
    t = type_prune(t);
    if (t->kind != TY_FUN || !t->ident) return true;
    Type *id = type_prune(t->ident);
    if (id->kind != TY_FUNID) return true;
    switch (id->funid_kind) {
    case FID_FUN: return fl_fun_pure(F, (FunDecl *)id->funid);
    case FID_LAMBDA: return expr_pure(F, ((Expr *)id->funid)->a, depth + 1);
    case FID_PRIM: return prim_pure((int)((const PrimInfo *)id->funid - prim_info));
    case FID_CON: case FID_NONE: return true;
    }
    return true;
}

static bool expr_pure(Fl *F, Expr *e, int depth)
{
    if (!e) return true;
    if (depth > 50) return false;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY:
        return true;
    case EX_VAR:
        if (e->ref == REF_PRIM) return prim_pure(e->prim);
        if (e->ref == REF_FUN) return fl_fun_pure(F, e->fun);
        return true;
    case EX_TIME: return false;
    case EX_APPLY:
        if (!fun_type_pure(F, e->a->type, depth)) return false;
        return expr_pure(F, e->a, depth) && expr_pure(F, e->b, depth);
    case EX_PAIR: case EX_SUBSCRIPT:
        return expr_pure(F, e->a, depth) && expr_pure(F, e->b, depth);
    case EX_IF: case EX_RANGE:
        return expr_pure(F, e->a, depth) && expr_pure(F, e->b, depth) && expr_pure(F, e->c, depth);
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) if (!expr_pure(F, e->binds[i].value, depth)) return false;
        return expr_pure(F, e->a, depth);
    case EX_LAMBDA: return true;     /* creating a closure does nothing */
    case EX_OP:
        if (e->fun && !fl_fun_pure(F, e->fun)) return false;
        if (!e->fun && !prim_pure(e->prim)) return false;
        for (int i = 0; i < e->nargs; i++) if (!expr_pure(F, e->args[i], depth)) return false;
        return true;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) if (!expr_pure(F, e->gens[i].seq, depth)) return false;
        return expr_pure(F, e->a, depth) && expr_pure(F, e->b, depth);
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) if (!expr_pure(F, e->elems[i], depth)) return false;
        return true;
    }
    return false;
}

typedef struct Purity { FunDecl *f; int state; } Purity;   /* 1 in progress, 2 pure, 3 impure */

bool fl_fun_pure(Fl *F, FunDecl *fun)
{
    fun = fl_fun_body(F, fun, (Span){ 0 });
    if (!fun->body) return true;
    for (int i = 0; i < F->purity.len; i++) {
        Purity *p = F->purity.items[i];
        if (p->f == fun) return p->state != 3;      /* in progress: assume pure */
    }
    Purity *p = arena_alloc(F->a, sizeof *p);
    p->f = fun;
    p->state = 1;
    ptrvec_push(F->a, &F->purity, p);
    p->state = expr_pure(F, fun->body, 0) ? 2 : 3;
    return p->state == 2;
}

/* A variable's value as bound, possibly indirect (FVal.via); any other
 * expression compiled as usual. */
FVal fl_operand(Fl *F, const Ctx *cx, Expr *e)
{
    if (e->kind != EX_VAR || e->ref != REF_LOCAL) return fl_expr(F, cx, e);
    const FVal *v = fl_env_find(cx->env, e->binder);
    if (!v) ICE("flatten: unbound local %s", e->name);
    return *v;
}

/* ---- helpers ---- */
static FVal scalar_const(Fl *F, Type *t, LcuBase b, LcuExpr *e)
{
    Sym *c = arena_alloc(F->a, sizeof *c);
    c[0] = fl_emit(F, T_base(F, b), e);
    return fv_make(F, t, false, 1, c);
}

static FVal fv_cat(Fl *F, Type *t, FVal a, FVal b)
{
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(a.n + b.n + 1));
    if (a.n) memcpy(c, a.c, sizeof *c * (size_t)a.n);
    if (b.n) memcpy(c + a.n, b.c, sizeof *c * (size_t)b.n);
    return fv_make(F, t, a.lifted, a.n + b.n, c);
}

/* Both unlifted, or both lifted (materializing the uniform one). */
static void same_mode(Fl *F, const Ctx *cx, FVal *a, FVal *b)
{
    if (a->lifted != b->lifted) {
        *a = materialize(F, cx, *a);
        *b = materialize(F, cx, *b);
    }
}

/* A sub-context that computes uniformly: unlifted, same site and env. */
static Ctx uniform_ctx(const Ctx *cx)
{
    Ctx u = *cx;
    u.lifted = false;
    u.count = NULL;
    return u;
}

/* Distribute (or pack) the lifted variables among `vars` by idx. */
static const Env *gather_env(Fl *F, const Env *env, const BSet *vars, Sym idx)
{
    const Env *out = env;
    for (int i = 0; i < vars->v.len; i++) {
        Binder *b = vars->v.items[i];
        const FVal *v = fl_env_find(env, b);
        if (!v || !v->lifted) continue;
        if (type_prune(v->type)->kind == TY_SEQ) {
            /* A sequence is not copied per element: compose the indirection. */
            FVal w = *v;
            w.via = v->via ? fl_gather_in(F, LB_INT, v->via, idx) : idx;
            out = fl_env_add(F, out, b, w);
            continue;
        }
        out = fl_env_add(F, out, b, rep_gather_in(F, v->type, v->c, idx));
    }
    return out;
}

/* ---- bodies of lifted contexts ---- */
/* lib global (site, index), or with a count: (site, index, count) reads
 * stand-ins when the global is unbound and the count is 0. */
static bool global_read(const LcuExpr *e, int nargs)
{
    return e->kind == LE_LIB && !strcmp(e->u.lib.name, "global") && e->u.lib.nargs == nargs;
}

/* Can this Flan statement run in a context of no elements without effect?
 * SOACs then have nothing to do; calls (recursion), library calls and
 * checks of uniform values must not run, unless fl_check_lifted made them
 * false on no elements. */
static bool safe_when_empty(const Fl *F, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_STRING:
    case LE_LEN: case LE_VECLIT: case LE_TUPLE: case LE_SOAC: case LE_UNOP:
        return true;
    case LE_BINOP: return e->u.bin.op != LOP_DIV && e->u.bin.op != LOP_MOD;
    case LE_CALL: {
        const char *f = e->u.call.name;
        return !strcmp(f, "lengths") || !strcmp(f, "offsets") || !strcmp(f, "segids") ||
               !strcmp(f, "total") || !strcmp(f, "make_sd") || fl_check_empty_safe(F, e);
    }
    case LE_IF: return safe_when_empty(F, e->u.if_.then_e) && safe_when_empty(F, e->u.if_.else_e);
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++)
            if (!safe_when_empty(F, e->u.block.binds[i]->rhs)) return false;
        return true;
    case LE_LIB: return global_read(e, 3);
    case LE_INDEX: case LE_LET: case LE_RUN: case LE_LOOP: case LE_RECUR:
        return false;
    }
    return false;
}

/* The body of a lifted context, skipped when the context is empty (which
 * is what ends recursion) unless running it on no elements is harmless. */
FVal fl_guarded_body(Fl *F, const Ctx *sub, Type *t, Expr *body, bool always)
{
    Block bb;
    fl_block_push(F, &bb);
    FVal r = materialize(F, sub, fl_expr(F, sub, body));
    /* A global's read fails only if its definition did; given the body's
     * count it fails only then and for some elements (rt_top.c
     * nesl_global_absent), so the body need not be skipped for it.  The
     * skipping `if` kept spmv's products and mandelbrot's coordinates in
     * memory: fusion does not cross it.  Any inner body's count is 0 when
     * this one's is, so such reads are safe for enclosing bodies too. */
    bool safe = !always, reads = false;
    for (int i = 0; i < bb.binds.len && safe; i++) {
        const LcuExpr *rhs = ((LcuBind *)bb.binds.items[i])->rhs;
        if (global_read(rhs, 2)) reads = true;
        else safe = safe_when_empty(F, rhs);
    }
    for (int i = 0; i < bb.binds.len && safe && reads; i++) {
        LcuExpr *rhs = ((LcuBind *)bb.binds.items[i])->rhs;
        if (!global_read(rhs, 2)) continue;
        LcuExpr **args = arena_alloc(F->a, sizeof *args * 3);
        args[0] = rhs->u.lib.args[0];
        args[1] = rhs->u.lib.args[1];
        args[2] = X_var(F, sub->count);
        rhs->u.lib.args = args;
        rhs->u.lib.nargs = 3;
    }
    if (safe) {
        F->blk = bb.outer;
        for (int i = 0; i < bb.binds.len; i++) ptrvec_push(F->a, &F->blk->binds, bb.binds.items[i]);
        return r;
    }
    LcuExpr *rb = fl_block_pop(F, X_rest(F, r.n, r.c));
    Block bz;
    fl_block_push(F, &bz);
    FVal z = rep_empty(F, t, true);
    LcuExpr *zb = fl_block_pop(F, X_rest(F, z.n, z.c));
    return fl_emit_if(F, t, true, X_bin(F, LOP_EQ, X_var(F, sub->count), X_int(F, 0)), zb, rb);
}

/* ---- if ---- */
static void block_reenter(Fl *F, Block *b) { b->outer = F->blk; F->blk = b; }

static FVal fl_if(Fl *F, const Ctx *cx, Expr *e)
{
    if (cx->lifted && all_uniform(F, cx, e) && expr_pure(F, e, 0)) {
        Ctx u = uniform_ctx(cx);
        return fl_if(F, &u, e);
    }
    FVal c = fl_expr(F, cx, e->a);
    Type *t = e->type;
    if (!c.lifted) {
        Block bt, be;
        fl_block_push(F, &bt);
        FVal rt = fl_expr(F, cx, e->b);
        F->blk = bt.outer;
        fl_block_push(F, &be);
        FVal re = fl_expr(F, cx, e->c);
        F->blk = be.outer;
        bool lifted = rt.lifted || re.lifted;
        if (lifted) {
            block_reenter(F, &bt);
            rt = materialize(F, cx, rt);
            F->blk = bt.outer;
            block_reenter(F, &be);
            re = materialize(F, cx, re);
            F->blk = be.outer;
        }
        block_reenter(F, &bt);
        LcuExpr *tb = fl_block_pop(F, X_rest(F, rt.n, rt.c));
        block_reenter(F, &be);
        LcuExpr *eb = fl_block_pop(F, X_rest(F, re.n, re.c));
        return fl_emit_if(F, t, lifted, X_var(F, c.c[0]), tb, eb);
    }
    /* Lifted condition, both branches cheap scalar code that cannot fail:
     * compute both for every element and pick (speculate.c). */
    if (fl_speculable(e->b) && fl_speculable(e->c)) {
        FVal a = fl_expr(F, cx, e->b);
        FVal b = fl_expr(F, cx, e->c);
        return fl_select(F, cx, t, c.c[0], a, b);
    }
    /* Lifted condition: partition the context (lifted_if.c). */
    return fl_if_lifted(F, cx, e, c.c[0]);
}

/* ---- apply-to-each ---- */
/* {x in xs | p}, or {x : x in xs | p} written out: the kept elements are
 * the generator's own (norm2's positive elements: FILTER of values, which
 * a REDUCE of them then fuses with, not of indices and a gather). */
static bool body_is_pattern(const Expr *e)
{
    if (e->body_from_pattern) return true;
    const Pattern *p = e->ngens == 1 ? e->gens[0].pat : NULL;
    return p && p->kind == PAT_VAR && p->binder && e->a->kind == EX_VAR && e->a->binder == p->binder;
}

static FVal fl_each(Fl *F, const Ctx *cx, Expr *e)
{
    if (cx->lifted && all_uniform(F, cx, e) && expr_pure(F, e, 0)) {
        Ctx u = uniform_ctx(cx);
        return fl_each(F, &u, e);
    }
    int k = e->ngens;
    Type *rt = e->type;
    FVal *seqs = arena_alloc(F->a, sizeof *seqs * (size_t)k);
    for (int g = 0; g < k; g++) seqs[g] = fl_expr(F, cx, e->gens[g].seq);
    BSet genb = { 0 };
    for (int g = 0; g < k; g++) pattern_binders(F, e->gens[g].pat, &genb);

    Ctx in = *cx;
    in.lifted = true;
    Sym outer_sd = NULL;        /* lifted: the segments of the generators */
    FVal *elems = arena_alloc(F->a, sizeof *elems * (size_t)k);
    if (!cx->lifted) {
        LcuExpr *n = fv_count(F, seqs[0]);
        in.count = fl_emit(F, T_int(F), n);
        for (int g = 1; g < k; g++)
            fl_check(F, cx, e->span, X_bin(F, LOP_NE, fv_count(F, seqs[g]), X_var(F, in.count)),
                     "Length mismatch in apply-to-each.");
        for (int g = 0; g < k; g++) elems[g] = elems_of_seq(F, seqs[g]);
    } else {
        for (int g = 0; g < k; g++) seqs[g] = materialize(F, cx, seqs[g]);
        outer_sd = lseq_sd(seqs[0]);
        Sym l0 = k > 1 ? fl_sd_lengths(F, outer_sd) : NULL;   /* a uniform sd's is a MAP: only when read */
        for (int g = 1; g < k; g++) {
            if (fl_lengths_checked(F, outer_sd, lseq_sd(seqs[g]))) continue;
            fl_note_lengths_checked(F, outer_sd, lseq_sd(seqs[g]));
            /* against a uniform descriptor (Barnes-Hut's four corners a
             * cell), its length itself: no MAP of copies to read */
            LcuExpr *ug = fl_sd_uniform_len(F, lseq_sd(seqs[g]));
            Sym i = fl_fresh(F, "i");
            LcuExpr *gi = ug ? ug : X_idx(F, fl_sd_lengths(F, lseq_sd(seqs[g])), X_var(F, i));
            Sym bad = fl_map(F, LB_BOOL, i, X_bin(F, LOP_NE, X_idx(F, l0, X_var(F, i)), gi), X_len(F, l0));
            fl_check(F, cx, e->span, X_var(F, fl_any(F, bad)), "Length mismatch in apply-to-each.");
        }
        in.count = fl_sd_total(F, outer_sd);
        Sym sid = fl_sd_segids(F, outer_sd);
        BSet fv = fl_free_vars(F, e->a, e->b, &genb);
        in.env = gather_env(F, cx->env, &fv, sid);
        for (int g = 0; g < k; g++) elems[g] = lseq_elems(F, seqs[g]);
    }
    for (int g = 0; g < k; g++) in.env = fl_bind(F, in.env, e->gens[g].pat, elems[g]);

    Sym result_sd = outer_sd;
    if (e->b) {
        FVal fl = materialize(F, &in, fl_expr(F, &in, e->b));
        /* {x in xs | p}: the elements filtered directly, no index vector;
         * the size is #xs (the count) so that reads of xs at the SOAC's own
         * index need no range check */
        FVal kept;
        if (!cx->lifted && body_is_pattern(e) && elems[0].via == NULL && elems[0].n > 0 &&
            rep_filter_flat(F, elems[0].type, elems[0].c, fl.c[0], X_len(F, elems[0].c[0]), &kept))
            return seq_of_elems(F, rt, kept);
        Sym idx = fl_filter_index(F, fl.c[0], X_var(F, in.count));
        /* each segment's kept elements, found among the FILTER's indices:
         * no SEG_REDUCE of the flags and no scan of the counts (quicksort's
         * three filters: four launches a level, now three small ones) */
        if (cx->lifted) result_sd = fl_filter_sd(F, outer_sd, idx);
        Ctx packed = in;
        packed.count = fl_emit(F, T_int(F), X_len(F, idx));
        if (e->body_from_pattern) {
            FVal r = rep_gather_in(F, elems[0].type, elems[0].c, idx);
            return cx->lifted ? lseq_make(F, rt, result_sd, r) : seq_of_elems(F, rt, r);
        }
        BSet fv = fl_free_vars(F, e->a, NULL, NULL);
        packed.env = gather_env(F, in.env, &fv, idx);
        in = packed;
    }
    Type *et = type_prune(rt)->elem;
    FVal res = fl_guarded_body(F, &in, et, e->a, false);
    return cx->lifted ? lseq_make(F, rt, result_sd, res) : seq_of_elems(F, rt, res);
}

/* ---- sequence literals ---- */
static FVal fl_seq(Fl *F, const Ctx *cx, Expr *e)
{
    Type *rt = e->type, *et = type_prune(rt)->elem;
    int n = e->nelems;
    FVal *vs = arena_alloc(F->a, sizeof *vs * (size_t)n);
    bool lifted = false;
    for (int i = 0; i < n; i++) {
        vs[i] = fl_expr(F, cx, e->elems[i]);
        lifted |= vs[i].lifted;
    }
    if (!lifted) {
        FVal acc = rep_singleton(F, vs[0]);
        for (int i = 1; i < n; i++) {
            FVal s = rep_singleton(F, vs[i]);
            acc = rep_concat(F, et, acc.c, X_int(F, i), s.c, X_int(F, 1));
        }
        return seq_of_elems(F, rt, acc);
    }
    LcuExpr *N = X_var(F, cx->count);
    for (int i = 0; i < n; i++) vs[i] = materialize(F, cx, vs[i]);
    Sym zsd;
    FVal flat;
    if (n == 2 && type_prune(et)->kind == TY_SEQ && rep_zip_flat(F, type_prune(et)->elem, vs[0].c, vs[1].c, &zsd, &flat))
        return lseq_make(F, rt, fl_dist_sd(F, N, X_int(F, 2), NULL), lseq_make(F, et, zsd, flat));
    /* Lifted: concatenate the n element vectors, then interleave so that
     * segment j holds element i of each at position j*n + i. */
    FVal acc = vs[0];
    for (int i = 1; i < n; i++) acc = rep_concat(F, et, acc.c, X_bin(F, LOP_MUL, N, X_int(F, i)), vs[i].c, N);
    Sym p = fl_fresh(F, "p");
    /* p = j*n + i  ->  source i*N + j */
    LcuExpr *src = X_bin(F, LOP_ADD, X_bin(F, LOP_MUL, X_bin(F, LOP_MOD, X_var(F, p), X_int(F, n)), N),
                         X_bin(F, LOP_DIV, X_var(F, p), X_int(F, n)));
    Sym idx = fl_map(F, LB_INT, p, src, X_bin(F, LOP_MUL, N, X_int(F, n)));
    FVal inter = rep_permute_in(F, et, acc.c, idx);
    Sym sd = fl_dist_sd(F, N, X_int(F, n), NULL);
    return lseq_make(F, rt, sd, inter);
}

/* ---- lambdas and calls ---- */
static FVal fl_lambda(Fl *F, const Ctx *cx, Expr *e)
{
    Binder **bs;
    Type **ts;
    int k = flat_lambda_captures(F->a, e, &bs, &ts);
    FVal *caps = arena_alloc(F->a, sizeof *caps * (size_t)(k ? k : 1));
    bool lifted = false;
    for (int i = 0; i < k; i++) {
        const FVal *v = fl_env_find(cx->env, bs[i]);
        if (!v) ICE("flatten: captured variable %s unbound", bs[i]->name);
        caps[i] = fv_direct(F, *v);
        lifted |= v->lifted;
    }
    int n = 0;
    for (int i = 0; i < k; i++) {
        if (lifted) caps[i] = materialize(F, cx, caps[i]);
        n += caps[i].n;
    }
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)(n ? n : 1));
    n = 0;
    for (int i = 0; i < k; i++) {
        memcpy(c + n, caps[i].c, sizeof *c * (size_t)caps[i].n);
        n += caps[i].n;
    }
    return fv_make(F, e->type, lifted, n, c);
}

/* Every lambda of the monomorphic program (clones included), so that a call
 * by identity finds the instance's copy before or after compiling it. */
void fl_collect_lambdas(Fl *F, Expr *e)
{
    if (!e) return;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY: case EX_VAR:
        return;
    case EX_LAMBDA:
        ptrvec_push(F->a, &F->lambdas, e);
        fl_collect_lambdas(F, e->a);
        return;
    case EX_PAIR: case EX_APPLY: case EX_SUBSCRIPT: case EX_IF: case EX_RANGE: case EX_TIME:
        fl_collect_lambdas(F, e->a); fl_collect_lambdas(F, e->b); fl_collect_lambdas(F, e->c);
        return;
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) fl_collect_lambdas(F, e->binds[i].value);
        fl_collect_lambdas(F, e->a);
        return;
    case EX_OP:
        for (int i = 0; i < e->nargs; i++) fl_collect_lambdas(F, e->args[i]);
        return;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) fl_collect_lambdas(F, e->gens[i].seq);
        fl_collect_lambdas(F, e->a); fl_collect_lambdas(F, e->b);
        return;
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) fl_collect_lambdas(F, e->elems[i]);
        return;
    }
}

/* The clone of a lambda (monomorphization copies bodies) whose type is t. */
static Expr *lambda_clone(Fl *F, Type *t)
{
    const void *orig = type_prune(type_prune(t)->ident)->funid;
    for (int i = F->lambdas.len - 1; i >= 0; i--) {
        Expr *l = F->lambdas.items[i];
        if (type_prune(type_prune(l->type)->ident)->funid == orig && type_equal_ident(l->type, t)) return l;
    }
    for (int i = F->lambdas.len - 1; i >= 0; i--) {
        Expr *l = F->lambdas.items[i];
        if (type_prune(type_prune(l->type)->ident)->funid == orig) return l;
    }
    return (Expr *)orig;
}

static FunDecl *instance_of(FunDecl *g, Type *t)
{
    while (g->generic) g = g->generic;
    for (FunDecl *i = g->next_instance; i; i = i->next_instance)
        if (type_equal_ident(i->type, t)) return i;
    for (FunDecl *i = g->next_instance; i; i = i->next_instance)
        if (type_equal_concrete(i->type, t)) return i;
    return NULL;
}

FVal fl_apply_value(Fl *F, const Ctx *cx, FVal fn, FVal arg, Span sp)
{
    Type *ft = type_prune(fn.type);
    Type *id = ft->ident ? type_prune(ft->ident) : NULL;
    if (!id || id->kind != TY_FUNID) fl_unsupported(F, sp, "a call of a function value of unknown identity is");
    switch (id->funid_kind) {
    case FID_FUN: {
        FunDecl *inst = instance_of((FunDecl *)id->funid, ft);
        if (!inst) fl_unsupported(F, sp, "a call of a function value without an instance is");
        return fl_apply_fun(F, cx, inst, arg, sp);
    }
    case FID_PRIM: {
        int prim = (int)((const PrimInfo *)id->funid - prim_info);
        int k = prim_info[prim].arity;
        FVal args[4];
        fl_split_args(F, arg, k, args);
        return fl_prim(F, cx, prim, ft, k, args, sp);
    }
    case FID_CON:
        return fv_make(F, ft->res, arg.lifted, arg.n, arg.c);
    case FID_LAMBDA: {
        Expr *lam = lambda_clone(F, ft);
        Binder **bs;
        Type **ts;
        int k = flat_closure_captures(F->a, ft, &bs, &ts);
        Ctx body = *cx;
        if (!lam->span.src || strcmp(lam->span.src->name, nesl_prelude_name)) body.site = NULL;
        int off = 0;
        for (int i = 0; i < k; i++) {
            FVal v = fv_slice(F, fn, ts[i], off);
            off += v.n;
            body.env = fl_env_add(F, body.env, bs[i], v);
        }
        body.env = fl_bind(F, body.env, lam->param, arg);
        return fl_expr(F, &body, lam->a);
    }
    case FID_NONE: break;
    }
    fl_unsupported(F, sp, "a call of a function value of unknown identity is");
}

/* A small pure user function that calls no user function (so no
 * recursion) and makes no closures: a lifted call compiles its body in
 * place, so that fusion sees its SOACs with the caller's (a call is a
 * fusion barrier).  Its errors keep their positions, which are its own. */
static int leaf_size(Expr *e, int budget)
{
    if (!e || budget <= 0) return budget;
    budget--;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY:
        return budget;
    case EX_VAR:
        return e->ref == REF_FUN && !e->fun->is_prelude ? 0 : budget;
    case EX_TIME: return leaf_size(e->a, budget);
    case EX_APPLY:
        if (e->a->kind != EX_VAR || e->a->ref == REF_LOCAL || e->a->ref == REF_GLOBAL) return 0;   /* a function value */
        return leaf_size(e->b, leaf_size(e->a, budget));
    case EX_PAIR: case EX_SUBSCRIPT: return leaf_size(e->b, leaf_size(e->a, budget));
    case EX_IF: case EX_RANGE: return leaf_size(e->c, leaf_size(e->b, leaf_size(e->a, budget)));
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) budget = leaf_size(e->binds[i].value, budget);
        return leaf_size(e->a, budget);
    case EX_LAMBDA: return 0;
    case EX_OP:
        if (e->fun && !e->fun->is_prelude) return 0;
        for (int i = 0; i < e->nargs; i++) budget = leaf_size(e->args[i], budget);
        return budget;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) budget = leaf_size(e->gens[i].seq, budget);
        return leaf_size(e->b, leaf_size(e->a, budget));
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) budget = leaf_size(e->elems[i], budget);
        return budget;
    }
    return 0;
}

static bool inline_leaf(Fl *F, FunDecl *f)
{
    return !f->is_prelude && f->body && leaf_size(f->body, 200) > 0 && fl_fun_pure(F, f);
}

FVal fl_apply_fun(Fl *F, const Ctx *cx, FunDecl *fun, FVal arg, Span sp)
{
    FunDecl *f = fl_fun_body(F, fun, sp);
    Type *ft = type_prune(f->type);
    if (!f->body) {
        char msg[300];
        snprintf(msg, sizeof msg, "Function %s is declared but never defined.", f->name);
        fl_check(F, cx, sp, X_bool(F, true), msg);
        return rep_empty(F, ft->res, cx->lifted);
    }
    bool lifted = cx->lifted && (arg.lifted || !fl_fun_pure(F, f));
    FVal looped;
    if (lifted && fl_loop_call(F, cx, f, arg, &looped)) return looped;
    if (lifted && inline_leaf(F, f)) {
        Ctx body = *cx;
        body.site = NULL;
        body.env = fl_bind(F, NULL, f->param, arg);
        return fl_expr(F, &body, f->body);
    }
    if (lifted) arg = materialize(F, cx, arg);
    Sym name = fl_request_fun(F, f, lifted, lifted ? arg.n : 0, lifted ? arg.c : NULL);
    int extra = (lifted ? 1 : 0) + (f->is_prelude ? 1 : 0);
    LcuExpr **as = arena_alloc(F->a, sizeof *as * (size_t)(arg.n + extra + 1));
    int k = 0;
    if (lifted) as[k++] = X_var(F, cx->count);
    if (f->is_prelude) as[k++] = fl_site(F, cx, sp);
    for (int i = 0; i < arg.n; i++) as[k++] = X_var(F, arg.c[i]);
    PtrVec ts = { 0 };
    flat_layout(F->a, ft->res, lifted, &ts);
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items, lcu_e_call(F->a, (Span){ 0 }, name, k, as));
    return fv_make(F, ft->res, lifted, ts.len, c);
}

static FVal fl_apply(Fl *F, const Ctx *cx, Expr *e)
{
    Expr *fn = e->a;
    if (fn->kind == EX_VAR) {
        switch (fn->ref) {
        case REF_FUN: {
            FVal looped;
            if (fl_loop_call_seq(F, cx, fn->fun, e->b, e->span, &looped)) return looped;
            return fl_apply_fun(F, cx, fn->fun, fl_expr(F, cx, e->b), e->span);
        }
        case REF_PRIM: {
            int k = prim_info[fn->prim].arity;
            FVal args[4];
            fl_split_args(F, fl_expr(F, cx, e->b), k, args);
            return fl_prim(F, cx, fn->prim, fn->inst, k, args, e->span);
        }
        case REF_CON: {
            FVal a = fl_expr(F, cx, e->b);
            return fv_make(F, e->type, a.lifted, a.n, a.c);
        }
        case REF_LOCAL: case REF_GLOBAL: case REF_NONE: break;
        }
    }
    FVal f = fl_expr(F, cx, fn);
    FVal arg = fl_expr(F, cx, e->b);
    return fl_apply_value(F, cx, f, arg, e->span);
}

/* The sequence operand of subscript, -> and #, which read it in place. */
static bool reads_in_place(const Expr *e)
{
    return !e->fun && (e->prim == PRIM_ELT || e->prim == PRIM_READ || e->prim == PRIM_LENGTH);
}

static FVal fl_op(Fl *F, const Ctx *cx, Expr *e)
{
    FVal args[2] = { { 0 }, { 0 } };
    for (int i = 0; i < e->nargs; i++)
        args[i] = i == 0 && reads_in_place(e) ? fl_operand(F, cx, e->args[i]) : fl_expr(F, cx, e->args[i]);
    if (e->fun) {
        FVal arg = args[0];
        if (e->nargs == 2) {
            same_mode(F, cx, &args[0], &args[1]);
            arg = fv_cat(F, type_pair(F->a, args[0].type, args[1].type), args[0], args[1]);
        }
        return fl_apply_fun(F, cx, e->fun, arg, e->span);
    }
    return fl_prim(F, cx, e->prim, e->inst, e->nargs, args, e->span);
}

static FVal fl_global(Fl *F, Expr *e)
{
    Binder *b = e->binder;
    char tag[1024];
    char *ty = type_to_string(F->a, e->type, false);
    snprintf(tag, sizeof tag, "%s|%s", e->name, ty);
    PtrVec ts = { 0 };
    flat_layout(F->a, e->type, false, &ts);
    Ctx none = { 0 };
    LcuExpr *as[2] = { fl_site(F, &none, e->span), X_int(F, b->global_index) };
    LcuExpr **args = arena_alloc(F->a, sizeof *args * 2);
    memcpy(args, as, sizeof as);
    const LcuType *rt = T_tuple(F, ts.len, (const LcuType **)ts.items);
    Sym *c = fl_emit_tuple(F, ts.len, (const LcuType **)ts.items,
                           lcu_e_lib(F->a, (Span){ 0 }, intern_cstr(F->in, "global"),
                                     arena_strndup(F->a, tag, strlen(tag)), 2, args, rt));
    return fv_make(F, e->type, false, ts.len, c);
}

static FVal fl_time(Fl *F, const Ctx *cx, Expr *e)
{
    const LcuType *ft = T_float(F);
    Sym clk = intern_cstr(F->in, "clock");
    Sym t0 = fl_emit(F, ft, lcu_e_lib(F->a, (Span){ 0 }, clk, "", 0, NULL, ft));
    FVal v = fl_expr(F, cx, e->a);
    Sym t1 = fl_emit(F, ft, lcu_e_lib(F->a, (Span){ 0 }, clk, "", 0, NULL, ft));
    Type *tf = type_base(F->a, TY_FLOAT);
    FVal dt = scalar_const(F, tf, LB_FLOAT, X_bin(F, LOP_SUB, X_var(F, t1), X_var(F, t0)));
    same_mode(F, cx, &v, &dt);
    return fv_cat(F, e->type, v, dt);
}

FVal fl_expr(Fl *F, const Ctx *cx, Expr *e)
{
    switch (e->kind) {
    case EX_INT: return scalar_const(F, e->type, LB_INT, X_int(F, e->ival));
    case EX_FLOAT: return scalar_const(F, e->type, LB_FLOAT, lcu_e_float(F->a, (Span){ 0 }, e->fval));
    case EX_BOOL: return scalar_const(F, e->type, LB_BOOL, X_bool(F, e->bval));
    case EX_CHAR: return scalar_const(F, e->type, LB_CHAR, lcu_e_char(F->a, (Span){ 0 }, (uint8_t)e->ival));
    case EX_STRING: {
        Sym *c = arena_alloc(F->a, sizeof *c);
        c[0] = fl_emit(F, T_vec(F, LB_CHAR), lcu_e_string(F->a, (Span){ 0 }, e->str, e->slen));
        return fv_make(F, e->type, false, 1, c);
    }
    case EX_VAR:
        switch (e->ref) {
        case REF_LOCAL: return fv_direct(F, fl_operand(F, cx, e));
        case REF_GLOBAL: return fl_global(F, e);
        case REF_FUN: case REF_PRIM: case REF_CON:
            return fv_make(F, e->type, false, 0, NULL);
        case REF_NONE: break;
        }
        ICE("flatten: unresolved variable %s", e->name);
    case EX_PAIR: {
        FVal a = fl_expr(F, cx, e->a);
        FVal b = fl_expr(F, cx, e->b);
        same_mode(F, cx, &a, &b);
        return fv_cat(F, e->type, a, b);
    }
    case EX_IF: return fl_if(F, cx, e);
    case EX_LET: {
        Ctx in = *cx;
        for (int i = 0; i < e->nbinds; i++)
            in.env = fl_bind(F, in.env, e->binds[i].pat, fl_expr(F, &in, e->binds[i].value));
        return fl_expr(F, &in, e->a);
    }
    case EX_LAMBDA: return fl_lambda(F, cx, e);
    case EX_APPLY: return fl_apply(F, cx, e);
    case EX_OP: return fl_op(F, cx, e);
    case EX_SUBSCRIPT: {
        FVal args[2] = { fl_operand(F, cx, e->a), fl_expr(F, cx, e->b) };
        return fl_prim(F, cx, PRIM_ELT, NULL, 2, args, e->span);
    }
    case EX_EACH: return fl_each(F, cx, e);
    case EX_SEQ: return fl_seq(F, cx, e);
    case EX_EMPTY: return seq_of_elems(F, e->type, rep_empty(F, type_prune(e->type)->elem, true));
    case EX_RANGE: {
        FVal lo = fl_expr(F, cx, e->a), hi = fl_expr(F, cx, e->b);
        FVal st = e->c ? fl_expr(F, cx, e->c) : scalar_const(F, e->a->type, LB_INT, X_int(F, 1));
        return fl_range(F, cx, lo, hi, st, e->span);
    }
    case EX_TIME: return fl_time(F, cx, e);
    }
    ICE("flatten: bad expression kind");
}
