/* fu_ilp.c — choosing the clusters of a region: the ILP of Robinson et al.
 * ("Fusing filters with integer linear programming", 2014) solved with
 * lp_solve, or a greedy schedule for regions too large for it.
 *
 * Variables (nodes u < v that take part, N their number):
 *   pi_u   integer schedule slot in [0, N-1]; one cluster = one slot
 *   x_u_v  binary, 1 = u and v in different clusters (for candidate pairs)
 *   d_u_v  binary, the order of two unordered nodes in different slots
 *   m_u    binary, u's vector result is materialized in global memory
 * Constraints:
 *   u -> v fusible:             x <= pi_v - pi_u <= N x
 *   u -> v fusion-preventing    pi_v - pi_u >= 1   (also for a path through
 *     (or a path through a node   a node that cannot fuse)
 *     outside the ILP):
 *   u, v unordered, compatible: |pi_u - pi_v| <= N x, and x = 1 puts them in
 *                               different slots (through d);
 *                               conditional ones: x_u_v >= x of the FILTER
 *                               producer edge that gives them the same size
 *   u, v unordered, not compatible: different slots (through d)
 *   m_u >= x_u_v for every fusible consumer v of u
 * Objective (KiB for a nominal vector of 2^20 elements):
 *   sum bytes(u) m_u                  writes of materialized intermediates
 * + sum bytes(u) x_u_v (u -> v)       their reads
 * + sum shared(u, v) x_u_v            inputs two horizontal partners both read
 * + sum LAUNCH x_u_v                  a launch per pair left apart
 * Results read outside the region or by a node that cannot fuse are
 * materialized whatever the schedule (a constant, left out). */
#include <lpsolve/lp_lib.h>
#include <time.h>
#include <string.h>
#include "fu_impl.h"

#define NOMINAL_KIB 1024.0      /* a vector of 2^20 elements, per byte of element */
#define LAUNCH_KIB 8192.0       /* ~3 us of launch overhead at ~3 TB/s */

#define AT(m, i, j) (m)[(size_t)(i) * (size_t)r->n + (size_t)(j)]

static double base_bytes(LcuBase b)
{
    switch (b) {
    case LB_BOOL: case LB_CHAR: return 1;
    case LB_INT: return 4;
    case LB_FLOAT: return 8;
    case LB_UNIT: return 0;
    }
    return 0;
}

/* Global-memory KiB of a node's vector results. */
static double result_kib(const Node *nd)
{
    double s = 0;
    for (int i = 0; i < nd->bind->nvars; i++) {
        const LcuType *t = nd->bind->types[i];
        if (t->kind == LT_VEC || t->kind == LT_REF) s += base_bytes(t->base) * NOMINAL_KIB;
    }
    return s;
}

