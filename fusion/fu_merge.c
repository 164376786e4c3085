/* fu_merge.c — the fusion phase's driver: regions of every function, their
 * schedules, and the merge of each cluster into one kernel (parameters are
 * the CPU variables the cluster reads, results those read after it; the
 * members' SOACs are copied in order with their parameters renamed to those
 * variables), whose SOACs fu_rewrite.c then fuses. */
#include <string.h>
#include "fu_impl.h"

static bool in_list(int n, const Sym *v, Sym x)
{
    for (int i = 0; i < n; i++) if (v[i] == x) return true;
    return false;
}

/* ------------------------------------------------------------------ size oracle */

typedef struct SizeCtx { Sizes *S; } SizeCtx;

/* The class of a size expression of a merged kernel (its parameters are
 * named as the CPU variables they stand for). */
static int expr_size_class(Sizes *S, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: return sizes_find(S, sizes_class(S, 2, NULL, e->u.i));
    case LE_VAR: return sizes_find(S, sizes_class(S, 0, e->u.var, 0));
    case LE_LEN: return sizes_find(S, sizes_class(S, 1, e->u.len.vec, 0));
    case LE_CALL:     /* total (s), made by fu_rewrite.c for a SEG_ SOAC's index space */
        return total_of(e) ? sizes_find(S, sizes_class(S, 4, total_of(e), 0)) : -1;
    case LE_BINOP:    /* a lifted ++'s a + b: its MAPs, one per component, tuple */
        return sizes_binop_class(S, e->u.bin.op, expr_size_class(S, e->u.bin.l), expr_size_class(S, e->u.bin.r));
    default: return -1;
    }
}

static int kernel_size_class(Sizes *S, const LcuArg *g)
{
    return g && g->kind == LA_EXPR ? expr_size_class(S, g->u.expr) : -1;
}

static bool same_size(void *ctx, const LcuArg *x, const LcuArg *y)
{
    SizeCtx *c = ctx;
    if (x->kind == LA_EXPR && y->kind == LA_EXPR && x->u.expr->kind == LE_VAR && y->u.expr->kind == LE_VAR &&
        x->u.expr->u.var == y->u.expr->u.var)
        return true;                                            /* also sd variables */
    /* two variables may be one size (norm2's two MAPs over #xs, each
     * through a copy); an sd variable's class is its own */
    int a = kernel_size_class(c->S, x), b = kernel_size_class(c->S, y);
    return a >= 0 && a == b;
}

/* SOACs of one merged kernel whose sizes are one class get one size
 * expression: the code generators then see that they iterate together (a
 * MAP and a REDUCE run as one pass, cudagen/gen_kernel.c), and parameters
 * only a size used may drop out.  A length #v is preferred (subscripts of
 * v at the SOAC's own index are then known in range), else the first. */
static bool unifiable(const LcuSoac *x)
{
    return (x->kind == LS_MAP || x->kind == LS_REDUCE || x->kind == LS_SCAN) && x->args[x->nargs - 1]->kind == LA_EXPR;
}

/* The vector parameters that y reads and whose lengths are in the class of
 * its size: y's index is a valid subscript of each (a zip's second
 * sequence, once the length check passed). */
static void same_len(Fu *F, const LcuKernel *k, LcuSoac *y, SizeCtx *sc)
{
    int cls = kernel_size_class(sc->S, y->args[y->nargs - 1]);
    if (cls < 0) return;
    PtrVec fv = { 0 };
    for (int g = 0; g < y->nargs; g++) fu_free_vars_arg(F, y->args[g], &fv);
    Sym *out = arena_alloc(F->a, sizeof *out * (size_t)(k->nparams ? k->nparams : 1));
    int n = 0;
    for (int i = 0; i < k->nparams; i++) {
        const LcuParam *p = &k->params[i];
        if (p->type->kind != LT_VEC && p->type->kind != LT_REF) continue;
        if (!in_list(fv.len, (Sym *)fv.items, p->name)) continue;
        if (sizes_find(sc->S, sizes_class(sc->S, 1, p->name, 0)) == cls) out[n++] = p->name;
    }
    y->nsame_len = n;
    y->same_len = out;
}

