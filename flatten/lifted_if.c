/* lifted_if.c — `if` on a lifted condition (doc/flattening.md, the lifted
 * if), where expr.c's fl_if found the branches not cheap enough to select
 * (speculate.c).
 *
 * The context is partitioned by the flags: a PARTITION of the indices and
 * a gather of every lifted free variable of the branches, in one CPU `if`
 * on "both parts non-empty" (one control region, so fusion merges the
 * gathers of equal size).  Each branch runs on its packed part, skipped
 * when the part is empty (which ends recursion); when all elements take
 * one branch it runs on the context as it is.  Then the two results are
 * put back together: concatenated and permuted by the inverse of the
 * partition.
 *
 * A branch that costs nothing over the whole context and cannot fail
 * (quicksort's `s`, quickhull's `[a]`: fl_branch_unpacked) is evaluated
 * unpacked, before the partition: only the other branch's variables are
 * packed, and the combine reads its value at the element's own index. */
#include "flatten_impl.h"

typedef struct LiftedIf {
    const Ctx *cx;
    Type *t;               /* the if's type */
    Sym flags;
    LcuExpr *N;            /* the context's count */
    Expr *br[2];           /* then, else */
    int cheap;             /* the branch evaluated unpacked, or -1 */
    FVal pre;              /* its value over the whole context */
    BSet fv[2];            /* each branch's free variables */
    Sym *tsum[2];          /* per free variable: its lengths where flags holds (0: none) */
    Sym nt, ne;            /* the elements taking then, else */
} LiftedIf;

/* A variable must be lifted: replicating an unlifted sequence over the
 * context would cost more than packing it. */
static int unpacked_branch(const LiftedIf *L)
{
    for (int k = 0; k < 2; k++) {
        if (!fl_branch_unpacked(L->br[k])) continue;
        const FVal *v = L->br[k]->kind == EX_VAR ? fl_env_find(L->cx->env, L->br[k]->binder) : NULL;
        if (L->br[k]->kind != EX_VAR || (v && v->lifted && !v->via)) return k;
    }
    return -1;
}

/* The then side's total of each lifted sequence variable (the lengths
 * where flags holds), summed by REDUCEs of nt's size that fusion tuples
 * with nt's: the packed sequences' descriptors get their totals from them
 * (the else side's by subtraction) instead of a wait for their scans
 * after the partition (quicksort: one wait a recursion level). */
static void branch_sums(Fl *F, LiftedIf *L)
{
    for (int k = 0; k < 2; k++) {
        L->tsum[k] = arena_alloc(F->a, sizeof(Sym) * (size_t)(L->fv[k].v.len + 1));
        for (int i = 0; i < L->fv[k].v.len; i++) {
            const FVal *v = fl_env_find(L->cx->env, L->fv[k].v.items[i]);
            L->tsum[k][i] = 0;
            if (k == L->cheap || !v || !v->lifted || v->via || type_prune(v->type)->kind != TY_SEQ) continue;
            for (int j = 0; k == 1 && j < L->fv[0].v.len; j++)
                if (L->fv[0].v.items[j] == L->fv[1].v.items[i]) L->tsum[1][i] = L->tsum[0][j];
            if (!L->tsum[k][i]) L->tsum[k][i] = fl_sum_where(F, L->flags, fl_sd_lengths(F, v->c[0]));
        }
    }
}

/* The unpacked branch's lengths where flags holds, for the combined
 * descriptor's total (0: its value is no sequence).  A variable the other
 * branch reads is summed already. */
static Sym unpacked_sum(Fl *F, const LiftedIf *L)
{
    int o = 1 - L->cheap;
    for (int i = 0; L->br[L->cheap]->kind == EX_VAR && i < L->fv[o].v.len; i++)
        if (L->fv[o].v.items[i] == L->br[L->cheap]->binder && L->tsum[o][i]) return L->tsum[o][i];
    if (type_prune(L->t)->kind != TY_SEQ) return 0;
    return fl_sum_where(F, L->flags, fl_sd_lengths(F, L->pre.c[0]));
}

/* The packed context: when both parts are non-empty, the partition index
 * (then, else) and the gather of every lifted free variable of the packed
 * branches; otherwise empty indices and the variables as they are.  One
 * CPU if with one tuple result, of n components. */
