/* gen_spec.c — a device thunk's in-range reads at segment-invariant
 * indices, loaded at its top before any branch (speculative loads).
 *
 * A MAP by segment (gen_kernel_ids) reads its segment's values — offsets,
 * lengths, the positions its branches choose between — through in-range
 * subscripts v.[e] whose index depends only on the element's segment id
 * (segids (s) read at the index), literals and the kernel's scalars.  In
 * the branches of an if, such a read waits for the loads that decide the
 * branch, and a thread's RUN elements (nesl_k_seg_tiles) then go one after
 * another: quicksort's `result[0] ++ equal ++ result[1]`, four levels of
 * dependent loads under two ifs, ran at 28% of the H100's DRAM bandwidth
 * with its warps waiting on L1TEX 59% of the time (bench/RESULTS.md,
 * session 35).  Loaded at the top, the reads of all of a thread's
 * elements are in flight together, and the branches keep arithmetic and
 * the element's own gather.
 *
 * A read its path would not make may be out of range: each load is a
 * select on its bounds (nesl_spec_ld: memory is read only where the vector
 * has that element), and its value is used only where the original path
 * reads it, in range there by the subscript's promise (doc/lcu.md).  Reads
 * that depend on the element's own index are not moved: speculated, a
 * gather from a stream would cost memory traffic, where a segment's values
 * are read by all its elements and stay cached. */
#include <string.h>
#include "cudagen.h"

#define SPEC_MAX 32   /* loads a thunk; more are left where they are */

typedef struct SpecScan {
    Gen *g;
    const CEnv *env;
    Sym p;                     /* the thunk's index parameter */
    PtrVec bound;              /* its other parameters and the names bound inside the body */
    const LcuExpr *reads[SPEC_MAX];
    int n;
    int cond;                  /* > 0: inside a branch or a short-circuit operand */
    bool branched;             /* a read found under a branch: loading early helps */
} SpecScan;

static bool bound_in(const SpecScan *s, Sym x)
{
    for (int i = 0; i < s->bound.len; i++)
        if (s->bound.items[i] == (void *)x) return true;
    return false;
}

/* lcu_names_expr's callback: a name bound inside the body (free false). */
static void note_bound(void *ctx, Sym x, bool free)
{
    SpecScan *s = ctx;
    if (!free && !bound_in(s, x)) ptrvec_push(s->g->a, &s->bound, (void *)x);
}

/* Is e the same for all elements of a segment, and computed without a
 * possible failure: literals, the kernel's scalars, the segment id (a read
 * at the index of a vector computed there: CVal.at_index) and in-range
 * reads at such indices, under + - *, comparisons, and / or rem by a
 * nonzero literal? */
static bool seg_invariant(const SpecScan *s, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_CHAR: case LE_BOOL: return true;
    case LE_VAR: return e->u.var != s->p && !bound_in(s, e->u.var) && e->type->kind == LT_BASE;
    case LE_INDEX: {
        const CVal *v = cenv_find(s->env, e->u.index.vec);
        const LcuExpr *i = e->u.index.idx;
        if (v->at_index) return i->kind == LE_VAR && i->u.var == s->p;
        return e->u.index.inrange && seg_invariant(s, i);
    }
    case LE_BINOP:
        switch (e->u.bin.op) {
        case LOP_ADD: case LOP_SUB: case LOP_MUL:
        case LOP_EQ: case LOP_NE: case LOP_LT: case LOP_LE: case LOP_GT: case LOP_GE:
            return seg_invariant(s, e->u.bin.l) && seg_invariant(s, e->u.bin.r);
        case LOP_DIV: case LOP_MOD:   /* by a nonzero literal: no check (gen_binop) */
            return e->u.bin.r->kind == LE_INT && e->u.bin.r->u.i != 0 && seg_invariant(s, e->u.bin.l);
        case LOP_AND: case LOP_OR:
            return false;
        }
        return false;
    default: return false;
    }
}