/* Does size expression e read a vector that bind j or a later one of k
 * defines?  It is not yet there at bind j (a MAP left in a kernel because
 * it was not inlined, e.g. one that loops: its result's length is not a
 * size before it). */
static bool defined_from(Fu *F, const LcuKernel *k, int j, const LcuExpr *e)
{
    PtrVec fv = { 0 };
    fu_free_vars_expr(F, e, &fv);
    for (int b = j; b < k->nbinds; b++)
        for (int v = 0; v < k->binds[b]->nvars; v++)
            if (in_list(fv.len, (Sym *)fv.items, k->binds[b]->vars[v])) return true;
    return false;
}

static void unify_sizes(Fu *F, LcuKernel *k, SizeCtx *sc)
{
    for (int j = 0; j < k->nbinds; j++) {
        LcuSoac *y = k->binds[j]->soac;
        if (!unifiable(y)) continue;
        const LcuArg *ys = y->args[y->nargs - 1], *best = NULL;
        for (int i = 0; i < k->nbinds; i++) {
            const LcuSoac *x = k->binds[i]->soac;
            if (!unifiable(x) || !same_size(sc, x->args[x->nargs - 1], ys)) continue;
            const LcuArg *xs = x->args[x->nargs - 1];
            if (defined_from(F, k, j, xs->u.expr)) continue;
            if (!best || (xs->u.expr->kind == LE_LEN && best->u.expr->kind != LE_LEN)) best = xs;
        }
        same_len(F, k, y, sc);
        if (!best || best == ys) continue;
        LcuArg *na = arena_alloc(F->a, sizeof *na);
        LcuExpr *e = arena_alloc(F->a, sizeof *e);
        *e = *best->u.expr;            /* a leaf: a variable, #v, a literal, total (s) */
        *na = *best;
        na->u.expr = e;
        y->args[y->nargs - 1] = na;
    }
}

/* ------------------------------------------------------------------ one cluster */

static Sym kernel_name(Fu *F)
{
    char buf[32];
    for (;;) {
        snprintf(buf, sizeof buf, "KF%d", ++F->kf_counter);
        Sym s = intern_cstr(F->in, buf);
        if (!nameset_has(&F->kernel_names, s)) { nameset_add(F->a, &F->kernel_names, s); return s; }
    }
}

static void thunk_names(Fu *F, const LcuKernel *k, NameSet *s)
{
    for (int b = 0; b < k->nbinds; b++) {
        const LcuSoac *so = k->binds[b]->soac;
        for (int i = 0; i < so->nargs; i++) {
            const LcuArg *g = so->args[i];
            if (g->kind == LA_EXPR) { fu_all_names_expr(F, g->u.expr, s); continue; }
            for (int p = 0; p < g->u.thunk->nparams; p++) nameset_add(F->a, s, g->u.thunk->params[p]);
            fu_all_names_expr(F, g->u.thunk->body, s);
        }
        if (so->kept) fu_all_names_expr(F, so->kept, s);
    }
}

/* Is a member's result read by a node outside the cluster (or the block's result)? */
static bool used_outside(Fu *F, const Region *r, int member, Sym x)
{
    int c = r->nodes[member].cluster;
    for (int j = member + 1; j < r->n; j++) {
        if (r->nodes[j].cluster == c) continue;
        for (int q = 0; q < r->nodes[j].reads.len; q++)
            if (r->nodes[j].reads.items[q] == x) return true;
    }
    if (!r->exported[member]) return false;
    PtrVec res = { 0 };
    fu_free_vars_expr(F, r->block->u.block.result, &res);
    return in_list(res.len, (Sym *)res.items, x);
}

