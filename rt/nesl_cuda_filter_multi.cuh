/* nesl_cuda_filter_multi.cuh — K FILTERs of one kernel that pull the same
 * elements over the same size, in one launch (quicksort's lesser, equal and
 * greater; split's two halves).  The generated functor has one pull, K
 * predicates and K stores (pred (c, x, it, derr), store (c, i, r), c a
 * compile-time constant after unrolling).  Each tile is pulled once; the
 * K kept counts travel together through one look-back (a vector of K
 * counts, a packed status word each: split: NeslScanSt); the kept
 * items of each FILTER are staged in shared memory in turn and stored as
 * aligned runs, as nesl_k_filter stores them.  Errors: FILTER c's
 * predicate records into e[c], the pull (shared) into e[0]; where the
 * FILTERs may fail, e[c] are consecutive records of the runtime, so the
 * error reported is the one of the first failing FILTER, as K launches
 * would report it (doc/codegen.md).  Against K launches of
 * nesl_k_filter_ws this saves K - 1 launches and K - 1 passes over the
 * input (doc/codegen.md, "FILTERs in one launch"). */

/* Shape: items of up to 8 words a thread (8 one-word items, 4 two-word
 * ones), 6 blocks an SM asked for one-word items.  H100, ncu a run,
 * quicksort's three FILTERs of one word (their positions left to the rank
 * words) at 10^6 / 10^7, Barnes-Hut 10^4's two of two words
 * (bench/RESULTS.md, session 33): 16 words at 8 blocks (32 registers,
 * spills) 1394 / 4097 us; 8 at 8 847 / 3605, 124 us; 8 at 6 (40
 * registers) 782 / 3772, 124; 8 unbounded (52 registers) 750 / 4471, 124;
 * Barnes-Hut's at 16 words (8 two-word items) 158-169 us */
#ifndef NESL_FILTER_MULTI_WORDS
#define NESL_FILTER_MULTI_WORDS 8
#endif
#ifndef NESL_FILTER_MULTI_MINB
#define NESL_FILTER_MULTI_MINB 6
#endif

template <class S, class R, int K_> struct NeslFilterMultiP {
    S s;
    NeslDErr *e[K_];
    long long *total[K_];
    uint64_t *rank[K_];   /* FILTER c's rank words (nesl_cu_kept_rank), or NULL */
    enum { K = K_ };
    typedef R Item;
    typedef NeslCounts<K_> V;
    typedef NeslCounts<K_> Wire;
    typedef NeslShape<R, NESL_FILTER_SB, NESL_FILTER_MULTI_WORDS, NESL_FILTER_MULTI_MINB> Shape;
    __device__ V combine(const V &a, const V &b) const
    {
        V r;
#pragma unroll
        for (int c = 0; c < K_; c++) r.c[c] = a.c[c] + b.c[c];
        return r;
    }
    __device__ Wire wire(const V &v) const { return v; }
    __device__ V unwire(const Wire &v) const { return v; }
    __device__ bool final(const V &) const { return false; }
    __device__ NeslOpt<V> init() const
    {
        NeslOpt<V> o;
#pragma unroll
        for (int c = 0; c < K_; c++) o.v.c[c] = 0;
        o.ok = 1;
        return o;
    }
};

template <class P> __global__ void __launch_bounds__(P::Shape::SB, P::Shape::MINB) nesl_k_filter_multi(P p, int64_t n, NeslScanSt<P> st)
{
    NESL_PDL_WAIT();
    typedef typename P::Item Item;
    typedef typename P::Shape S;
    typedef typename P::V V;
    enum { K = P::K, IPT = S::IPT, TILE = S::TILE, NW = S::NW, WT = 32 * S::IPT,
           STAGE = NESL_FILTER_STAGE && NeslWords<Item>::n <= NESL_FILTER_WORDS };
    __shared__ unsigned s_w[K][NW];             /* warp kept counts, per FILTER */
    __shared__ Item s_st[STAGE ? TILE : 1];     /* one FILTER's kept items of the tile, in order */
    __shared__ unsigned s_pre[K];               /* kept before the tile, per FILTER */
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int tile = nesl_tile_id(st, true);
    int64_t lo = (int64_t)tile * TILE, wlo = lo + w * WT;
    int n_in = (int)(n - lo < TILE ? n - lo : TILE), wn = n_in - w * WT;   /* wn: the warp's elements (may be <= 0) */
    Item it[IPT];
    unsigned keep[K];   /* bit k of keep[c]: item k is kept by FILTER c */
#pragma unroll
    for (int c = 0; c < K; c++) keep[c] = 0;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        int e = k * 32 + lane;
        if (e < wn) {
            it[k] = p.s.pull(wlo + e, p.e[0]);
#pragma unroll
            for (int c = 0; c < K; c++) keep[c] |= (unsigned)p.s.pred(c, it[k], wlo + e, p.e[c]) << k;
        }
    }
