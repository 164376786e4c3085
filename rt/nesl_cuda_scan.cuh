/* nesl_cuda_scan.cuh — the scan family's skeletons (SCAN, FILTER,
 * PARTITION and their SEG_ forms, SEG_SCAN, SEG_REDUCE), included by
 * nesl_cuda.cuh; doc/codegen.md, "The CUDA back end", says why they look
 * like this.
 *
 * One kernel template, nesl_k_scan<P>, runs a "problem" P tile by tile:
 *   1. the tile's items are pulled striped (element k*NESL_SB + t by thread
 *      t: coalesced) into shared memory and read back blocked (thread t
 *      owns NeslIpt consecutive elements), through padded word planes
 *      that are conflict-free both ways;
 *   2. each thread folds its items, the block scans the thread values with
 *      warp shuffles (no identity needed: a thread's exclusive value
 *      exists iff it is not thread 0);
 *   3. the tile's prefix comes from a decoupled look-back (mode NESL_PAR:
 *      one warp, 32 predecessors at a time, over packed 64-bit
 *      (status, value) words when the value has 4 bytes, else a flag plus
 *      a value with fences) or, for inexact operators (floats, mode
 *      NESL_FIXED), from a reduce-then-scan in three launches whose
 *      grouping depends only on the size, so results are the same run to
 *      run;
 *   4. P::finish writes the tile's results, through shared memory again so
 *      that stores are coalesced.
 *
 * A problem P provides: Item (what is pulled), V (what is scanned), Wire
 * (what the look-back exchanges: V without what it can do without),
 * FLAGS (0: none, 1: set by load, 2: set by mark before the loads, from
 * a zeroed array), mark, load, lift, combine (associative), wire, unwire,
 * final (the aggregate is already the inclusive prefix: a segment head),
 * init (the prefix of tile 0) and finish. */
#ifndef NESL_CUDA_SCAN_CUH
#define NESL_CUDA_SCAN_CUH

#define NESL_SB NESL_BLOCK             /* threads per scan block */
#ifndef NESL_SCAN_WORDS
#define NESL_SCAN_WORDS 16             /* item words per thread and tile */
#endif
#ifndef NESL_LB_TILES
#define NESL_LB_TILES 1                /* tiles per lane of the look-back window */
#endif
#define NESL_SW (NESL_SB / 32)

/* Kernel phases: look-back; per-tile aggregates only; results from given
 * tile prefixes; per-tile aggregates and the results that need no prefix
 * (SEG_REDUCE). */
enum { NESL_PH_LOOKBACK, NESL_PH_AGG, NESL_PH_APPLY, NESL_PH_PIECES };

template <class T> struct NeslWords { enum { n = (sizeof(T) + 3) / 4 }; };
/* Items per thread: about NESL_SCAN_WORDS words of item per thread. */
template <class T> struct NeslIpt { enum { v = NeslWords<T>::n >= NESL_SCAN_WORDS ? 1 : NESL_SCAN_WORDS / NeslWords<T>::n }; };
/* Resident blocks per SM the registers must allow, for one-word items:
 * tiles in flight hide the per-tile latency (measured on the H100, int32
 * at 2^28: SCAN 1.10 ms at 6 blocks, 1.01 at 8; SEG_ forms best at 6,
 * slower at 8; FILTER, which holds a tile of items in registers while
 * compacting, best at 5). */
template <class P> struct NeslMinB {
#ifdef NESL_SCAN_MINB
    enum { v = NESL_SCAN_MINB };
#else
    enum { v = NeslWords<typename P::Item>::n > 1 ? 1 : P::FLAGS == 0 ? 8 : P::FLAGS == 1 ? 5 : 6 };
#endif
};

/* Tile status words: relaxed device-scope accesses (volatile ones are
 * system-scope). */
static __device__ __forceinline__ unsigned long long nesl_ld_status(const unsigned long long *p)
{
#if __CUDA_ARCH__ >= 700
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
#else
    return *(const volatile unsigned long long *)p;
#endif
}

static __device__ __forceinline__ void nesl_st_status(unsigned long long *p, unsigned long long v)
{
#if __CUDA_ARCH__ >= 700
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#else
    *(volatile unsigned long long *)p = v;
#endif
}

/* One pad word per 32: element t*IPT+k of a warp's blocked read and
 * element k*NESL_SB+t of its striped access land in distinct banks. */
static __device__ __forceinline__ int nesl_pad(int e) { return e + (e >> 5); }