/* dup: the views copied into this kernel (find_dup_views); their results
 * are the other readers' too, so never the kernel's. */
static LcuBind *merge_cluster(Fu *F, Sizes *S, Region *r, const int *mem, int nm, const bool *dup)
{
    Arena *a = F->a;
    NameSet top = { 0 }, taken = { 0 }, views = { 0 };
    /* kernel-level names are the CPU names of the cluster's inputs and results */
    for (int q = 0; q < nm; q++) {
        const Node *nd = &r->nodes[mem[q]];
        for (int v = 0; v < nd->bind->nvars; v++) {
            nameset_add(a, &top, nd->bind->vars[v]);
            if (nd->view) nameset_add(a, &views, nd->bind->vars[v]);
        }
        const LcuExpr *run = nd->bind->rhs;
        for (int i = 0; i < run->u.call.nargs; i++)
            if (run->u.call.args[i]->kind == LE_VAR) nameset_add(a, &top, run->u.call.args[i]->u.var);
        thunk_names(F, nd->k, &taken);
    }
    for (int i = 0; i < top.cap; i++) if (top.slots[i]) nameset_add(a, &taken, top.slots[i]);

    PtrVec params = { 0 }, runargs = { 0 }, binds = { 0 }, defined = { 0 };
    for (int q = 0; q < nm; q++) {
        const Node *nd = &r->nodes[mem[q]];
        const LcuKernel *k = nd->k;
        const LcuExpr *run = nd->bind->rhs;
        const Sub *s = NULL;
        for (int i = 0; i < k->nparams; i++) {
            const LcuExpr *arg = run->u.call.args[i];
            if (arg->kind != LE_VAR) { s = sub_add(F, s, k->params[i].name, NULL, arg); continue; }
            Sym x = arg->u.var;
            s = sub_add(F, s, k->params[i].name, x, NULL);
            if (in_list(defined.len, (Sym *)defined.items, x)) continue;
            bool have = false;
            for (int p = 0; p < params.len && !have; p++) have = ((LcuParam *)params.items[p])->name == x;
            if (have) continue;
            LcuParam *p = arena_alloc(a, sizeof *p);
            *p = (LcuParam){ x, k->params[i].type, k->params[i].span };
            ptrvec_push(a, &params, p);
            ptrvec_push(a, &runargs, lcu_e_var(a, run->span, x));
        }
        const LcuKBind *kb = k->binds[0];
        for (int v = 0; v < kb->nvars; v++) s = sub_add(F, s, kb->vars[v], nd->bind->vars[v], NULL);
        Copier c = { F, &taken, &top, false, NULL, NULL, NULL };
        LcuArg **args = arena_alloc(a, sizeof *args * (size_t)kb->soac->nargs);
        for (int i = 0; i < kb->soac->nargs; i++) args[i] = fu_copy_arg(&c, kb->soac->args[i], s);
        LcuKBind *nb = arena_alloc(a, sizeof *nb);
        *nb = *kb;
        nb->vars = nd->bind->vars;
        nb->types = NULL;
        nb->soac = lcu_soac(a, kb->soac->span, kb->soac->kind, kb->soac->nargs, args);
        /* over the kernel's parameters, renamed as the arguments (never a
         * member's result: fu_pdg.c keeps such a reader out of the cluster) */
        if (kb->soac->kept) nb->soac->kept = fu_copy(&c, kb->soac->kept, s);
        ptrvec_push(a, &binds, nb);
        for (int v = 0; v < nd->bind->nvars; v++) ptrvec_push(a, &defined, (void *)nd->bind->vars[v]);
    }
    /* results: what is read after the cluster (at least one value) */
    PtrVec rets = { 0 }, rtypes = { 0 }, ktypes = { 0 };
    for (int q = 0; q < nm; q++) {
        const Node *nd = &r->nodes[mem[q]];
        for (int v = 0; v < nd->bind->nvars && !dup[mem[q]]; v++) {
            if (!used_outside(F, r, mem[q], nd->bind->vars[v])) continue;
            ptrvec_push(a, &rets, (void *)nd->bind->vars[v]);
            ptrvec_push(a, &rtypes, (void *)nd->bind->types[v]);
            ptrvec_push(a, &ktypes, (void *)lcu_t_component(nd->k->result, v));
        }
    }
    if (rets.len == 0) {   /* (the last member is a reader: a copied view comes before its readers) */
        const Node *nd = &r->nodes[mem[nm - 1]];
        ptrvec_push(a, &rets, (void *)nd->bind->vars[0]);
        ptrvec_push(a, &rtypes, (void *)nd->bind->types[0]);
        ptrvec_push(a, &ktypes, (void *)lcu_t_component(nd->k->result, 0));
    }
    LcuKernel *k = arena_alloc(a, sizeof *k);
    k->span = r->nodes[mem[0]].k->span;
    k->name = kernel_name(F);
    k->nparams = params.len;
    k->params = arena_alloc(a, sizeof *k->params * (size_t)(params.len ? params.len : 1));
    for (int i = 0; i < params.len; i++) k->params[i] = *(LcuParam *)params.items[i];
    k->result = lcu_t_tuple(a, ktypes.len, (const LcuType **)ktypes.items);
    k->nbinds = binds.len;
    k->binds = (LcuKBind **)binds.items;
    k->nrets = rets.len;
    k->rets = (Sym *)rets.items;
    k->ret_spans = arena_alloc(a, sizeof(Span) * (size_t)rets.len);
    for (int i = 0; i < rets.len; i++) k->ret_spans[i] = k->span;
    k->ret_paren = rets.len > 1;
    SizeCtx sc = { S };
    rewrite_kernel(F, k, &taken, &views, same_size, &sc);
    unify_sizes(F, k, &sc);
    fu_fix_using(F, k);
    /* parameters no SOAC reads any more are dropped, with their arguments */
    int keep = 0;
    for (int i = 0; i < k->nparams; i++) {
        bool used = false;
        for (int b = 0; b < k->nbinds && !used; b++) {
            const LcuSoac *so = k->binds[b]->soac;
            for (int g = 0; g < so->nargs && !used; g++) {
                PtrVec fv = { 0 };
                fu_free_vars_arg(F, so->args[g], &fv);
                used = in_list(fv.len, (Sym *)fv.items, k->params[i].name);
            }
            if (so->kept && !used) used = fu_mentions(F, so->kept, k->params[i].name);
        }
        if (in_list(k->nrets, k->rets, k->params[i].name)) used = true;
        if (!used) continue;
        k->params[keep] = k->params[i];
        runargs.items[keep++] = runargs.items[i];
    }
    k->nparams = keep;
    runargs.len = keep;
    ptrvec_push(a, &F->new_kernels, k);
    F->report->merged_kernels++;
    LcuExpr *run = lcu_e_run(a, r->nodes[mem[0]].bind->rhs->span, k->name, runargs.len, (LcuExpr **)runargs.items);
    return lcu_bind(a, r->nodes[mem[0]].bind->span, rets.len, (Sym *)rets.items, (const LcuType **)rtypes.items, run);
}