static Sym *pack(Fl *F, const LiftedIf *L, Sym mixed)
{
    int n = 2;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < L->fv[k].v.len && k != L->cheap; i++) {
            const FVal *v = fl_env_find(L->cx->env, L->fv[k].v.items[i]);
            if (v && v->lifted) n += v->via ? 1 : v->n;
        }
    const LcuType **tys = arena_alloc(F->a, sizeof *tys * (size_t)n);
    Sym *thn = arena_alloc(F->a, sizeof *thn * (size_t)n), *els = arena_alloc(F->a, sizeof *els * (size_t)n);
    int nthen = 2, nelse = 0;
    Block bp, bn;
    fl_block_push(F, &bp);
    fl_partition_index(F, L->flags, L->N, L->nt, &thn[0], &thn[1]);
    tys[0] = tys[1] = T_vec(F, LB_INT);
    /* where a variable's then-side gather starts in thn (-1: none): the
     * else side of one read by both branches gets its descriptors' totals
     * by subtraction, without waiting for them */
    int *at0 = arena_alloc(F->a, sizeof *at0 * (size_t)(L->fv[0].v.len + 1));
    for (int i = 0; i < L->fv[0].v.len; i++) at0[i] = -1;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < L->fv[k].v.len && k != L->cheap; i++) {
            const FVal *v = fl_env_find(L->cx->env, L->fv[k].v.items[i]);
            if (!v || !v->lifted) continue;
            if (v->via) {
                tys[nthen] = T_vec(F, LB_INT);
                thn[nthen++] = fl_gather_in(F, LB_INT, v->via, thn[k]);
                continue;
            }
            const Sym *rest = NULL;
            for (int j = 0; k == 1 && j < L->fv[0].v.len; j++)
                if (L->fv[0].v.items[j] == L->fv[1].v.items[i] && at0[j] >= 0) rest = thn + at0[j];
            if (k == 0) at0[i] = nthen;
            Sym tot = 0;   /* the packed outer sequence's total, where known */
            Sym ts = L->tsum[k][i];
            if (ts && k == 0) tot = ts;
            else if (ts && !rest) tot = fl_emit(F, T_int(F), X_bin(F, LOP_SUB, X_var(F, fl_sd_total(F, v->c[0])), X_var(F, ts)));
            FVal g = tot ? rep_gather_total_in(F, v->type, v->c, thn[k], tot)
                   : rest ? rep_gather_rest_in(F, v->type, v->c, thn[k], rest) : rep_gather_in(F, v->type, v->c, thn[k]);
            for (int j = 0; j < g.n; j++) { tys[nthen] = g.t[j]; thn[nthen++] = g.c[j]; }
        }
    LcuExpr *pb = fl_block_pop(F, X_rest(F, nthen, thn));
    fl_block_push(F, &bn);
    for (int k = 0; k < 2; k++) els[nelse++] = fl_empty(F, LB_INT);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < L->fv[k].v.len && k != L->cheap; i++) {
            const FVal *v = fl_env_find(L->cx->env, L->fv[k].v.items[i]);
            if (!v || !v->lifted) continue;
            if (v->via) els[nelse++] = v->via;
            else for (int j = 0; j < v->n; j++) els[nelse++] = v->c[j];
        }
    LcuExpr *nb = fl_block_pop(F, X_rest(F, nelse, els));
    if (nthen != n || nelse != n) ICE("flatten: packed %d and %d components of %d", nthen, nelse, n);
    return fl_emit_tuple(F, n, tys, X_if(F, X_var(F, mixed), pb, nb));
}

/* Each packed branch on its part (r: pack's tuple), always guarded: when
 * no element takes it, its variables were not packed, so it must not run
 * at all. */
static void run_branches(Fl *F, const LiftedIf *L, const Sym *r, FVal res[2])
{
    int at = 2;
    for (int k = 0; k < 2; k++) {
        if (k == L->cheap) {
            res[k] = L->pre;
            continue;
        }
        Ctx sub = *L->cx;
        for (int i = 0; i < L->fv[k].v.len; i++) {
            Binder *b = L->fv[k].v.items[i];
            const FVal *v = fl_env_find(L->cx->env, b);
            if (!v || !v->lifted) continue;
            FVal w = *v;
            if (v->via) w.via = r[at++];
            else { w = fv_make(F, v->type, true, v->n, (Sym *)r + at); at += v->n; }
            sub.env = fl_env_add(F, sub.env, b, w);
        }
        sub.count = k == 0 ? L->nt : L->ne;
        res[k] = fl_guarded_body(F, &sub, L->t, L->br[k], true);
    }
}

/* Both parts non-empty: the result from the branches' (it, ie: the
 * partition's indices). */