template <class Item, int IPT_> struct NeslTileBuf {
    enum { IPT = IPT_, TILE = NESL_SB * IPT_, PLANE = TILE + TILE / 32, W = NeslWords<Item>::n };
    int w[W * PLANE];
    template <class U> __device__ void put(int e, const U &x)
    {
        enum { UW = NeslWords<U>::n };
        static_assert(UW <= W, "value wider than the tile's items");
        int t[UW];
        t[UW - 1] = 0;
        memcpy(t, &x, sizeof(U));
#pragma unroll
        for (int k = 0; k < UW; k++) w[k * PLANE + nesl_pad(e)] = t[k];
    }
    template <class U> __device__ U get(int e) const
    {
        enum { UW = NeslWords<U>::n };
        int t[UW];
#pragma unroll
        for (int k = 0; k < UW; k++) t[k] = w[k * PLANE + nesl_pad(e)];
        U x;
        memcpy(&x, t, sizeof(U));
        return x;
    }
};

template <class P> struct NeslCombC {
    const P *p;
    template <class V> __device__ V operator()(const V &a, const V &b) const { return p->combine(a, b); }
};

/* a ⊕ b where either may be missing (ok = 0) */
template <class P, class V> static __device__ NeslOpt<V> nesl_opt_cat(const P &p, const NeslOpt<V> &a, const NeslOpt<V> &b)
{
    if (!b.ok) return a;
    NeslOpt<V> r;
    r.v = a.ok ? p.combine(a.v, b.v) : b.v;
    r.ok = 1;
    return r;
}

template <class P, class V> static __device__ NeslOpt<V> nesl_opt_add(const P &p, const NeslOpt<V> &a, const V &b)
{
    NeslOpt<V> r;
    r.v = a.ok ? p.combine(a.v, b) : b;
    r.ok = 1;
    return r;
}

/* ---- tile states of one scan ---- */
template <class P> struct NeslScanSt {
    typedef typename P::V V;
    typedef typename P::Wire Wr;
    enum { PACKED = sizeof(Wr) <= 4 };
    unsigned long long *word;   /* PACKED: status << 32 | value */
    int *flag;                  /* otherwise: status, after the value */
    Wr *agg_w, *inc_w;
    unsigned *counter;          /* tiles taken */
    V *agg;                     /* NESL_FIXED: per-tile aggregates */
    NeslOpt<V> *pre;            /* NESL_FIXED: per-tile prefixes */

    /* status 1: the tile's aggregate; 2: its inclusive prefix */
    __device__ void publish(int status, int64_t tile, const Wr &v) const
    {
        if constexpr (PACKED) {
            unsigned b = 0;
            memcpy(&b, &v, sizeof(Wr));
            nesl_st_status(word + tile, (unsigned long long)status << 32 | b);
        } else {
            (status == 2 ? inc_w : agg_w)[tile] = v;
            __threadfence();
            *(volatile int *)(flag + tile) = status;
        }
    }
    __device__ int read(int64_t tile, Wr *v) const
    {
        if constexpr (PACKED) {
            unsigned long long x = nesl_ld_status(word + tile);
            unsigned b = (unsigned)x;
            memcpy(v, &b, sizeof(Wr));
            return (int)(x >> 32);
        } else {
            int f = *(volatile int *)(flag + tile);
            if (f) {
                __threadfence();
                *v = nesl_ld_volatile(f == 2 ? inc_w + tile : agg_w + tile);
            }
            return f;
        }
    }
};

/* Warp 0: publish the tile's aggregate, find its prefix (the fold of all
 * earlier tiles after init) looking back 32 * NESL_LB_TILES tiles at a
 * time — lane l reads tiles k - L*l - j, j < L, at once; the window is
 * folded, earliest tile first, from the nearest tile with an inclusive
 * prefix — and publish the inclusive prefix.  A wide window moves the
 * prefix frontier further per round trip to the L2. */
template <class P>
static __device__ NeslOpt<typename P::V> nesl_look_back(const P &p, const NeslScanSt<P> &st, int64_t tile, const typename P::V &agg)
{
    typedef typename P::V V;
    typedef typename P::Wire Wr;
    enum { L = NESL_LB_TILES };
    int lane = threadIdx.x & 31;
    NeslOpt<V> pre;
    if (tile == 0) {
        pre = p.init();
        if (lane == 0) st.publish(2, 0, p.wire(pre.ok ? p.combine(pre.v, agg) : agg));
        return pre;
    }
    bool fin = p.final(agg);
    if (lane == 0) st.publish(fin ? 2 : 1, tile, p.wire(agg));
    pre.ok = 0;
    for (int64_t k = tile - 1;; k -= 32 * L) {
        Wr wv[L];
        int f[L];
#pragma unroll
        for (int j = 0; j < L; j++) {
            wv[j] = Wr();
            f[j] = k - L * lane - j >= 0 ? 0 : 2;   /* before tile 0, which is inclusive: never folded */
        }
        for (;;) {
            bool wait = false;
#pragma unroll
            for (int j = 0; j < L; j++)
                if (f[j] == 0) {
                    f[j] = st.read(k - L * lane - j, &wv[j]);
                    wait = wait || f[j] == 0;
                }
            if (!__any_sync(0xffffffffu, wait)) break;
#ifdef NESL_LB_SLEEP
            __nanosleep(NESL_LB_SLEEP);
#endif
        }
        /* the lane's tiles, farthest first, restarting at an inclusive one */
        V v = p.unwire(wv[L - 1]);
        bool li = f[L - 1] == 2;
#pragma unroll
        for (int j = L - 2; j >= 0; j--) {
            V u = p.unwire(wv[j]);
            v = f[j] == 2 ? u : p.combine(v, u);
            li = li || f[j] == 2;
        }
        unsigned inc = __ballot_sync(0xffffffffu, li);
        int stop = inc ? __ffs(inc) - 1 : 31;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            V y = nesl_shfl(v, off, 0);
            if (lane + off <= stop) v = p.combine(y, v);
        }
        v = nesl_shfl_idx(v, 0);
        pre.v = pre.ok ? p.combine(v, pre.v) : v;   /* the window precedes what is folded so far */
        pre.ok = 1;
        if (inc) break;
    }
    if (!fin && lane == 0) st.publish(2, tile, p.wire(p.combine(pre.v, agg)));
    return pre;
}