/* ------------------------------------------------------------------ a region */

static bool is_make_sd(const Node *nd)
{
    const LcuExpr *e = nd->bind->rhs;
    return nd->kind == NODE_CPU && e->kind == LE_CALL && !strcmp(e->u.call.name, "make_sd");
}

/* Can cluster c be emitted now: every node outside it that some member
 * depends on is done? */
static bool cluster_ready(const Region *r, const bool *done, int c)
{
    int n = r->n;
    for (int j = 0; j < n; j++) {
        if (r->nodes[j].cluster != c) continue;
        for (int p = 0; p < j; p++)
            if (!done[p] && r->nodes[p].cluster != c && r->edge[(size_t)p * (size_t)n + (size_t)j]) return false;
    }
    return true;
}

/* Clusters made only of views (Node.view) whose every reader is a kernel
 * that can compute them again (view_inlinable), none of which the
 * block's result reads: copied into each reader's kernel, where the
 * rewrite inlines them, instead of launched and stored.  (A view fused
 * with a view it reads at its own index: the gather by segment after a
 * lifted `xs[i]` of a nested sequence, an index MAP and the gather
 * through it, read in turn by a lifted `++`.) */
static void find_dup_views(Fu *F, Sizes *S, const Region *r, bool *dup)
{
    int n = r->n;
    bool *kept = arena_alloc(F->a, sizeof *kept * (size_t)n);   /* per cluster: a member is not copied */
    for (int v = 0; v < n; v++) {
        const Node *V = &r->nodes[v];
        if (V->cluster < 0) continue;
        bool ok = V->view && !r->exported[v], any = false;
        for (int j = v + 1; j < n && ok; j++) {
            if (!reads_node(&r->nodes[j], V)) continue;
            any = true;
            ok = view_inlinable(F, S, V, &r->nodes[j]);
        }
        if (!ok || !any) kept[V->cluster] = true;
    }
    for (int v = 0; v < n; v++) dup[v] = r->nodes[v].cluster >= 0 && !kept[r->nodes[v].cluster];
}