/* KiB of the vector arguments both nodes read. */
static double shared_kib(const Node *a, const Node *b)
{
    double s = 0;
    const LcuExpr *ra = a->bind->rhs, *rb = b->bind->rhs;
    for (int i = 0; i < ra->u.call.nargs; i++) {
        const LcuExpr *x = ra->u.call.args[i];
        if (x->kind != LE_VAR || !x->type || (x->type->kind != LT_VEC && x->type->kind != LT_REF)) continue;
        bool dupe = false;
        for (int k = 0; k < i && !dupe; k++)
            dupe = ra->u.call.args[k]->kind == LE_VAR && ra->u.call.args[k]->u.var == x->u.var;
        for (int j = 0; j < rb->u.call.nargs && !dupe; j++)
            if (rb->u.call.args[j]->kind == LE_VAR && rb->u.call.args[j]->u.var == x->u.var) {
                s += base_bytes(x->type->base) * NOMINAL_KIB;
                break;
            }
    }
    return s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ greedy */

typedef struct Pair { int u, v; double w; } Pair;

static int cmp_pair(const void *x, const void *y)
{
    const Pair *a = x, *b = y;
    if (a->w != b->w) return a->w > b->w ? -1 : 1;
    if (a->u != b->u) return a->u - b->u;
    return a->v - b->v;
}

/* Is the cluster c (members: cl[i] == c) a legal fused kernel?  Only the
 * members' pairs are looked at: a greedy region can have thousands of
 * nodes and is checked once per candidate pair. */
static bool cluster_legal(const Region *r, const int *cl, int c)
{
    int *mem = malloc(sizeof *mem * (size_t)(r->n + 1)), k = 0;
    for (int a = 0; a < r->n; a++)
        if (cl[a] == c) mem[k++] = a;
    bool ok = true;
    for (int x = 0; x < k && ok; x++)
        for (int y = x + 1; y < k && ok; y++) {
            int a = mem[x], b = mem[y];
            if (AT(r->reach, a, b)) {
                if (AT(r->via_cpu, a, b) || AT(r->edge, a, b) == EDGE_PREVENT) ok = false;
                for (int w = a + 1; w < b && ok; w++)
                    if (cl[w] != c && AT(r->reach, a, w) && AT(r->reach, w, b)) ok = false;
            } else {
                int h = pdg_horizontal(r, a, b);
                if (h < 0) ok = false;
                else if ((h & 1) && cl[r->nodes[a].alt_pred] != c) ok = false;
                else if ((h & 2) && cl[r->nodes[b].alt_pred] != c) ok = false;
            }
        }
    free(mem);
    return ok;
}

/* The greedy schedule keeps clusters as member lists (a cluster's id is
 * one of its nodes): first[c], then next[x] (-1 ends). */
typedef struct Clusters { int *cl, *first, *next, *mark, *stack, stamp; } Clusters;

/* May clusters cu and cv merge?  Each is legal on its own, and a merge
 * only removes outside nodes, so only the pairs across them are checked
 * (as cluster_legal checks every pair). */
static bool merge_legal(const Region *r, const Clusters *C, int cu, int cv)
{
    const int *cl = C->cl;
    for (int x = C->first[cu]; x >= 0; x = C->next[x])
        for (int y = C->first[cv]; y >= 0; y = C->next[y]) {
            int a = x < y ? x : y, b = x < y ? y : x;
            if (AT(r->reach, a, b)) {
                if (AT(r->via_cpu, a, b) || AT(r->edge, a, b) == EDGE_PREVENT) return false;
                for (int w = a + 1; w < b; w++)
                    if (cl[w] != cu && cl[w] != cv && AT(r->reach, a, w) && AT(r->reach, w, b)) return false;
            } else {
                int h = pdg_horizontal(r, a, b), pa = r->nodes[a].alt_pred, pb = r->nodes[b].alt_pred;
                if (h < 0) return false;
                if ((h & 1) && cl[pa] != cu && cl[pa] != cv) return false;
                if ((h & 2) && cl[pb] != cu && cl[pb] != cv) return false;
            }
        }
    return true;
}

/* Does a path of clusters lead from cluster `from` to `to` through some
 * third cluster?  (Merging the two would then close a cycle; the graph of
 * clusters is acyclic before.)  The search follows essential successors:
 * every edge x -> y is also a path of them, which may pass through more
 * clusters but then those edges exist too, so the answer is the same. */
static bool path_through_third(const Region *r, Clusters *C, int from, int to)
{
    int sp = 0, stamp = ++C->stamp;
    C->stack[sp++] = from;
    C->mark[from] = stamp;
    while (sp) {
        int c = C->stack[--sp];
        for (int x = C->first[c]; x >= 0; x = C->next[x])
            for (int k = 0; k < r->nsucc[x]; k++) {
                int d = C->cl[r->succ[x][k]];
                if (d == c) continue;
                if (d == to) {
                    if (c != from) return true;
                    continue;
                }
                if (C->mark[d] != stamp) {
                    C->mark[d] = stamp;
                    C->stack[sp++] = d;
                }
            }
    }
    return false;
}

/* Candidate pairs by weight; a pair's clusters merge when the union is a
 * legal kernel and the graph of clusters stays acyclic.  Work per pair is
 * bounded by the two clusters and the search, not by the region (regions
 * of thousands of nodes take this path). */
static void schedule_greedy(Fu *F, Region *r, const int *ilp, int m)
{
    int n = r->n;
    Clusters C = { 0 };
    C.cl = arena_alloc(F->a, sizeof *C.cl * (size_t)n);
    C.first = malloc(sizeof *C.first * (size_t)n);
    C.next = malloc(sizeof *C.next * (size_t)n);
    C.mark = calloc((size_t)n, sizeof *C.mark);
    C.stack = malloc(sizeof *C.stack * (size_t)n);
    for (int i = 0; i < n; i++) { C.cl[i] = C.first[i] = i; C.next[i] = -1; }
    Pair *ps = calloc((size_t)m * (size_t)(m - 1) / 2 + 1, sizeof *ps);
    int np = 0;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int u = ilp[a], v = ilp[b];
            double w = LAUNCH_KIB;
            if (AT(r->edge, u, v) == EDGE_FUSE) w += 2 * result_kib(&r->nodes[u]);
            else if (!AT(r->reach, u, v) && pdg_horizontal(r, u, v) >= 0) w += shared_kib(&r->nodes[u], &r->nodes[v]);
            else continue;
            ps[np++] = (Pair){ u, v, w };
        }
    qsort(ps, (size_t)np, sizeof *ps, cmp_pair);
    for (int p = 0; p < np; p++) {
        int cu = C.cl[ps[p].u], cv = C.cl[ps[p].v];
        if (cu == cv || !merge_legal(r, &C, cu, cv)) continue;
        if (path_through_third(r, &C, cu, cv) || path_through_third(r, &C, cv, cu)) continue;
        /* merge the higher id into the lower (ids stay node numbers) */
        int lo = cu < cv ? cu : cv, hi = cu < cv ? cv : cu, last = lo;
        while (C.next[last] >= 0) last = C.next[last];
        C.next[last] = C.first[hi];
        for (int x = C.first[hi]; x >= 0; x = C.next[x]) C.cl[x] = lo;
    }
    free(ps); free(C.first); free(C.next); free(C.mark); free(C.stack);
    for (int i = 0; i < n; i++) r->nodes[i].cluster = C.cl[i];
}