template <class P> __global__ void __launch_bounds__(NESL_SB, NeslMinB<P>::v) nesl_k_scan(P p, int64_t n, NeslScanSt<P> st, int phase)
{
    typedef typename P::Item Item;
    typedef typename P::V V;
    enum { IPT = NeslIpt<Item>::v, TILE = NESL_SB * IPT };
    __shared__ NeslTileBuf<Item, IPT> buf;
    __shared__ uint8_t fl[P::FLAGS ? TILE : 1];
    __shared__ V s_w[NESL_SW];
    __shared__ NeslOpt<V> s_pre;
    __shared__ int64_t s_tile;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t == 0) s_tile = phase == NESL_PH_LOOKBACK ? (int64_t)atomicAdd(st.counter, 1u) : (int64_t)blockIdx.x;
    if (P::FLAGS == 2) {
#pragma unroll
        for (int k = 0; k < IPT; k++) fl[k * NESL_SB + t] = 0;
    }
    __syncthreads();
    int64_t tile = s_tile, lo = tile * TILE;
    int cnt = (int)(n - lo < TILE ? n - lo : TILE);
    static_assert(IPT <= 32, "flags are bits of a word");
    Item it[IPT];   /* striped, then blocked */
#pragma unroll
    for (int k = 0; k < IPT; k++) {   /* all loads in flight before mark's */
        int e = k * NESL_SB + t;
        if (e < cnt) it[k] = p.load(lo + e, fl + e);
        else if constexpr (P::FLAGS == 1) fl[e] = 0;
    }
    p.mark(tile, lo, cnt, fl);
#pragma unroll
    for (int k = 0; k < IPT; k++)
        if (k * NESL_SB + t < cnt) buf.put(k * NESL_SB + t, it[k]);
    __syncthreads();

    unsigned f = 0;   /* bit k: flag of item k */
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        it[k] = buf.template get<Item>(t * IPT + k);
        if (P::FLAGS) f |= (unsigned)fl[t * IPT + k] << k;
    }
    bool full = cnt == TILE;
    V a = p.lift(it[0], f & 1);
#pragma unroll
    for (int k = 1; k < IPT; k++)
        if (full || t * IPT + k < cnt) a = p.combine(a, p.lift(it[k], f >> k & 1));
    /* beyond cnt, threads hold junk values: they only reach later threads
     * and the last tile's aggregate (FILTER's flags there are 0) */
    V inc = a;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        V y = nesl_shfl(inc, off, 1);
        if (lane >= off) inc = p.combine(y, inc);
    }
    if (lane == 31) s_w[w] = inc;
    __syncthreads();
    V agg = s_w[0], wp = s_w[0];
#pragma unroll
    for (int j = 1; j < NESL_SW; j++) {
        if (j == w) wp = agg;
        agg = p.combine(agg, s_w[j]);
    }
    V ex = nesl_shfl(inc, 1, 1);
    NeslOpt<V> te;   /* the fold of the tile's earlier threads */
    te.v = lane == 0 ? wp : w > 0 ? p.combine(wp, ex) : ex;
    te.ok = lane > 0 || w > 0;

    if (phase == NESL_PH_AGG || phase == NESL_PH_PIECES) {
        if (t == 0) st.agg[tile] = agg;
        if (phase == NESL_PH_AGG) return;
        if (t == 0) s_pre.ok = 0;
    } else if (phase == NESL_PH_APPLY) {
        if (t == 0) s_pre = st.pre[tile];
    } else if (w == 0) {
        NeslOpt<V> pre = nesl_look_back(p, st, tile, agg);
        if (lane == 0) s_pre = pre;
    }
    __syncthreads();
    p.finish(buf, f, te, s_pre, agg, tile, lo, cnt);   /* items re-read from buf: fewer live registers */
}

/* NESL_FIXED: the exclusive prefixes of the tile aggregates (after init),
 * in one block, grouped by the tile count alone. */