/* The members of a cluster (order[p..q)) and the copied views they read,
 * directly or through another, in node order (a view before its readers).
 * in: n false flags, left false. */
static int with_views(const Region *r, const bool *dup, const int *order, int p, int q, int *mem, bool *in)
{
    int n = r->n, nm = 0;
    for (int i = p; i < q; i++) in[order[i]] = true;
    for (int v = n - 1; v >= 0; v--) {   /* readers come after their views */
        if (!dup[v] || in[v]) continue;
        for (int j = v + 1; j < n && !in[v]; j++)
            if (in[j] && reads_node(&r->nodes[j], &r->nodes[v])) in[v] = true;
    }
    for (int i = 0; i < n; i++) if (in[i]) mem[nm++] = i;
    for (int i = 0; i < nm; i++) in[mem[i]] = false;
    return nm;
}

void merge_region(Fu *F, Sizes *S, Region *r)
{
    int n = r->n;
    if (n == 0) return;
    /* clusters in a topological order of the cluster graph, earliest first,
     * but a make_sd as soon as it can run: its scan is queued sooner, so a
     * wait for something else (a FILTER's count) may settle its total
     * before its segment ids need it (quicksort's result[0] and result[1]
     * descriptors: one wait for both, not one each) */
    int *order = arena_alloc(F->a, sizeof *order * (size_t)n);
    bool *done = arena_alloc(F->a, sizeof *done * (size_t)n);
    int norder = 0;
    while (norder < n) {
        int pick = -1;
        for (int i = 0; i < n && pick < 0; i++)
            if (!done[i] && is_make_sd(&r->nodes[i]) && cluster_ready(r, done, r->nodes[i].cluster)) pick = r->nodes[i].cluster;
        for (int i = 0; i < n && pick < 0; i++)
            if (!done[i] && cluster_ready(r, done, r->nodes[i].cluster)) pick = r->nodes[i].cluster;
        if (pick < 0) ICE("fusion: the clusters of region %d form a cycle", r->index);
        for (int i = 0; i < n; i++)
            if (r->nodes[i].cluster == pick) { done[i] = true; order[norder++] = i; }
    }
    bool *dup = arena_alloc(F->a, sizeof *dup * (size_t)n);
    find_dup_views(F, S, r, dup);
    int *mem = arena_alloc(F->a, sizeof *mem * (size_t)n);
    bool *in = arena_alloc(F->a, sizeof *in * (size_t)n);
    PtrVec binds = { 0 };
    for (int p = 0; p < n;) {
        int c = r->nodes[order[p]].cluster;
        int q = p;
        while (q < n && r->nodes[order[q]].cluster == c) q++;
        bool copied = true;   /* copied views: in their readers */
        for (int i = p; i < q; i++) copied = copied && dup[order[i]];
        int nm = copied ? 0 : with_views(r, dup, order, p, q, mem, in);
        if (nm == 1) ptrvec_push(F->a, &binds, r->nodes[mem[0]].bind);
        else if (nm > 1) ptrvec_push(F->a, &binds, merge_cluster(F, S, r, mem, nm, dup));
        p = q;
    }
    r->block->u.block.nbinds = binds.len;
    r->block->u.block.binds = (LcuBind **)binds.items;
}