static FVal combine(Fl *F, const LiftedIf *L, Sym it, Sym ie, const FVal res[2], Sym pre_sum)
{
    Type *t = L->t;
    if (L->cheap < 0) {
        /* element i of the result is at inv[i] of then ++ else */
        const Sym it1[1] = { it }, ie1[1] = { ie };
        FVal cat = rep_concat(F, type_base(F->a, TY_INT), it1, X_var(F, L->nt), ie1, X_var(F, L->ne));
        Sym j = fl_fresh(F, "j"), k = fl_fresh(F, "k");
        LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, j, X_var(F, j))),
                          A_thunk(F, fl_thunk1(F, k, X_idx(F, cat.c[0], X_var(F, k)))), A_expr(F, L->N) };
        Sym inv = fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_PERMUTE, 3, as));
        FVal both = rep_concat(F, t, res[0].c, X_var(F, L->nt), res[1].c, X_var(F, L->ne));
        return rep_permute_in(F, t, both.c, inv);   /* inv is a permutation */
    }
    /* element i is the unpacked branch's i, or the other's rank among its
     * side's elements (from the exclusive count of true flags before i: no
     * inverse permutation), of pre ++ other */
    int cheap = L->cheap, o = 1 - cheap;
    FVal both = rep_concat(F, t, L->pre.c, L->N, res[o].c, X_var(F, o == 0 ? L->nt : L->ne));
    Sym before = fl_count_true_before(F, L->flags);
    Sym q = fl_fresh(F, "q");
    LcuExpr *own = X_var(F, q);
    LcuExpr *rank = o == 0 ? X_idx(F, before, X_var(F, q)) : X_bin(F, LOP_SUB, X_var(F, q), X_idx(F, before, X_var(F, q)));
    LcuExpr *other = X_bin(F, LOP_ADD, L->N, rank);
    Sym g = fl_map(F, LB_INT, q, X_if(F, X_idx(F, L->flags, X_var(F, q)), cheap == 0 ? own : other, cheap == 0 ? other : own), L->N);
    if (!pre_sum) return rep_gather_in(F, t, both.c, g);
    /* the unpacked part's total where it is taken, and all of the other's */
    LcuExpr *taken = cheap == 0 ? X_var(F, pre_sum) : X_bin(F, LOP_SUB, X_var(F, fl_sd_total(F, L->pre.c[0])), X_var(F, pre_sum));
    Sym tot = fl_emit(F, T_int(F), X_bin(F, LOP_ADD, taken, X_var(F, fl_sd_total(F, res[o].c[0]))));
    return rep_gather_total_in(F, t, both.c, g, tot);
}

FVal fl_if_lifted(Fl *F, const Ctx *cx, Expr *e, Sym flags)
{
    LiftedIf L = { .cx = cx, .t = e->type, .flags = flags, .N = X_var(F, cx->count), .br = { e->b, e->c }, .cheap = -1 };
    L.cheap = unpacked_branch(&L);
    if (L.cheap >= 0) L.pre = materialize(F, cx, fl_expr(F, cx, L.br[L.cheap]));
    for (int k = 0; k < 2; k++) L.fv[k] = fl_free_vars(F, L.br[k], NULL, NULL);
    L.nt = fl_count_true(F, flags);
    branch_sums(F, &L);
    Sym pre_sum = L.cheap >= 0 ? unpacked_sum(F, &L) : 0;
    L.ne = fl_emit(F, T_int(F), X_bin(F, LOP_SUB, L.N, X_var(F, L.nt)));
    Sym mixed = fl_emit(F, T_bool(F), X_bin(F, LOP_AND, X_bin(F, LOP_NE, X_var(F, L.nt), X_int(F, 0)),
                                                  X_bin(F, LOP_NE, X_var(F, L.ne), X_int(F, 0))));
    Sym *r = pack(F, &L, mixed);
    FVal res[2];
    run_branches(F, &L, r, res);
    Block bc, bu, b1, b2;
    fl_block_push(F, &bc);
    FVal comb = combine(F, &L, r[0], r[1], res, pre_sum);
    LcuExpr *cb = fl_block_pop(F, X_rest(F, comb.n, comb.c));
    /* one part empty: the branch that ran on the whole context */
    fl_block_push(F, &bu);
    fl_block_push(F, &b1);
    LcuExpr *eb = fl_block_pop(F, X_rest(F, res[1].n, res[1].c));
    fl_block_push(F, &b2);
    LcuExpr *tb = fl_block_pop(F, X_rest(F, res[0].n, res[0].c));
    FVal one = fl_emit_if(F, L.t, true, X_bin(F, LOP_EQ, X_var(F, L.nt), X_int(F, 0)), eb, tb);
    LcuExpr *ub = fl_block_pop(F, X_rest(F, one.n, one.c));
    return fl_emit_if(F, L.t, true, X_var(F, mixed), cb, ub);
}