template <class P>
__global__ void nesl_k_tile_prefix(P p, const typename P::V *agg, NeslOpt<typename P::V> *pre, int64_t ntiles)
{
    typedef typename P::V V;
    NeslCombC<P> c = { &p };
    int64_t per = (ntiles + NESL_BLOCK - 1) / NESL_BLOCK, b = (int64_t)threadIdx.x * per;
    int64_t e = b + per < ntiles ? b + per : ntiles;
    NeslOpt<V> x, ex, tot;
    x.ok = 0;
#pragma unroll 16
    for (int64_t i = b; i < e; i++) x = nesl_opt_add(p, x, agg[i]);   /* unrolled: loads in flight together */
    nesl_block_scan(x, c, &ex, &tot);
    NeslOpt<V> r = nesl_opt_cat(p, p.init(), ex);
#pragma unroll 16
    for (int64_t i = b; i < e; i++) {
        pre[i] = r;
        r = nesl_opt_add(p, r, agg[i]);
    }
}

template <int MODE, class P> static void nesl_cu_scan_run(NeslRt *rt, const P &p, int64_t n, const char *what)
{
    typedef typename P::V V;
    typedef typename P::Wire Wr;
    enum { TILE = NESL_SB * NeslIpt<typename P::Item>::v };
    if (n <= 0) return;
    int64_t ntiles = (n + TILE - 1) / TILE;
    if (ntiles > 0x7fffffffLL) nesl_fail(rt, "%s: too many elements (%lld)", what, (long long)n);
    NeslScanSt<P> st;
    memset(&st, 0, sizeof st);
    if constexpr (MODE == NESL_FIXED) {
        st.agg = (V *)nesl_cu_tmp(rt, sizeof(V) * (size_t)ntiles, false);
        st.pre = (NeslOpt<V> *)nesl_cu_tmp(rt, sizeof(NeslOpt<V>) * (size_t)ntiles, false);
        nesl_k_scan<P><<<(unsigned)ntiles, NESL_SB>>>(p, n, st, NESL_PH_AGG);
        nesl_k_tile_prefix<P><<<1, NESL_BLOCK>>>(p, st.agg, st.pre, ntiles);
        nesl_k_scan<P><<<(unsigned)ntiles, NESL_SB>>>(p, n, st, NESL_PH_APPLY);
    } else if constexpr (NeslScanSt<P>::PACKED) {
        st.word = (unsigned long long *)nesl_cu_tmp(rt, 8 * (size_t)(ntiles + 1), true);
        st.counter = (unsigned *)(st.word + ntiles);
        nesl_k_scan<P><<<(unsigned)ntiles, NESL_SB>>>(p, n, st, NESL_PH_LOOKBACK);
    } else {
        st.flag = (int *)nesl_cu_tmp(rt, sizeof(int) * (size_t)(ntiles + 1), true);
        st.counter = (unsigned *)(st.flag + ntiles);
        st.agg_w = (Wr *)nesl_cu_tmp(rt, sizeof(Wr) * (size_t)ntiles, false);
        st.inc_w = (Wr *)nesl_cu_tmp(rt, sizeof(Wr) * (size_t)ntiles, false);
        nesl_k_scan<P><<<(unsigned)ntiles, NESL_SB>>>(p, n, st, NESL_PH_LOOKBACK);
    }
    nesl_cu_launched(rt, what);
}