/* ------------------------------------------------------------------ ILP */

static int write_cb(void *h, char *buf) { fputs(buf, (FILE *)h); return 0; }

typedef struct Model { lprec *lp; int ncols; int *pi; int *x; double *obj; int m; const int *ilp; } Model;

static int new_col(Model *M, const char *name, bool binary)
{
    add_columnex(M->lp, 0, NULL, NULL);
    int c = ++M->ncols;
    set_col_name(M->lp, c, (char *)name);
    if (binary) set_binary(M->lp, c, TRUE);
    return c;
}

/* add_constraintex sorts its arrays in place: pass copies, so that callers
 * can reuse a column list with other coefficients. */
static void row(Model *M, int n, const int *cols, const double *vals, int type, double rhs)
{
    int c[8];
    double v[8];
    if (n > 8) ICE("fusion: ILP row of %d terms", n);
    memcpy(c, cols, sizeof *c * (size_t)n);
    memcpy(v, vals, sizeof *v * (size_t)n);
    add_constraintex(M->lp, n, v, c, type, rhs);
}

/* lp_solve's work budget: its abort callback is called at fixed points of
 * the simplex and branch-and-bound, the same for the same model, so a
 * budget of calls stops a solve at the same place on every machine and
 * under any load (a timeout in seconds did not: a loaded machine fell back
 * to the greedy schedule where an idle one found the optimum). */
typedef struct Work { long calls, limit; } Work;

static int __WINAPI work_spent(lprec *lp, void *h)
{
    (void)lp;
    Work *w = h;
    return ++w->calls > w->limit;
}

