/* nesl_cuda_bt_soac.cuh — the SOACs of the block-local tail
 * (nesl_cuda_bt.cuh): each a collective of the block, a loop over its
 * threads between barriers.  Included by nesl_cuda_bt.cuh. */
#ifndef NESL_CUDA_BT_SOAC_CUH
#define NESL_CUDA_BT_SOAC_CUH

/* ---- MAP ---- */
/* NESL_BT_ITEMS elements a thread pulled before any is stored: loads in
 * flight together, as nesl_k_map's (a block alone on its SM hides little
 * latency otherwise). */
#ifndef NESL_BT_ITEMS
#define NESL_BT_ITEMS 4
#endif
template <class P, class St> static __device__ __forceinline__ void nesl_bt_items(int64_t n, const P &pull, const St &store)
{
    typedef decltype(pull(0)) R;
    const int64_t T = NESL_BLOCK, chunk = NESL_BT_ITEMS * T;
    for (int64_t lo = threadIdx.x; lo < n; lo += chunk) {
        if (lo + (NESL_BT_ITEMS - 1) * T < n) {
            R r[NESL_BT_ITEMS];
#pragma unroll
            for (int k = 0; k < NESL_BT_ITEMS; k++) r[k] = pull(lo + k * T);
#pragma unroll
            for (int k = 0; k < NESL_BT_ITEMS; k++) store(lo + k * T, r[k]);
        } else {
#pragma unroll 1
            for (int64_t i = lo; i < n; i += T) store(i, pull(i));
        }
    }
    __syncthreads();
}

template <class S> static __device__ void nesl_bt_cu_map(NeslBt *rt, const S &s, int64_t n)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAP);
    NeslDErr *e = rt->derr;
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    nesl_bt_items(n, [&](int64_t i) { return s.pull(i, e); }, [&](int64_t i, const R &r) { s.store(i, r); });
}
template <class S> static __device__ void nesl_bt_cu_map_each(NeslBt *rt, const S &s, int64_t n) { nesl_bt_cu_map(rt, s, n); }
template <class S> static __device__ void nesl_bt_cu_map_tiled(NeslBt *rt, const S &s, int64_t n, int64_t) { nesl_bt_cu_map(rt, s, n); }
template <class F> static __device__ void nesl_bt_cu_map_seg(NeslBt *rt, const F &f, int64_t n, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAPSEG);
    const int32_t *ids = nesl_bt_sd_segids(rt, s);
    NeslDErr *e = rt->derr;
    typedef decltype(f.pull(0, 0, (NeslDErr *)0)) R;
    nesl_bt_items(n, [&](int64_t i) { return f.pull(i, ids[i], e); }, [&](int64_t i, const R &r) { f.store(i, r); });
}
/* make_sd of v, a result of MAP f whose len (g, e) stores element g of
 * every result and returns its length. */
template <class F> static __device__ NeslSd *nesl_bt_cu_map_sd(NeslBt *rt, const F &f, const NeslVec *lens, int64_t total)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAPSD);
    for (int64_t g = threadIdx.x; g < lens->len; g += NESL_BLOCK) (void)f.len(g, rt->derr);
    __syncthreads();
    nesl_bt_cu_raise(rt);
    return nesl_bt_make_sd_total(rt, lens, total);
}
template <class M, class S> static __device__ NeslMapAnd<M, S> nesl_bt_map_and(const M &m, const S &s)
{
    NeslMapAnd<M, S> w;
    static_cast<S &>(w) = s;
    w.m = m;
    return w;
}

/* ---- ONCE ---- */
template <class S> static __device__ auto nesl_bt_cu_once(NeslBt *rt, const S &s) -> decltype(s.pull(0, (NeslDErr *)0))
{
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    R r = R();
    if (threadIdx.x == 0) r = s.pull(0, rt->derr);
    return nesl_bt_bcast(r);
}

/* ---- REDUCE and SCAN: a thread folds its stretch of consecutive
 * elements, the block combines the stretches in thread order (NESL_SEQ:
 * thread 0 alone, in index order); the identity once, at the start ---- */
/* Part `part` of `parts` equal stretches of [a, a + len). */
static __device__ __forceinline__ void nesl_bt_stretch(int64_t a, int64_t len, int64_t parts, int64_t part, int64_t *lo, int64_t *hi)
{
    int64_t per = (len + parts - 1) / parts;
    *lo = a + part * per;
    *hi = *lo + per < a + len ? *lo + per : a + len;
}