/* ---- SCAN: out[i] = ident ⊕ x0 ⊕ ... ⊕ x(i-1) ---- */
template <class S, class R> struct NeslScanP {
    S s;
    R ident;
    NeslDErr *e;
    typedef R Item;
    typedef R V;
    typedef R Wire;
    enum { FLAGS = 0 };
    __device__ void mark(int64_t, int64_t, int, uint8_t *) const { }
    __device__ R load(int64_t i, uint8_t *) const { return s.pull(i, e); }
    __device__ R lift(const R &x, int) const { return x; }
    __device__ R combine(const R &a, const R &b) const { return s.op(a, b, 0, e); }
    __device__ R wire(const R &v) const { return v; }
    __device__ R unwire(const R &v) const { return v; }
    __device__ bool final(const R &) const { return false; }
    __device__ NeslOpt<R> init() const { return NeslOpt<R>{ ident, 1 }; }
    template <class B>
    __device__ void finish(B &buf, unsigned, NeslOpt<R> te, NeslOpt<R> tp, const R &, int64_t, int64_t lo, int cnt) const
    {
        int t = threadIdx.x;
        NeslOpt<R> r = nesl_opt_cat(*this, tp, te);   /* tp.ok: init exists */
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {   /* each thread rewrites its own items */
            R x = buf.template get<R>(t * B::IPT + k);
            buf.put(t * B::IPT + k, r.v);
            r = nesl_opt_add(*this, r, x);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {
            int e = k * NESL_SB + t;
            if (e < cnt) s.store(lo + e, buf.template get<R>(e));
        }
    }
};

/* Sequential SCAN for an operator that can fail or is not known associative. */
template <class S, class R> __global__ void nesl_k_scan_seq(S s, int64_t n, R ident, NeslDErr *e)
{
    R acc = ident;
    for (int64_t i = 0; i < n; i++) {
        R x = s.pull(i, e);
        s.store(i, acc);
        acc = s.op(acc, x, i, e);
    }
}

template <int MODE, class S, class R> static void nesl_cu_scan(NeslRt *rt, const S &s, int64_t n, const R &ident)
{
    if (n <= 0) return;
    NeslDErr *e = nesl_cu_derr(rt);
    if constexpr (MODE == NESL_SEQ) {
        nesl_k_scan_seq<S, R><<<1, 1>>>(s, n, ident, e);
        nesl_cu_launched(rt, "SCAN");
    } else {
        NeslScanP<S, R> p = { s, ident, e };
        nesl_cu_scan_run<MODE>(rt, p, n, "SCAN");
    }
}

/* ---- FILTER, PARTITION (and their SEG_ forms): a scan of the kept
 * counts; each tile gathers its kept elements (then, PARTITION, the
 * others) in shared memory and stores them contiguously to
 * out_t[count before], out_f[i - count before]; pre (SEG_ forms) gets
 * the exclusive counts at every position 0..n, for the new segment
 * lengths.  Counts are 32-bit (lengths are below 2^31). ---- */
template <class S, class R, bool PART> struct NeslFilterP {
    S s;
    NeslDErr *e;
    int32_t *pre;
    long long *total;
    int64_t n;
    typedef R Item;
    typedef unsigned V;
    typedef unsigned Wire;
    enum { FLAGS = 1 };
    __device__ void mark(int64_t, int64_t, int, uint8_t *) const { }
    __device__ R load(int64_t i, uint8_t *keep) const
    {
        R x = s.pull(i, e);
        *keep = s.pred(x, i, e) ? 1 : 0;
        return x;
    }
    __device__ unsigned lift(const R &, int keep) const { return (unsigned)keep; }
    __device__ unsigned combine(unsigned a, unsigned b) const { return a + b; }
    __device__ unsigned wire(unsigned v) const { return v; }
    __device__ unsigned unwire(unsigned v) const { return v; }
    __device__ bool final(unsigned) const { return false; }
    __device__ NeslOpt<unsigned> init() const { return NeslOpt<unsigned>{ 0u, 1 }; }
    template <class B>
    __device__ void finish(B &buf, unsigned f, NeslOpt<unsigned> te, NeslOpt<unsigned> tp, unsigned kept, int64_t,
                           int64_t lo, int cnt) const
    {
        int t = threadIdx.x;
        unsigned base = te.ok ? te.v : 0u, before = tp.v, r = base;
        R it[B::IPT];
#pragma unroll
        for (int k = 0; k < B::IPT; k++) it[k] = buf.template get<R>(t * B::IPT + k);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {   /* kept first, then the others, in order */
            int e = t * B::IPT + k;
            unsigned fk = f >> k & 1;
            if (fk) buf.put((int)r, it[k]);
            else if (PART && e < cnt) buf.put((int)(kept + (unsigned)e - r), it[k]);
            r += fk;
        }
        __syncthreads();
        int lim = PART ? cnt : (int)kept;
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {
            int j = k * NESL_SB + t;
            if (j < lim) {
                R x = buf.template get<R>(j);
                if (j < (int)kept) s.store((int64_t)before + j, x);
                else if constexpr (PART) s.store_f(lo - (int64_t)before + (j - (int)kept), x);
            }
        }
        if (pre) {
            __syncthreads();
            r = before + base;
#pragma unroll
            for (int k = 0; k < B::IPT; k++) {
                buf.put(t * B::IPT + k, r);
                r += f >> k & 1;
            }
            __syncthreads();
#pragma unroll
            for (int k = 0; k < B::IPT; k++) {
                int j = k * NESL_SB + t;
                if (j < cnt) pre[lo + j] = (int32_t)buf.template get<unsigned>(j);
            }
        }
        if (lo + cnt == n && t == 0) {
            *total = (long long)(before + kept);
            if (pre) pre[n] = (int32_t)(before + kept);
        }
    }
};

/* FILTER alone (no PARTITION, no per-position counts): items stay
 * striped in registers — no shared-memory transpose, no compaction
 * buffer.  Row k of a tile is elements k * NESL_SB + t; warp w's kept
 * count in row k (a ballot) goes to cnt[k][w]; warp 0 scans the counts in
 * row-major (element) order, finds the tile's prefix by the look-back,
 * and each thread stores its kept items at prefix + cnt[k][w] + (kept
 * lanes before it in the ballot): a warp's kept items of one row are
 * contiguous, so the stores stay coalesced. */
#ifndef NESL_FILTER_MINB
#define NESL_FILTER_MINB 8
#endif
template <class P> __global__ void __launch_bounds__(NESL_SB, NESL_FILTER_MINB) nesl_k_filter(P p, int64_t n, NeslScanSt<P> st)
{
    typedef typename P::Item Item;
    enum { IPT = NeslIpt<Item>::v, TILE = NESL_SB * IPT, NC = IPT * NESL_SW, PER = (NC + 31) / 32 };
    __shared__ unsigned cnt[NC];   /* [k * NESL_SW + w]: counts, then exclusive offsets */
    __shared__ unsigned s_pre, s_agg;
    __shared__ int64_t s_tile;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t == 0) s_tile = (int64_t)atomicAdd(st.counter, 1u);
    __syncthreads();
    int64_t tile = s_tile, lo = tile * TILE;
    int n_in = (int)(n - lo < TILE ? n - lo : TILE);
    static_assert(IPT <= 32, "flags are bits of a word");
    Item it[IPT];
    unsigned keep = 0;   /* bit k: item k is kept */
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        int e = k * NESL_SB + t;
        if (e < n_in) {
            uint8_t f;
            it[k] = p.load(lo + e, &f);
            keep |= (unsigned)f << k;
        }
    }
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1);
        if (lane == 0) cnt[k * NESL_SW + w] = (unsigned)__popc(b);
    }
    __syncthreads();
    if (w == 0) {
        unsigned v[PER], sum = 0;
#pragma unroll
        for (int j = 0; j < PER; j++) {
            int c = lane * PER + j;
            v[j] = c < NC ? cnt[c] : 0u;
            sum += v[j];
        }
        unsigned inc = sum;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            unsigned y = __shfl_up_sync(0xffffffffu, inc, off);
            if (lane >= off) inc += y;
        }
        unsigned ex = inc - sum, agg = __shfl_sync(0xffffffffu, inc, 31);