static void note_read(SpecScan *s, const LcuExpr *e)
{
    for (int i = 0; i < s->n; i++)
        if (lcu_expr_equal(s->reads[i], e)) {
            s->branched |= s->cond > 0;
            return;
        }
    if (s->n == SPEC_MAX) return;
    s->reads[s->n++] = e;
    s->branched |= s->cond > 0;
}

/* The in-range reads at segment-invariant indices, inner ones first. */
static void scan(SpecScan *s, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INDEX:
        scan(s, e->u.index.idx);
        if (e->u.index.inrange && !cenv_find(s->env, e->u.index.vec)->at_index && seg_invariant(s, e)) note_read(s, e);
        return;
    case LE_IF:
        scan(s, e->u.if_.cond);
        s->cond++;
        scan(s, e->u.if_.then_e);
        scan(s, e->u.if_.else_e);
        s->cond--;
        return;
    case LE_BINOP:
        scan(s, e->u.bin.l);
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR) s->cond++;
        scan(s, e->u.bin.r);
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR) s->cond--;
        return;
    case LE_LET: case LE_LOOP:
        scan(s, e->u.let.bind->rhs);
        if (e->kind == LE_LOOP) s->cond++;   /* a loop's body may run no time */
        scan(s, e->u.let.body);
        if (e->kind == LE_LOOP) s->cond--;
        return;
    case LE_TUPLE: case LE_RECUR: for (int i = 0; i < e->u.tuple.n; i++) scan(s, e->u.tuple.elems[i]); return;
    case LE_UNOP: scan(s, e->u.un.e); return;
    case LE_CALL: for (int i = 0; i < e->u.call.nargs; i++) scan(s, e->u.call.args[i]); return;
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN:
    case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB:
        return;
    }
}

const SpecLoads *gen_spec_loads(Gen *g, const LcuThunk *th, int at, const CEnv *env, const ErrCtx *ec, CBlock *blk)
{
    if (!g->skel->device || ec->host || at < 0 || at >= th->nparams) return NULL;
    SpecScan s = { .g = g, .env = env, .p = th->params[at] };
    lcu_names_expr(g->a, th->body, note_bound, &s);
    if (bound_in(&s, s.p)) return NULL;   /* the index rebound: "segment-invariant" would mean another thing */
    for (int i = 0; i < th->nparams; i++)   /* a predicate's pulled element varies with the index too */
        if (i != at) ptrvec_push(g->a, &s.bound, (void *)th->params[i]);
    scan(&s, th->body);
    if (!s.branched) return NULL;   /* every read on every path: nothing to gain */
    SpecLoads *L = arena_alloc(g->a, sizeof *L);
    L->n = 0;
    L->reads = arena_alloc(g->a, sizeof *L->reads * (size_t)s.n);
    L->vals = arena_alloc(g->a, sizeof *L->vals * (size_t)s.n);
    const SpecLoads *outer = g->spec;
    g->spec = L;   /* the inner reads, loaded first, are found by the outer ones' indices */
    for (int k = 0; k < s.n; k++) {
        const LcuExpr *r = s.reads[k];
        const CVal *v = cenv_find(env, r->u.index.vec);
        CExpr *ix = gen_expr(g, env, ec, r->u.index.idx, blk)[0];
        CExpr *ld = cx_calln(g->a, "nesl_spec_ld", 3, cval_data(g, v), ix, cval_len(g, v));
        L->vals[k] = gen_hoist(g, blk, gen_base_ctype(g, v->type->base), r->u.index.vec, ld);
        L->reads[k] = r;
        L->n = k + 1;
    }
    g->spec = outer;
    return L;
}

CExpr *gen_spec_find(const Gen *g, const LcuExpr *e)
{
    const SpecLoads *L = g->spec;
    for (int k = 0; L && k < L->n; k++)
        if (lcu_expr_equal(L->reads[k], e)) return L->vals[k];
    return NULL;
}