/* Fold [lo, hi) in index order with no identity: absent when empty. */
template <class R, class S> static __device__ __forceinline__ NeslOpt<R> nesl_bt_fold_stretch(const S &s, int64_t lo, int64_t hi, NeslDErr *e)
{
    NeslOpt<R> x;
    x.ok = 0;
    for (int64_t i = lo; i < hi; i++) {
        R v = s.pull(i, e);
        x.v = x.ok ? s.op(x.v, v, i, e) : v;
        x.ok = 1;
    }
    return x;
}

/* The block's stretches of [a, a + len) folded (scan: and scanned from the
 * identity) in thread order; a reduction's total lands in thread 0. */
template <bool SCAN, class S, class R> static __device__ R nesl_bt_block_fold(const S &s, int64_t a, int64_t len, const R &ident, NeslDErr *e)
{
    int64_t lo, hi;
    nesl_bt_stretch(a, len, NESL_BLOCK, threadIdx.x, &lo, &hi);
    NeslOpt<R> x = nesl_bt_fold_stretch<R>(s, lo, hi, e);
    NeslOpC<S, R> c = { &s, e };
    if constexpr (!SCAN) {   /* the total is thread 0's alone: only it applies op */
        x = nesl_block_reduce(x, c);
        return threadIdx.x == 0 && x.ok ? s.op(ident, x.v, 0, e) : ident;
    } else {
        NeslOpt<R> ex, agg;
        nesl_block_scan(x, c, &ex, &agg);
        return nesl_seq_fold<true>(s, lo, hi, ex.ok ? s.op(ident, ex.v, 0, e) : ident, e);
    }
}

template <int MODE, class S, class R> static __device__ R nesl_bt_cu_reduce(NeslBt *rt, const S &s, int64_t n, const R &ident)
{
    NeslBtTimer tm_(rt, NESL_BTP_REDUCE);
    if (n <= 0) return ident;
    NeslDErr *e = rt->derr;
    R r = ident;
    if constexpr (MODE == NESL_SEQ) {
        if (threadIdx.x == 0) r = nesl_seq_fold<false>(s, 0, n, ident, e);
    } else {
        r = nesl_bt_block_fold<false>(s, 0, n, ident, e);   /* the total in thread 0 */
    }
    return nesl_bt_bcast(r);
}

template <int MODE, class S, class R> static __device__ void nesl_bt_cu_scan(NeslBt *rt, const S &s, int64_t n, const R &ident)
{
    NeslBtTimer tm_(rt, NESL_BTP_SCAN);
    if (n <= 0) return;
    NeslDErr *e = rt->derr;
    if constexpr (MODE == NESL_SEQ) {
        if (threadIdx.x == 0) nesl_seq_fold<true>(s, 0, n, ident, e);
    } else {
        nesl_bt_block_fold<true>(s, 0, n, ident, e);
    }
    __syncthreads();
}

/* ---- SEG_REDUCE, SEG_SCAN over segments offs[0..nsegs]: short segments
 * (or NESL_SEQ) a thread each, in order; a few long ones the block each in
 * turn; the rest a warp each, whose lanes fold consecutive stretches
 * combined in lane order ---- */
template <class R, class S> static __device__ NeslOpt<R> nesl_bt_warp_scan(NeslOpt<R> x, const S &s, NeslDErr *e)
{
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {   /* inclusive, lower lanes on the left */
        R y = nesl_shfl(x.v, d, 1);
        int yok = __shfl_up_sync(0xffffffffu, x.ok, d);
        if (lane >= d && yok) {
            x.v = x.ok ? s.op(y, x.v, 0, e) : y;
            x.ok = 1;
        }
    }
    return x;
}