#pragma unroll
        for (int j = 0; j < PER; j++) {
            int c = lane * PER + j;
            if (c < NC) cnt[c] = ex;
            ex += v[j];
        }
        NeslOpt<unsigned> pre = nesl_look_back(p, st, tile, agg);
        if (lane == 0) {
            s_pre = pre.v;   /* ok: FILTER's init exists */
            s_agg = agg;
        }
    }
    __syncthreads();
    unsigned before = s_pre, below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1);
        if (keep >> k & 1) p.s.store((int64_t)before + cnt[k * NESL_SW + w] + (unsigned)__popc(b & below), it[k]);
    }
    if (lo + n_in == n && t == 0) *p.total = (long long)(before + s_agg);
}

/* Returns the number of kept elements (copied to the host). */
template <bool PART, class S> static int64_t nesl_cu_filter(NeslRt *rt, const S &s, int64_t n, int32_t *pre)
{
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    typedef NeslFilterP<S, R, PART> P;
    if (n <= 0) {
        if (pre) cudaMemset(pre, 0, sizeof(int32_t));
        return 0;
    }
    long long *total = (long long *)nesl_cu_tmp(rt, sizeof(long long), false), h;
    P p = { s, nesl_cu_derr(rt), pre, total, n };
    if (!PART && !pre) {
        enum { TILE = NESL_SB * NeslIpt<R>::v };
        int64_t ntiles = (n + TILE - 1) / TILE;
        if (ntiles > 0x7fffffffLL) nesl_fail(rt, "FILTER: too many elements (%lld)", (long long)n);
        NeslScanSt<P> st;
        memset(&st, 0, sizeof st);
        st.word = (unsigned long long *)nesl_cu_tmp(rt, 8 * (size_t)(ntiles + 1), true);
        st.counter = (unsigned *)(st.word + ntiles);
        nesl_k_filter<P><<<(unsigned)ntiles, NESL_SB>>>(p, n, st);
        nesl_cu_launched(rt, "FILTER");
    } else {
        nesl_cu_scan_run<NESL_PAR>(rt, p, n, PART ? "PARTITION" : "FILTER");
    }
    nesl_cu_to_host(rt, &h, total, sizeof h);
    return h;
}

/* New segment lengths of SEG_FILTER / SEG_PARTITION from the exclusive
 * kept counts pre[0..total]. */
__global__ static void nesl_k_seg_lens(const int32_t *pre, const int64_t *offs, int64_t nsegs, int32_t *lt, int32_t *lf)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < nsegs; g += stride) {
        int32_t k = pre[offs[g + 1]] - pre[offs[g]];
        lt[g] = k;
        if (lf) lf[g] = (int32_t)(offs[g + 1] - offs[g]) - k;
    }
}

static inline void nesl_cu_seg_lens(NeslRt *rt, const int32_t *pre, const int64_t *offs, int64_t nsegs, int32_t *lt, int32_t *lf)
{
    if (nsegs <= 0) return;
    int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_lens, (nsegs + NESL_BLOCK - 1) / NESL_BLOCK);
    nesl_k_seg_lens<<<(unsigned)grid, NESL_BLOCK>>>(pre, offs, nsegs, lt, lf);
    nesl_cu_launched(rt, "SEG_FILTER");
}