#pragma unroll
    for (int c = 0; c < K; c++) {
        unsigned wc = 0;
#pragma unroll
        for (int k = 0; k < IPT; k++) wc += (unsigned)__popc(__ballot_sync(0xffffffffu, keep[c] >> k & 1));
        if (lane == 0) s_w[c][w] = wc;
    }
    __syncthreads();
    unsigned wbefore[K];
    V ktile;
#pragma unroll
    for (int c = 0; c < K; c++) {
        wbefore[c] = 0;
        for (int j = 0; j < w; j++) wbefore[c] += s_w[c][j];
        ktile.c[c] = wbefore[c];
        for (int j = w; j < NW; j++) ktile.c[c] += s_w[c][j];
    }
    if (w == 0) {
        NeslOpt<V> pre = nesl_look_back(p, st, tile, ktile, [] {});
        if (lane == 0)
            for (int c = 0; c < K; c++) s_pre[c] = pre.v.c[c];   /* pre.ok: init exists */
    }
    __syncthreads();
    unsigned below = (1u << lane) - 1u;
#pragma unroll
    for (int c = 0; c < K; c++) {
        int64_t pre = (int64_t)s_pre[c];
        if (p.rank[c]) nesl_store_rank<IPT>(p.rank[c], wlo >> 5, wn, keep[c], (unsigned)pre + wbefore[c], lane);
        if constexpr (STAGE) {   /* FILTER c's kept items at [0, ktile), stored in aligned runs */
            nesl_stage_kept(keep[c], it, wbefore[c], below, s_st);
            __syncthreads();
            nesl_store_runs<S::SB>(t, pre, (int)ktile.c[c], s_st, [&](int64_t i, const Item &x) { p.s.store(c, i, x); });
            __syncthreads();   /* s_st is FILTER c + 1's next */
        } else {
            unsigned before = (unsigned)pre + wbefore[c];
#pragma unroll
            for (int k = 0; k < IPT; k++) {
                unsigned b = __ballot_sync(0xffffffffu, keep[c] >> k & 1);
                if (keep[c] >> k & 1) p.s.store(c, (int64_t)(before + (unsigned)__popc(b & below)), it[k]);
                before += (unsigned)__popc(b);
            }
        }
    }
    if (lo + n_in == n && t == 0)
        for (int c = 0; c < K; c++) *p.total[c] = (long long)s_pre[c] + (long long)ktile.c[c];
}

/* FILTER c's outputs: where its count goes, its rank words (or NULL);
 * and the vector its predicate reads at the index with a bounds select
 * (cudagen clamp_pred): its length and name (or NULL), the error of a
 * size past it recorded in FILTER c's record before the launch. */
struct NeslFilterOut {
    NeslCount *count;
    uint64_t *rank;
    int64_t have;
    const char *name;
};
static inline NeslFilterOut nesl_filter_out(NeslCount *count, uint64_t *rank, int64_t have, const char *name)
{
    return NeslFilterOut{ count, rank, have, name };
}

/* Launches K FILTERs of n elements in one; each of the K counts gets its
 * FILTER's count slot, read later (nesl_cu_count, one wait for the
 * kernel's group).  own: each FILTER records its errors in a record of
 * its own (the caller raises after the launch, for the last). */
template <int K, class S, class... C> static void nesl_cu_filter_multi_later(NeslRt *rt, const S &s, int64_t n, bool own, C... outs)
{
    static_assert(sizeof...(C) == K, "an output a FILTER");
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    typedef NeslFilterMultiP<S, R, K> P;
    enum { TILE = P::Shape::TILE };
    NeslFilterOut os[K] = { outs... };
    for (int c = 0; c < K; c++) *os[c].count = NeslCount{ -1, 0 };
    if (n <= 0) return;
    int64_t ntiles = (n + TILE - 1) / TILE;
    if (ntiles > 0x7fffffffLL) nesl_fail(rt, "FILTER: too many elements (%lld)", (long long)n);
    P p = { s, {}, {}, {} };
    for (int c = 0; c < K; c++) {
        if (c > 0 && own) nesl_cu_raise(rt);
        p.e[c] = nesl_cu_derr(rt);
        if (os[c].name) nesl_cu_index_short(rt, n, os[c].have, os[c].name);   /* into p.e[c] */
        p.total[c] = nesl_cu_count_slot(rt, os[c].count);
        p.rank[c] = os[c].rank;
    }
    nesl_cu_launch(rt, nesl_k_filter_multi<P>, (unsigned)ntiles, P::Shape::SB, p, n, nesl_cu_lb_state<P>(rt, ntiles));
    nesl_cu_launched(rt, "FILTER");
}