/* ------------------------------------------------------------------ program */

/* Copy the CPU structure that fusion rewrites (blocks, ifs, bindings). */
static LcuExpr *copy_cpu(Fu *F, const LcuExpr *e)
{
    LcuExpr *n;
    switch (e->kind) {
    case LE_BLOCK:
        n = arena_alloc(F->a, sizeof *n);
        *n = *e;
        n->u.block.binds = arena_alloc(F->a, sizeof(LcuBind *) * (size_t)(e->u.block.nbinds ? e->u.block.nbinds : 1));
        for (int i = 0; i < e->u.block.nbinds; i++) {
            LcuBind *b = arena_alloc(F->a, sizeof *b);
            *b = *e->u.block.binds[i];
            b->rhs = copy_cpu(F, b->rhs);
            n->u.block.binds[i] = b;
        }
        n->u.block.result = copy_cpu(F, e->u.block.result);
        return n;
    case LE_IF:
        n = arena_alloc(F->a, sizeof *n);
        *n = *e;
        n->u.if_.then_e = copy_cpu(F, e->u.if_.then_e);
        n->u.if_.else_e = copy_cpu(F, e->u.if_.else_e);
        return n;
    default:
        return (LcuExpr *)e;
    }
}

typedef struct FunCtx { Fu *F; Sizes *S; const char *fun; int *nregions; } FunCtx;

/* (Looked up only where an inlined index has the pos_in form.) */
const SdAccess *fu_sd_access(const Fu *F, Sym v)
{
    for (int i = 0; i < F->sd_access.len; i++) {
        const SdAccess *acc = F->sd_access.items[i];
        if (acc->v == v) return acc;
    }
    return NULL;
}

static void fuse_expr(FunCtx *c, LcuExpr *e);

static void fuse_block(FunCtx *c, LcuExpr *blk)
{
    for (int i = 0; i < blk->u.block.nbinds; i++) fuse_expr(c, blk->u.block.binds[i]->rhs);
    fuse_expr(c, blk->u.block.result);
    Region r = { 0 };
    r.fun = c->fun;
    r.index = (*c->nregions)++;
    pdg_build(c->F, c->S, &r, blk);
    if (r.n > c->F->report->largest_region) c->F->report->largest_region = r.n;
    schedule_region(c->F, &r);
    if (c->F->opt && c->F->opt->pdg) dot_region(c->F, &r);
    merge_region(c->F, c->S, &r);
}

static void fuse_expr(FunCtx *c, LcuExpr *e)
{
    switch (e->kind) {
    case LE_BLOCK: fuse_block(c, e); return;
    case LE_IF: fuse_expr(c, e->u.if_.then_e); fuse_expr(c, e->u.if_.else_e); return;
    default: return;
    }
}

/* Fusion names kernel-level values after CPU variables: a function whose
 * binders are not all distinct is left as it is. */