/* ---- SEG_SCAN, SEG_REDUCE: one flat scan of (value, head) pairs with
 * the segmented operator ((a, h1) ⊕ (b, h2) = h2 ? (b, h2) : (a ⊕ b, h1),
 * associative); the identity is applied once per segment, at its start.
 * No per-element segment ids: tile T handles the segments g with
 * offs[g+1] in (lo, hi] (tile 0: [0, hi]), i.e. g in [first[T],
 * first[T+1]), where first[T] (T > 0) is the segment holding element lo;
 * its heads are the offs[g] in the tile for g in [first[T], first[T+1]].
 * A tile with a head publishes its aggregate as inclusive at once. ---- */
template <class R> struct NeslSegV { R v; int head; };

/* first[T] for T in 0..ntiles (first[ntiles] = nsegs). */
__global__ static void nesl_k_seg_first(const int64_t *offs, int64_t nsegs, int64_t n, int64_t tile, int64_t ntiles, int64_t *first)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t T = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; T <= ntiles; T += stride) {
        int64_t lo = T * tile, a = 0, b = nsegs - 1;
        if (T > 0 && lo >= n) a = nsegs;
        else if (T > 0)
            while (a < b) {   /* the largest g with offs[g] <= lo */
                int64_t m = a + (b - a + 1) / 2;
                if (offs[m] <= lo) a = m;
                else b = m - 1;
            }
        first[T] = a;
    }
}

template <class S, class R> struct NeslSegP {
    S s;
    R ident;
    NeslDErr *e;
    const int64_t *offs, *first;
    R *piece;   /* SEG_REDUCE: per tile, the fold of its first segment's part when that began earlier */
    bool scan;
    typedef R Item;
    typedef NeslSegV<R> V;
    typedef R Wire;
    enum { FLAGS = 2 };
    __device__ void mark(int64_t tile, int64_t lo, int cnt, uint8_t *head) const
    {
        for (int64_t g = first[tile] + threadIdx.x; g <= first[tile + 1]; g += NESL_SB) {
            int64_t o = offs[g];
            if (o >= lo && o < lo + cnt) head[o - lo] = 1;
        }
    }
    __device__ R load(int64_t i, uint8_t *) const { return s.pull(i, e); }
    __device__ V lift(const R &x, int head) const { return V{ x, head }; }
    __device__ V combine(const V &a, const V &b) const { return b.head ? b : V{ s.op(a.v, b.v, 0, e), a.head }; }
    __device__ R wire(const V &v) const { return v.v; }
    __device__ V unwire(const R &v) const { return V{ v, 0 }; }
    __device__ bool final(const V &agg) const { return agg.head != 0; }
    __device__ NeslOpt<V> init() const
    {
        NeslOpt<V> o;
        o.ok = 0;
        return o;
    }
    template <class B>
    __device__ void finish(B &buf, unsigned head, NeslOpt<V> te, NeslOpt<V> tp, const V &, int64_t tile, int64_t lo,
                           int cnt) const
    {
        int t = threadIdx.x;
        NeslOpt<V> r = nesl_opt_cat(*this, tp, te);   /* missing only before the first head */
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {
            int h = head >> k & 1;
            R x = buf.template get<R>(t * B::IPT + k);   /* each thread rewrites its own items */
            if (scan) buf.put(t * B::IPT + k, h || !r.ok ? ident : s.op(ident, r.v.v, 0, e));
            r = nesl_opt_add(*this, r, lift(x, h));
            if (!scan) buf.put(t * B::IPT + k, r.v.v);   /* inclusive */
        }
        __syncthreads();
        if (scan) {
#pragma unroll
            for (int k = 0; k < B::IPT; k++) {
                int j = k * NESL_SB + t;
                if (j < cnt) s.store(lo + j, buf.template get<R>(j));
            }
        } else {
            for (int64_t g = first[tile] + t; g < first[tile + 1]; g += NESL_SB) {
                int64_t a = offs[g], b = offs[g + 1];
                if (a == b) {
                    s.store(g, ident);
                } else {
                    R v = buf.template get<R>((int)(b - 1 - lo));
                    if (a < lo && !tp.ok) piece[tile] = v;   /* finished by nesl_k_seg_pieces */
                    else s.store(g, s.op(ident, v, 0, e));
                }
            }
        }
    }
};

/* SEG_REDUCE: the segment that crosses into tile T and ends there is the
 * prefix of T (from the tile prefixes) then T's piece. */