template <int MODE, class S, class R>
static __device__ void nesl_bt_cu_seg_fold(NeslBt *rt, const S &s, int64_t n, int64_t nsegs, const int64_t *offs, const R &ident, bool scan)
{
    NeslBtTimer tm_(rt, NESL_BTP_SEGFOLD);
    NeslDErr *e = rt->derr;
    if (nsegs <= 0) return;
    if (MODE == NESL_SEQ || n <= 16 * nsegs) {
        for (int64_t g = threadIdx.x; g < nsegs; g += NESL_BLOCK) nesl_seg_seq_one(s, g, offs, ident, scan, e);
    } else if (nsegs <= 2 * NESL_WARPS && n >= 64 * nsegs) {   /* few long segments: the block takes each in turn */
        for (int64_t g = 0; g < nsegs; g++) {
            if (scan) {
                nesl_bt_block_fold<true>(s, offs[g], offs[g + 1] - offs[g], ident, e);
            } else {
                R x = nesl_bt_block_fold<false>(s, offs[g], offs[g + 1] - offs[g], ident, e);
                if (threadIdx.x == 0) s.store(g, x);
            }
        }
    } else {
        int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        for (int64_t g = w; g < nsegs; g += NESL_WARPS) {
            int64_t lo, hi;
            nesl_bt_stretch(offs[g], offs[g + 1] - offs[g], 32, lane, &lo, &hi);
            NeslOpt<R> inc = nesl_bt_warp_scan(nesl_bt_fold_stretch<R>(s, lo, hi, e), s, e);
            if (scan) {
                NeslOpt<R> ex;
                ex.v = nesl_shfl(inc.v, 1, 1);
                ex.ok = __shfl_up_sync(0xffffffffu, inc.ok, 1);
                if (lane == 0) ex.ok = 0;
                nesl_seq_fold<true>(s, lo, hi, ex.ok ? s.op(ident, ex.v, 0, e) : ident, e);
            } else {
                R tot = nesl_shfl_idx(inc.v, 31);
                int tok = __shfl_sync(0xffffffffu, inc.ok, 31);
                if (lane == 0) s.store(g, tok ? s.op(ident, tot, 0, e) : ident);
            }
        }
    }
    __syncthreads();
}

/* SEG_FILTER's new lengths from the exclusive kept counts pre[0..total]. */
static __device__ void nesl_bt_cu_seg_lens(NeslBt *, const int32_t *pre, const int64_t *offs, int64_t nsegs, int32_t *lt, int32_t *lf)
{
    for (int64_t g = threadIdx.x; g < nsegs; g += NESL_BLOCK) {
        int32_t k = pre[offs[g + 1]] - pre[offs[g]];
        lt[g] = k;
        if (lf) lf[g] = (int32_t)(offs[g + 1] - offs[g]) - k;
    }
    __syncthreads();
}

/* ---- PERMUTE, SEG_PERMUTE: the largest iteration writing a target
 * wins (the last write, as in the interpreter); targets nobody writes get
 * 0 ---- */
template <class S>
static __device__ void nesl_bt_cu_permute(NeslBt *rt, const S &s, int64_t n, bool pull_first, const int64_t *offs, const int32_t *segids,
                                          const int32_t *lens)
{
    if (n <= 0) return;
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    NeslDErr *e = rt->derr;
    long long *win = (long long *)nesl_bt_alloc(rt, n * 8);
    for (int64_t d = threadIdx.x; d < n; d += NESL_BLOCK) win[d] = -1;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += NESL_BLOCK) {
        int64_t d = nesl_permute_target(s, i, n, pull_first, offs, segids, lens, e);
        if (d >= 0) atomicMax(win + d, (long long)i);
    }
    nesl_bt_cu_raise(rt);
    for (int64_t d = threadIdx.x; d < n; d += NESL_BLOCK) s.store(d, win[d] >= 0 ? s.pull(win[d], e) : R());
    __syncthreads();
}

/* ---- FILTER, PARTITION: chunks of a block's elements, one a thread;
 * each chunk's kept ones in order after those of the chunks before ---- */
/* A chunk of ROWS rows of the block's threads (row k: elements c + k * T
 * + t): the kept rank in the chunk of this thread's element of each row
 * (before), its warp's ballot (mask) and the kept before the warp in the
 * chunk (wbefore, for the rank words); the chunk's count is returned. */
template <int ROWS> static __device__ unsigned nesl_bt_rows(const bool (&keep)[ROWS], unsigned (&before)[ROWS], unsigned (&mask)[ROWS],
                                                            unsigned (&wbefore)[ROWS])
{
    static_assert(ROWS * NESL_WARPS * 4 <= NESL_BT_SCRATCH, "the counts fit the scratch");
    unsigned *wc = (unsigned *)nesl_bt_smem();
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        mask[k] = __ballot_sync(0xffffffffu, keep[k]);
        if (lane == 0) wc[k * NESL_WARPS + w] = (unsigned)__popc(mask[k]);
    }
    __syncthreads();
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        unsigned wb = 0, row = 0;
        for (int j = 0; j < NESL_WARPS; j++) {
            unsigned x = wc[k * NESL_WARPS + j];
            if (j < w) wb += x;
            row += x;
        }
        wbefore[k] = acc + wb;
        before[k] = acc + wb + (unsigned)__popc(mask[k] & ((1u << lane) - 1u));
        acc += row;
    }
    __syncthreads();
    return acc;
}

/* The rank word of the warp's 32 positions from i - lane (lane 0 writes it). */
static __device__ __forceinline__ void nesl_bt_rank_store(uint64_t *rank, int64_t i, int64_t n, int64_t before, unsigned mask)
{
    if (rank && (threadIdx.x & 31) == 0 && i < n) rank[i >> 5] = (uint64_t)before << 32 | mask;
}