static bool distinct_binders(Fu *F, const LcuExpr *e, NameSet *seen)
{
    switch (e->kind) {
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) {
            const LcuBind *b = e->u.block.binds[i];
            for (int v = 0; v < b->nvars; v++) {
                if (nameset_has(seen, b->vars[v])) return false;
                nameset_add(F->a, seen, b->vars[v]);
            }
            if (!distinct_binders(F, b->rhs, seen)) return false;
        }
        return distinct_binders(F, e->u.block.result, seen);
    case LE_IF: return distinct_binders(F, e->u.if_.then_e, seen) && distinct_binders(F, e->u.if_.else_e, seen);
    default: return true;
    }
}

static void note_runs(const LcuExpr *e, NameSet *s, Arena *a)
{
    switch (e->kind) {
    case LE_RUN: nameset_add(a, s, e->u.call.name); return;
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) note_runs(e->u.block.binds[i]->rhs, s, a);
        note_runs(e->u.block.result, s, a);
        return;
    case LE_IF: note_runs(e->u.if_.cond, s, a); note_runs(e->u.if_.then_e, s, a); note_runs(e->u.if_.else_e, s, a); return;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) note_runs(e->u.tuple.elems[i], s, a);
        return;
    case LE_LET: case LE_LOOP: note_runs(e->u.let.bind->rhs, s, a); note_runs(e->u.let.body, s, a); return;
    case LE_BINOP: note_runs(e->u.bin.l, s, a); note_runs(e->u.bin.r, s, a); return;
    case LE_UNOP: note_runs(e->u.un.e, s, a); return;
    case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) note_runs(e->u.call.args[i], s, a);
        return;
    case LE_LIB:
        for (int i = 0; i < e->u.lib.nargs; i++) note_runs(e->u.lib.args[i], s, a);
        return;
    case LE_INDEX: note_runs(e->u.index.idx, s, a); return;
    default: return;
    }
}

LcuProgram *fusion_program(Arena *a, Interner *in, const LcuProgram *p, const FusionOptions *o, FusionReport *report)
{
    FusionReport dummy;
    Fu st = { .a = a, .in = in, .prog = p, .opt = o, .report = report ? report : &dummy };
    memset(st.report, 0, sizeof *st.report);
    Fu *F = &st;
    for (int i = 0; i < p->nkernels; i++) nameset_add(a, &F->kernel_names, p->kernels[i]->name);
    LcuProgram *q = arena_alloc(a, sizeof *q);
    *q = *p;
    q->funs = arena_alloc(a, sizeof *q->funs * (size_t)(p->nfuns ? p->nfuns : 1));
    int nregions = 0;
    NameSet before = { 0 }, after = { 0 };
    for (int i = 0; i < p->nfuns; i++) {
        const LcuFun *f = p->funs[i];
        note_runs(f->body, &before, a);
        LcuFun *nf = arena_alloc(a, sizeof *nf);
        *nf = *f;
        q->funs[i] = nf;
        NameSet seen = { 0 };
        for (int j = 0; j < f->nparams; j++) nameset_add(a, &seen, f->params[j].name);
        if (!distinct_binders(F, f->body, &seen)) continue;
        nf->body = copy_cpu(F, f->body);
        Sizes S = { .F = F };
        F->sd_access.len = 0;   /* filled by sizes_collect_fun */
        sizes_collect_fun(&S, nf);
        FunCtx c = { F, &S, f->name, &nregions };
        fuse_expr(&c, nf->body);
        note_runs(nf->body, &after, a);
    }
    for (int i = 0; i < p->nfuns; i++) note_runs(q->funs[i]->body, &after, a);
    /* kernels: those still run or never run by the input, then the merged ones */
    PtrVec ks = { 0 };
    for (int i = 0; i < p->nkernels; i++)
        if (nameset_has(&after, p->kernels[i]->name) || !nameset_has(&before, p->kernels[i]->name))
            ptrvec_push(a, &ks, p->kernels[i]);
    for (int i = 0; i < F->new_kernels.len; i++) ptrvec_push(a, &ks, F->new_kernels.items[i]);
    q->nkernels = ks.len;
    q->kernels = (LcuKernel **)ks.items;
    return q;
}