template <class S, class R>
__global__ void nesl_k_seg_pieces(NeslSegP<S, R> p, const NeslOpt<NeslSegV<R> > *pre, int64_t n, int64_t tile, int64_t ntiles)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t T = 1 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; T < ntiles; T += stride) {
        int64_t lo = T * tile, hi = lo + tile < n ? lo + tile : n, g = p.first[T];
        if (p.offs[g] < lo && p.offs[g + 1] <= hi)
            p.s.store(g, p.s.op(p.ident, p.s.op(pre[T].v.v, p.piece[T], 0, p.e), 0, p.e));
    }
}

/* Empty segments reduce to the identity (SEG_REDUCE of no elements). */
template <class S, class R> __global__ void nesl_k_seg_fill(S s, int64_t nsegs, R ident)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < nsegs; g += stride) s.store(g, ident);
}

/* Sequential segmented fold (an operator that can fail or is not known
 * associative): one thread per segment. */
template <class S, class R>
__global__ void nesl_k_seg_seq(S s, int64_t nsegs, const int64_t *offs, R ident, bool scan, NeslDErr *e)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < nsegs; g += stride) {
        R acc = ident;
        for (int64_t i = offs[g]; i < offs[g + 1]; i++) {
            R x = s.pull(i, e);
            if (scan) s.store(i, acc);
            acc = s.op(acc, x, i, e);
        }
        if (!scan) s.store(g, acc);
    }
}

template <int MODE, class S, class R>
static void nesl_cu_seg_par(NeslRt *rt, const S &s, int64_t n, int64_t nsegs, const int64_t *offs, const R &ident, bool scan, NeslDErr *e,
                            const char *what)
{
    if (n <= 0) {
        if (!scan) {
            int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_fill<S, R>, (nsegs + NESL_BLOCK - 1) / NESL_BLOCK);
            nesl_k_seg_fill<S, R><<<(unsigned)grid, NESL_BLOCK>>>(s, nsegs, ident);
            nesl_cu_launched(rt, what);
        }
        return;
    }
    enum { TILE = NESL_SB * NeslIpt<R>::v };
    int64_t ntiles = (n + TILE - 1) / TILE;
    int64_t *first = (int64_t *)nesl_cu_tmp(rt, sizeof(int64_t) * (size_t)(ntiles + 1), false);
    int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_first, (ntiles + NESL_BLOCK) / NESL_BLOCK);
    nesl_k_seg_first<<<(unsigned)grid, NESL_BLOCK>>>(offs, nsegs, n, TILE, ntiles, first);
    nesl_cu_launched(rt, what);
    NeslSegP<S, R> p = { s, ident, e, offs, first, NULL, scan };
    if (scan) {
        nesl_cu_scan_run<MODE>(rt, p, n, what);
        return;
    }
    /* SEG_REDUCE: no look-back (its results need no prefix but for the
     * segments that cross into a tile), hence deterministic in every mode:
     * one pass over the data writes the other results and the tile
     * aggregates; the tile prefixes (one block) finish the crossing ones. */
    typedef NeslSegV<R> V;
    NeslScanSt<NeslSegP<S, R> > st;
    memset(&st, 0, sizeof st);
    st.agg = (V *)nesl_cu_tmp(rt, sizeof(V) * (size_t)ntiles, false);
    st.pre = (NeslOpt<V> *)nesl_cu_tmp(rt, sizeof(NeslOpt<V>) * (size_t)ntiles, false);
    p.piece = (R *)nesl_cu_tmp(rt, sizeof(R) * (size_t)ntiles, false);
    nesl_k_scan<NeslSegP<S, R> ><<<(unsigned)ntiles, NESL_SB>>>(p, n, st, NESL_PH_PIECES);
    nesl_cu_launched(rt, what);
    if (ntiles < 2) return;
    nesl_k_tile_prefix<NeslSegP<S, R> ><<<1, NESL_BLOCK>>>(p, st.agg, st.pre, ntiles);
    grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_pieces<S, R>, (ntiles + NESL_BLOCK - 1) / NESL_BLOCK);
    nesl_k_seg_pieces<S, R><<<(unsigned)grid, NESL_BLOCK>>>(p, st.pre, n, TILE, ntiles);
    nesl_cu_launched(rt, what);
}

template <int MODE, class S, class R>
static void nesl_cu_seg_fold(NeslRt *rt, const S &s, int64_t n, int64_t nsegs, const int64_t *offs, const R &ident, bool scan)
{
    const char *what = scan ? "SEG_SCAN" : "SEG_REDUCE";
    NeslDErr *e = nesl_cu_derr(rt);
    if (nsegs <= 0) return;
    if constexpr (MODE == NESL_SEQ) {
        int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_seq<S, R>, (nsegs + NESL_BLOCK - 1) / NESL_BLOCK);
        nesl_k_seg_seq<S, R><<<(unsigned)grid, NESL_BLOCK>>>(s, nsegs, offs, ident, scan, e);
        nesl_cu_launched(rt, what);
    } else {
        nesl_cu_seg_par<MODE>(rt, s, n, nsegs, offs, ident, scan, e, what);
    }
}

#endif