/* An objective term: x_u_v, or m_u when v < 0. */
typedef struct Term { int u, v; } Term;

/* The objective of the schedule in r's clusters, term by term as the model
 * counts it: x_u_v is 1 when u and v are in different clusters, m_u when
 * some x term (u, v) over a fusible edge is (its rows: m_u >= x_u_v). */
static double schedule_cost(const Region *r, const Term *terms, const double *w, int nterms)
{
    bool *apart = calloc((size_t)r->n, sizeof *apart);   /* m_u */
    for (int k = 0; k < nterms; k++) {
        int u = terms[k].u, v = terms[k].v;
        if (v >= 0 && AT(r->edge, u, v) == EDGE_FUSE && r->nodes[u].cluster != r->nodes[v].cluster) apart[u] = true;
    }
    double cost = 0;
    for (int k = 0; k < nterms; k++) {
        int u = terms[k].u, v = terms[k].v;
        if (v >= 0 ? r->nodes[u].cluster != r->nodes[v].cluster : apart[u]) cost += w[k];
    }
    free(apart);
    return cost;
}

/* Returns false when the ILP gave no usable answer: neither an optimum
 * nor, out of work, a schedule (then the caller's greedy one). */
static bool schedule_ilp(Fu *F, Region *r, const int *ilp, int m)
{
    int n = r->n;
    Model M = { 0 };
    M.lp = make_lp(0, 0);
    if (!M.lp) return false;
    set_verbose(M.lp, NEUTRAL);
    char name[64];
    int *pi = calloc((size_t)n, sizeof *pi);
    int *x = calloc((size_t)n * (size_t)n, sizeof *x);      /* column of x_u_v (u < v), 0 = none */
    double N = m;
    for (int a = 0; a < m; a++) {
        snprintf(name, sizeof name, "pi_%d", ilp[a]);
        pi[ilp[a]] = new_col(&M, name, false);
        set_int(M.lp, pi[ilp[a]], TRUE);
        set_upbo(M.lp, pi[ilp[a]], N - 1);
    }
    /* candidate pairs first, so that conditional ones can refer to them */
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int u = ilp[a], v = ilp[b];
            bool cand = (AT(r->reach, u, v) && AT(r->edge, u, v) == EDGE_FUSE && !AT(r->via_cpu, u, v))
                     || (!AT(r->reach, u, v) && pdg_horizontal(r, u, v) >= 0);
            if (!cand) continue;
            snprintf(name, sizeof name, "x_%d_%d", u, v);
            x[(size_t)u * (size_t)n + (size_t)v] = new_col(&M, name, true);
        }
    double *objv = calloc((size_t)n * (size_t)n * 2 + (size_t)n + 8, sizeof *objv);
    int *objcols = calloc((size_t)n * (size_t)n * 2 + (size_t)n + 8, sizeof *objcols);
    Term *terms = calloc((size_t)n * (size_t)n * 2 + (size_t)n + 8, sizeof *terms);
    int nobj = 0;
    set_add_rowmode(M.lp, TRUE);
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int u = ilp[a], v = ilp[b];
            int xc = x[(size_t)u * (size_t)n + (size_t)v];
            if (AT(r->reach, u, v)) {
                if (xc) {
                    double w1[3] = { 1, -1, -1 };
                    int cx[3] = { pi[v], pi[u], xc };
                    row(&M, 3, cx, w1, GE, 0);
                    double w2[3] = { 1, -1, -N };
                    row(&M, 3, cx, w2, LE, 0);
                    terms[nobj] = (Term){ u, v };
                    objcols[nobj] = xc; objv[nobj++] = LAUNCH_KIB + result_kib(&r->nodes[u]);
                } else if (AT(r->via_cpu, u, v) || AT(r->edge, u, v) == EDGE_PREVENT) {
                    int cx[2] = { pi[v], pi[u] };
                    double w[2] = { 1, -1 };
                    row(&M, 2, cx, w, GE, 1);
                }
                continue;
            }
            if (AT(r->reach, v, u)) continue;   /* cannot happen: edges go forward */
            snprintf(name, sizeof name, "d_%d_%d", u, v);
            set_add_rowmode(M.lp, FALSE);
            int dc = new_col(&M, name, true);
            set_add_rowmode(M.lp, TRUE);
            if (xc) {
                int cx[3] = { pi[v], pi[u], xc };
                double w1[3] = { 1, -1, -N }, w2[3] = { -1, 1, -N };
                row(&M, 3, cx, w1, LE, 0);
                row(&M, 3, cx, w2, LE, 0);
                int cd[4] = { pi[v], pi[u], xc, dc };
                double d1[4] = { 1, -1, -1, N }, d2[4] = { -1, 1, -1, -N };
                row(&M, 4, cd, d1, GE, 0);
                row(&M, 4, cd, d2, GE, -N);
                int h = pdg_horizontal(r, u, v);
                int conds[2] = { (h & 1) ? u : -1, (h & 2) ? v : -1 };
                for (int k = 0; k < 2; k++) {
                    if (conds[k] < 0) continue;
                    int p = r->nodes[conds[k]].alt_pred, q = conds[k];
                    int pc = x[(size_t)(p < q ? p : q) * (size_t)n + (size_t)(p < q ? q : p)];
                    if (!pc) { int one[1] = { xc }; double w[1] = { 1 }; row(&M, 1, one, w, GE, 1); continue; }
                    int cc[2] = { xc, pc };
                    double w[2] = { 1, -1 };
                    row(&M, 2, cc, w, GE, 0);
                }
                terms[nobj] = (Term){ u, v };
                objcols[nobj] = xc; objv[nobj++] = LAUNCH_KIB + shared_kib(&r->nodes[u], &r->nodes[v]);
            } else {
                int cd[3] = { pi[v], pi[u], dc };
                double d1[3] = { 1, -1, N }, d2[3] = { -1, 1, -N };
                row(&M, 3, cd, d1, GE, 1);
                row(&M, 3, cd, d2, GE, 1 - N);
            }
        }
    /* materialization of fusible producers' vectors */
    for (int a = 0; a < m; a++) {
        int u = ilp[a];
        double kib = result_kib(&r->nodes[u]);
        if (kib == 0) continue;
        bool always = r->exported[u];
        int nfuse = 0;
        for (int v = u + 1; v < n && !always; v++) {
            bool reads = false;
            for (int k = 0; k < r->nodes[u].bind->nvars && !reads; k++)
                for (int q = 0; q < r->nodes[v].reads.len && !reads; q++)
                    reads = r->nodes[v].reads.items[q] == r->nodes[u].bind->vars[k];
            if (!reads) continue;
            if (x[(size_t)u * (size_t)n + (size_t)v] && AT(r->edge, u, v) == EDGE_FUSE) nfuse++;
            else always = true;
        }
        if (always || !nfuse) continue;
        set_add_rowmode(M.lp, FALSE);
        snprintf(name, sizeof name, "m_%d", u);
        int mc = new_col(&M, name, true);
        set_add_rowmode(M.lp, TRUE);
        for (int v = u + 1; v < n; v++) {
            int xc = x[(size_t)u * (size_t)n + (size_t)v];
            if (!xc || AT(r->edge, u, v) != EDGE_FUSE) continue;
            int cc[2] = { mc, xc };
            double w[2] = { 1, -1 };
            row(&M, 2, cc, w, GE, 0);
        }
        terms[nobj] = (Term){ u, -1 };
        objcols[nobj] = mc; objv[nobj++] = kib;
    }
    set_add_rowmode(M.lp, FALSE);
    set_obj_fnex(M.lp, nobj, objv, objcols);
    set_minim(M.lp);
    if (F->opt && F->opt->ilp) {
        fprintf(F->opt->ilp, "/* region %d (function %s): %d fusible nodes */\n", r->index, r->fun, m);
        write_lpex(M.lp, F->opt->ilp, write_cb);
        fputc('\n', F->opt->ilp);
    }
    Work work = { 0, F->opt && F->opt->ilp_work ? F->opt->ilp_work : FUSION_ILP_WORK };
    put_abortfunc(M.lp, work_spent, &work);
    double t0 = now_s();
    int st = solve(M.lp);
    double dt = now_s() - t0;
    bool ok = st == OPTIMAL || st == PRESOLVED;
    /* out of work with a schedule in hand: the budget stopped the proof,
     * not the search (every region solved to optimality in the measured
     * programs had found its optimum within 1370 calls; doc/fusion.md) */
    bool best_so_far = st == SUBOPTIMAL;
    if (work.calls > work.limit) F->report->ilp_out_of_work++;
    if (ok || best_so_far) {
        double *vals = calloc((size_t)M.ncols + 1, sizeof *vals);
        get_variables(M.lp, vals);
        for (int i = 0; i < n; i++) r->nodes[i].cluster = -1 - i;     /* singletons */
        for (int a = 0; a < m; a++) {
            int u = ilp[a];
            long slot = (long)(vals[pi[u] - 1] + 0.5);
            /* the first node of a slot names the cluster */
            r->nodes[u].cluster = u;
            for (int b = 0; b < a; b++)
                if ((long)(vals[pi[ilp[b]] - 1] + 0.5) == slot) { r->nodes[u].cluster = r->nodes[ilp[b]].cluster; break; }
        }
        for (int i = 0; i < n; i++) if (r->nodes[i].cluster < 0) r->nodes[i].cluster = i;
        free(vals);
        /* an answer that is not a legal schedule is a bug in the model */
        int *cl = malloc(sizeof *cl * (size_t)n);
        for (int i = 0; i < n; i++) cl[i] = r->nodes[i].cluster;
        for (int i = 0; i < n; i++)
            if (cl[i] == i && !cluster_legal(r, cl, i)) ICE("fusion: the ILP chose an illegal cluster in region %d", r->index);
        if (best_so_far) {
            /* the greedy schedule where it costs no more (ties keep it:
             * it was the schedule of every such region before) */
            double ilp_cost = schedule_cost(r, terms, objv, nobj);
            schedule_greedy(F, r, ilp, m);
            if (ilp_cost < schedule_cost(r, terms, objv, nobj)) {
                for (int i = 0; i < n; i++) r->nodes[i].cluster = cl[i];
                F->report->ilp_best_so_far++;
            } else
                F->report->greedy_regions++;
            ok = true;
        } else {
            F->report->ilp_regions++;
            if (m > F->report->largest_ilp_nodes) { F->report->largest_ilp_nodes = m; F->report->largest_ilp_s = dt; }
            if (dt > F->report->max_ilp_s) F->report->max_ilp_s = dt;
            if (work.calls > F->report->max_ilp_work) F->report->max_ilp_work = work.calls;
        }
        free(cl);
    }
    free(pi); free(x); free(objv); free(objcols); free(terms);
    delete_lp(M.lp);
    return ok;
}

void schedule_region(Fu *F, Region *r)
{
    int *ilp = arena_alloc(F->a, sizeof *ilp * (size_t)(r->n ? r->n : 1));
    int m = 0, runs = 0;
    for (int i = 0; i < r->n; i++) {
        r->nodes[i].cluster = i;
        if (r->nodes[i].kind == NODE_RUN) runs++;
        if (r->nodes[i].in_ilp) ilp[m++] = i;
    }
    if (runs >= 2) F->report->regions++;
    if (m < 2) return;
    int max = F->opt && F->opt->ilp_max_nodes ? F->opt->ilp_max_nodes : FUSION_ILP_MAX_NODES;
    if (m <= max && schedule_ilp(F, r, ilp, m)) return;
    F->report->greedy_regions++;
    schedule_greedy(F, r, ilp, m);
}