template <bool PART, bool COUNTS = false, class S>
static __device__ int64_t nesl_bt_cu_filter(NeslBt *rt, const S &s, int64_t n, int32_t *pre, uint64_t *rank = NULL)
{
    NeslBtTimer tm_(rt, NESL_BTP_FILTER);
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    enum { IT = NESL_BT_ITEMS };
    NeslDErr *e = rt->derr;
    const int64_t T = NESL_BLOCK;
    int64_t base = 0;
    for (int64_t c = 0; c < n; c += IT * T) {
        R x[IT];
        bool keep[IT];
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            keep[k] = false;
            x[k] = R();
            if (i < n) x[k] = s.pull(i, e);
        }
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            if (i < n) keep[k] = s.pred(x[k], i, e);
        }
        unsigned before[IT], mask[IT], wb[IT];
        unsigned total = nesl_bt_rows<IT>(keep, before, mask, wb);
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            if (i < n) {
                int64_t kk = base + before[k];
                if (keep[k]) s.store(kk, x[k]);
                else if constexpr (PART) s.store_f(i - kk, x[k]);
                if constexpr (COUNTS) pre[i] = (int32_t)kk;
            }
            nesl_bt_rank_store(rank, i, n, base + wb[k], mask[k]);
        }
        base += total;
    }
    if (COUNTS && threadIdx.x == 0) pre[n > 0 ? n : 0] = (int32_t)base;
    __syncthreads();
    return base;
}
template <bool PART, class S> static __device__ NeslCount nesl_bt_cu_filter_later(NeslBt *rt, const S &s, int64_t n, uint64_t *rank = NULL)
{
    return NeslCount{ 0, (long)nesl_bt_cu_filter<PART>(rt, s, n, NULL, rank) };
}
template <bool PART, class S> static __device__ void nesl_bt_cu_filter_kept(NeslBt *rt, const S &s, int64_t n, int64_t given, uint64_t *rank = NULL)
{
    if (nesl_bt_cu_filter<PART>(rt, s, n, NULL, rank) != given) nesl_bt_fail(rt, NESL_BT_ERROR);
}
static __device__ int64_t nesl_bt_cu_count(NeslBt *, NeslCount c, const char *) { return c.slot < 0 ? 0 : c.waits; }

static __device__ NeslFilterOut nesl_bt_filter_out(NeslCount *count, uint64_t *rank, int64_t have, const char *name)
{
    return NeslFilterOut{ count, rank, have, name };
}

/* K FILTERs of one pull: each element pulled once. */
template <int K, class S, class... C> static __device__ void nesl_bt_cu_filter_multi_later(NeslBt *rt, const S &s, int64_t n, bool, C... outs)
{
    NeslBtTimer tm_(rt, NESL_BTP_MULTI);
    static_assert(sizeof...(C) == K, "an output a FILTER");
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    enum { IT = NESL_BT_ITEMS };
    NeslDErr *e = rt->derr;
    const int64_t T = NESL_BLOCK;
    NeslFilterOut os[K] = { outs... };
    for (int c = 0; c < K; c++)
        if (os[c].name && n > os[c].have) nesl_bt_fail(rt, NESL_BT_ERROR);
    int64_t base[K];
    for (int c = 0; c < K; c++) base[c] = 0;
    for (int64_t ch = 0; ch < n; ch += IT * T) {
        R x[IT];
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = ch + k * T + threadIdx.x;
            x[k] = R();
            if (i < n) x[k] = s.pull(i, e);
        }
#pragma unroll
        for (int c = 0; c < K; c++) {
            bool keep[IT];
#pragma unroll
            for (int k = 0; k < IT; k++) {
                int64_t i = ch + k * T + threadIdx.x;
                keep[k] = i < n && s.pred(c, x[k], i, e);
            }
            unsigned before[IT], mask[IT], wb[IT];
            unsigned total = nesl_bt_rows<IT>(keep, before, mask, wb);
#pragma unroll
            for (int k = 0; k < IT; k++) {
                int64_t i = ch + k * T + threadIdx.x;
                if (keep[k]) s.store(c, base[c] + before[k], x[k]);
                nesl_bt_rank_store(os[c].rank, i, n, base[c] + wb[k], mask[k]);
            }
            base[c] += total;
        }
    }
    __syncthreads();
    for (int c = 0; c < K; c++) *os[c].count = NeslCount{ 0, (long)base[c] };
}

#endif
