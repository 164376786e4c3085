/* nesl_cuda_scan.cuh — the scan family's skeletons (SCAN, FILTER,
 * PARTITION and their SEG_ forms, SEG_SCAN, SEG_REDUCE), included by
 * nesl_cuda.cuh; doc/codegen.md, "The CUDA back end", says why they look
 * like this, bench/cuda/scan_notes.md what each choice measured.
 *
 * SCAN, SEG_SCAN and SEG_REDUCE: one kernel template, nesl_k_scan<P>,
 * runs a "problem" P tile by tile (tile T = block T; the block shape is
 * P::Shape):
 *   1. the tile's items are pulled striped within each warp (warp w owns
 *      32 * IPT consecutive elements; its load k reads 32 consecutive
 *      ones: coalesced) into shared memory and read back blocked (thread t
 *      owns IPT consecutive elements), through padded word planes that are
 *      conflict-free both ways; the exchange stays inside each warp's
 *      part, so a warp waits only for its own loads (no block barrier,
 *      but for the SEG_ forms' head flags);
 *   2. each thread folds its items, the block scans the thread values with
 *      warp shuffles (no identity needed: a thread's exclusive value
 *      exists iff it is not thread 0);
 *   3. the tile's prefix comes from a decoupled look-back (mode NESL_PAR:
 *      one warp, over packed 64-bit (status, value) words when the value
 *      has 4 bytes, else a flag plus a value with fences) or, for inexact
 *      operators (floats, mode NESL_FIXED), from a reduce-then-scan in
 *      three launches whose grouping depends only on the size, so results
 *      are the same run to run; meanwhile (P::local) SCAN's other warps
 *      rewrite their items as in-tile exclusive prefixes;
 *   4. P::finish writes the tile's results, through shared memory again so
 *      that stores are coalesced.
 *
 * A problem P provides: Item (what is pulled), V (what is scanned), Wire
 * (what the look-back exchanges: V without what it can do without),
 * Shape, FLAGS (0: none; 2: set by mark, from a zeroed array, after the
 * loads), mark, load, lift, combine (associative), wire, unwire, final
 * (the aggregate is already the inclusive prefix: a segment head), init
 * (the prefix of tile 0), local and finish.
 *
 * SEG_REDUCE needs no look-back; its tiles in which no segment begins
 * skip the per-element path (nesl_seg_plain).
 *
 * FILTER and PARTITION (and their SEG_ forms) have their own kernel,
 * nesl_k_filter: kept counts are ballots, the tile is staged compacted in
 * shared memory and stored as aligned lines; with NESL_FILTER_WS, FILTER
 * itself runs nesl_k_filter_ws, whose loading warps do not wait for the
 * look-back. */
#ifndef NESL_CUDA_SCAN_CUH
#define NESL_CUDA_SCAN_CUH

/* Block shapes: threads, item words per thread and resident blocks per
 * SM asked of the register allocator (one-word items; wider ones leave
 * it to the compiler), per problem.  Measured on the H100 (int32, 2^28,
 * scan_notes.md): 256 x 16 at 8 blocks/SM (32 registers, 2048 resident
 * threads) is the best of the shapes tried but 512 x 16 (within 1%);
 * 24 words per thread need 48 registers and were 1.4x slower (128 x 24,
 * CUB's shape, included): resident threads matter more than tile size. */
#ifndef NESL_SCAN_SB
#define NESL_SCAN_SB 256
#endif
#ifndef NESL_SCAN_WORDS
#define NESL_SCAN_WORDS 16
#endif
#ifndef NESL_SCAN_MINB
#define NESL_SCAN_MINB 8
#endif
#ifndef NESL_SEG_SB
#define NESL_SEG_SB 256
#endif
#ifndef NESL_SEG_WORDS
#define NESL_SEG_WORDS 16
#endif
#ifndef NESL_SEG_MINB
#define NESL_SEG_MINB 6
#endif
#ifndef NESL_SEG_WS
#define NESL_SEG_WS 1                  /* SEG_ forms: striped within warps (else across the block) */
#endif
#ifndef NESL_FILTER_SB
#define NESL_FILTER_SB 256
#endif
#ifndef NESL_FILTER_WORDS
#define NESL_FILTER_WORDS 16
#endif
#ifndef NESL_FILTER_MINB
#define NESL_FILTER_MINB 8
#endif
#ifndef NESL_FILTER_STAGE
#define NESL_FILTER_STAGE 1            /* FILTER: kept items staged in shared memory, stored as aligned lines */
#endif
/* FILTER (no counts): 1: nesl_k_filter_ws, a persistent grid whose
 * blocks have SB loading threads plus one look-back warp; 0:
 * nesl_k_filter, as PARTITION and the SEG_ filters.  H100, int32 at 2^28,
 * the NESL micro-benchmark (bench/RESULTS.md, 2026-11-25): 0.598-0.620
 * ms (82-86% of copy) against 0.70-0.72 for nesl_k_filter and 0.68-0.69
 * for CUB's DeviceSelect. */
#ifndef NESL_FILTER_WS
#define NESL_FILTER_WS 1
#endif
#ifndef NESL_FILTER_WS_MINB
#define NESL_FILTER_WS_MINB 5          /* 5 x 288 threads, 40 registers (6: 32 registers and spills, no faster) */
#endif
#ifndef NESL_FILTER_WS_WORDS
#define NESL_FILTER_WS_WORDS 20        /* 16: 0.651-0.654 ms; 20: 0.634-0.651 (2^28, 1000 ns) */
#endif
#ifndef NESL_FILTER_WS_DELAY
#define NESL_FILTER_WS_DELAY 1500      /* ns slept before the look-back's first read (16 words: 0 ns 0.73-0.75 ms, 1000 0.65, 2000 as 1000; 20 words: 700 0.642-0.649, 1000 0.634-0.651, 1500 0.632-0.635) */
#endif
/* Tile ids: 1: the block index (blocks start in index order, as CUB's
 * single-pass scan also assumes); 0: an atomic counter. */
#ifndef NESL_TILE_BID
#define NESL_TILE_BID 1
#endif
#ifndef NESL_LB_TILES
#define NESL_LB_TILES 1                /* tiles per lane of the look-back window */
#endif
/* ns slept before the look-back's first read, in grids of at least
 * NESL_LB_DELAY_TILES tiles (a few waves: a one-wave grid would only wait
 * longer): fewer reads of tiles not yet published, which load the L2
 * slices that every look-back polls (H100, int32 at 2^28: SCAN 0.93 ms
 * with no sleep, 0.89 at 1000 ns, 0.86 at 2000; FILTER 0.86, 0.80, 0.77) */
#ifndef NESL_LB_DELAY
#define NESL_LB_DELAY 2000
#endif
#ifndef NESL_LB_DELAY_TILES
#define NESL_LB_DELAY_TILES 2048
#endif

/* Kernel phases: look-back; per-tile aggregates only; results from given
 * tile prefixes; per-tile aggregates and the results that need no prefix
 * (SEG_REDUCE). */
enum { NESL_PH_LOOKBACK, NESL_PH_AGG, NESL_PH_APPLY, NESL_PH_PIECES };

template <class T> struct NeslWords { enum { n = (sizeof(T) + 3) / 4 }; };
/* SB threads, IPT items per thread (about WORDS words of item), MINB
 * blocks per SM for one-word items. */
template <class T, int SB_, int WORDS, int MINB_, int WS_ = 1> struct NeslShape {
    enum {
        SB = SB_, NW = SB_ / 32, WS = WS_,
        IPT = NeslWords<T>::n >= WORDS ? 1 : WORDS / NeslWords<T>::n,
        TILE = SB_ * IPT,
        MINB = NeslWords<T>::n > 1 ? 1 : MINB_
    };
    static_assert(SB_ % 32 == 0 && SB_ <= 1024, "whole warps");
    static_assert(IPT <= 32, "flags are bits of a word");
    /* element k of thread t, striped within its warp's part of the tile
     * (WS) or across the block */
    static __device__ __forceinline__ int striped(int k, int t) { return WS_ ? (t & ~31) * IPT + k * 32 + (t & 31) : k * SB_ + t; }
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
 * element k*32+lane of its striped access land in distinct banks (IPT a
 * power of two; 2-way at most otherwise). */
static __device__ __forceinline__ int nesl_pad(int e) { return e + (e >> 5); }

template <class Item, class S> struct NeslTileBuf {
    enum { IPT = S::IPT, TILE = S::TILE, PLANE = TILE + TILE / 32, W = NeslWords<Item>::n };
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

/* Per-tile timestamps for bench/cuda/skel_bench.cu's "prof" mode only
 * (NESL_SCAN_PROF), 16 words per tile: [0] globaltimer at the start,
 * [1..5] clock64 at the start, loads landed, block aggregate known,
 * prefix known, end; [6] the look-back's read rounds; [7] the SM; [8]
 * globaltimer at the end. */
#ifdef NESL_SCAN_PROF
static __device__ unsigned long long *nesl_prof;
#define NESL_PROF(tile, slot, v) do { if (nesl_prof) nesl_prof[(tile) * 16 + (slot)] = (unsigned long long)(v); } while (0)
static __device__ __forceinline__ unsigned long long nesl_gtimer()
{
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    return g;
}
static __device__ __forceinline__ unsigned nesl_smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}
/* A tile's record at its end (thread 0). */
#define NESL_PROF_TILE(tile, g0, c0, c1, c2, c3) do { \
        if (threadIdx.x == 0) { \
            NESL_PROF(tile, 0, g0); NESL_PROF(tile, 1, c0); NESL_PROF(tile, 2, c1); \
            NESL_PROF(tile, 3, c2); NESL_PROF(tile, 4, c3); NESL_PROF(tile, 5, clock64()); \
            NESL_PROF(tile, 7, nesl_smid()); NESL_PROF(tile, 8, nesl_gtimer()); \
        } \
    } while (0)
#else
#define NESL_PROF(tile, slot, v) do { } while (0)
#endif

/* ---- tile states of one scan ---- */
/* K 32-bit counts that travel through one look-back together (the
 * FILTERs of nesl_k_filter_multi). */
template <int K> struct NeslCounts { unsigned c[K]; };

/* A look-back's state words a tile: 1 for a value of at most 32 bits; 2
 * to NESL_LB_SPLIT for one of whole 32-bit words (int64 and double sums,
 * descriptor lengths' sums, K FILTER counts), split; each word of the
 * value packed with the status in a 64-bit word of its own; 0 for wider
 * ones (a flag after the value). */
#ifndef NESL_LB_SPLIT
#define NESL_LB_SPLIT 4
#endif
template <class Wr> struct NeslLbWords {
    enum { n = sizeof(Wr) <= 4 ? 1 : sizeof(Wr) % 4 == 0 && sizeof(Wr) / 4 <= NESL_LB_SPLIT ? (int)(sizeof(Wr) / 4) : 0 };
};
static_assert(NeslLbWords<unsigned>::n == 1 && NeslLbWords<long long>::n == 2 && NeslLbWords<NeslCounts<3>>::n == 3 &&
              NeslLbWords<char[6]>::n == 0 && (NeslLbWords<long long[3]>::n == 0 || NESL_LB_SPLIT >= 6), "look-back state words");

template <class P> struct NeslScanSt {
    typedef typename P::V V;
    typedef typename P::Wire Wr;
    /* WORDS > 0: that many words a tile, word c of tile t at
     * word[c * ntiles + t] (a warp's window reads contiguous words), no
     * fence between the value and its status; 0: a flag after the value,
     * read with a fence between (2.2 against 1.2 us a
     * tile for int64 sums, bench/RESULTS.md).  H100, quicksort's three
     * FILTER counts a tile: 24 us flag and fence, 15.5 us split, at 10^6
     * (bench/RESULTS.md, session 30) */
    enum { WORDS = NeslLbWords<Wr>::n };
    unsigned long long *word;   /* WORDS > 0: status << 32 | a word of the value */
    int64_t ntiles;
    int *flag;                  /* WORDS 0: status, after the value */
    Wr *agg_w, *inc_w;
    unsigned *counter;          /* tiles taken (NESL_TILE_BID 0, FILTER's warp-specialized kernel) */
    unsigned epoch;             /* this launch's: a status of another is unpublished */
    V *agg;                     /* NESL_FIXED: per-tile aggregates */
    NeslOpt<V> *pre;            /* NESL_FIXED: per-tile prefixes */

    /* status 1: the tile's aggregate; 2: its inclusive prefix; stored as
     * epoch * 4 + status, so the states need no zeroing between launches
     * (nesl_cu_lb_state) */
    __device__ void publish(int status, int64_t tile, const Wr &v) const
    {
        unsigned es = epoch * 4u + (unsigned)status;
        if constexpr (WORDS > 0) {
            unsigned b[WORDS] = {};
            memcpy(b, &v, sizeof(Wr));
#pragma unroll
            for (int c = 0; c < WORDS; c++) nesl_st_status(word + c * ntiles + tile, (unsigned long long)es << 32 | b[c]);
        } else {
            (status == 2 ? inc_w : agg_w)[tile] = v;
            __threadfence();
            *(volatile int *)(flag + tile) = (int)es;
        }
    }
    __device__ int status(unsigned es) const { return es >> 2 == epoch ? (int)(es & 3u) : 0; }
    /* Split: each word is stored once a status, so words that show one
     * status hold that status's value; a tile whose words show different
     * ones is unpublished (its publisher is between the words; the
     * look-back reads it again) */
    __device__ int read(int64_t tile, Wr *v) const
    {
        if constexpr (WORDS > 0) {
            unsigned long long x[WORDS];
            unsigned b[WORDS];
#pragma unroll
            for (int c = 0; c < WORDS; c++) x[c] = nesl_ld_status(word + c * ntiles + tile);
            int f = status((unsigned)(x[0] >> 32));
#pragma unroll
            for (int c = 1; c < WORDS; c++)
                if (status((unsigned)(x[c] >> 32)) != f) f = 0;
#pragma unroll
            for (int c = 0; c < WORDS; c++) b[c] = (unsigned)x[c];
            memcpy(v, b, sizeof(Wr));
            return f;
        } else {
            int f = status((unsigned)*(volatile int *)(flag + tile));
            if (f) {
                __threadfence();
                *v = nesl_ld_volatile(f == 2 ? inc_w + tile : agg_w + tile);
            }
            return f;
        }
    }
};

/* The next ticket from the runtime's counter, of `last + 1` that the
 * launch takes in all: the one that takes the last resets the counter
 * for the next launch (every other ticket is taken by then), so the
 * counter needs no memset. */
static __device__ unsigned nesl_ticket(unsigned *counter, unsigned last)
{
    unsigned k = atomicAdd(counter, 1u);
    if (k == last) *counter = 0;
    return k;
}

/* The tile index: the block's, or the next from the counter (whole
 * block; a barrier; one ticket a block).  Tile indices fit an int
 * (nesl_cu_scan_run). */
template <class P> static __device__ int nesl_tile_id(const NeslScanSt<P> &st, bool counted)
{
    if (!counted || NESL_TILE_BID) return (int)blockIdx.x;
    __shared__ unsigned s_tile;
    if (threadIdx.x == 0) s_tile = nesl_ticket(st.counter, gridDim.x - 1);
    __syncthreads();
    return (int)s_tile;
}

/* Warp 0: publish the tile's aggregate, run mid() (work that needs no
 * prefix, while the predecessors publish theirs), then find the prefix
 * (the fold of all earlier tiles after init) looking back 32 *
 * NESL_LB_TILES tiles at a time — lane l reads tiles k - L*l - j, j < L,
 * at once, and re-reads only while a tile that matters is unpublished:
 * one nearer than the nearest inclusive prefix in the window (all when
 * there is none); the window is folded, earliest tile first, from that
 * inclusive prefix — and publish the inclusive prefix.  pub = false: the
 * caller published the aggregate (tile 0: its inclusive prefix) already;
 * delay: ns slept before the first read (< 0: NESL_LB_DELAY in grids of
 * NESL_LB_DELAY_TILES tiles or more). */
template <class P, class F>
static __device__ NeslOpt<typename P::V> nesl_look_back(const P &p, const NeslScanSt<P> &st, int tile, const typename P::V &agg,
                                                        const F &mid, bool pub = true, int delay = -1)
{
    typedef typename P::V V;
    typedef typename P::Wire Wr;
    enum { L = NESL_LB_TILES };
    int lane = threadIdx.x & 31;
    NeslOpt<V> pre;
    if (tile == 0) {
        pre = p.init();
        if (pub && lane == 0) st.publish(2, 0, p.wire(pre.ok ? p.combine(pre.v, agg) : agg));
        mid();
        return pre;
    }
    bool fin = p.final(agg);
    if (pub && lane == 0) st.publish(fin ? 2 : 1, tile, p.wire(agg));
    mid();
    if (delay < 0) delay = gridDim.x >= NESL_LB_DELAY_TILES ? NESL_LB_DELAY : 0;
    if (delay > 0) __nanosleep((unsigned)delay);
    pre.ok = 0;
#ifdef NESL_SCAN_PROF
    int reads = 0;
#endif
    for (int k = tile - 1;; k -= 32 * L) {
        Wr wv[L];
        int f[L];
#pragma unroll
        for (int j = 0; j < L; j++) {
            wv[j] = Wr();
            f[j] = k - L * lane - j >= 0 ? 0 : 2;   /* before tile 0, which is inclusive: never folded */
        }
        unsigned inc;
        for (;;) {
#ifdef NESL_SCAN_PROF
            reads++;
#endif
            bool li = false, wait = false;
#pragma unroll
            for (int j = 0; j < L; j++) {   /* nearest first */
                if (f[j] == 0) f[j] = st.read(k - L * lane - j, &wv[j]);
                wait = wait || (!li && f[j] == 0);
                li = li || f[j] == 2;
            }
            inc = __ballot_sync(0xffffffffu, li);
            int stop = inc ? __ffs(inc) - 1 : 31;
            if (!__any_sync(0xffffffffu, wait && lane <= stop)) break;
#ifdef NESL_LB_SLEEP
            __nanosleep(NESL_LB_SLEEP);
#endif
        }
        /* the lane's tiles, farthest first, restarting at an inclusive one */
        V v = p.unwire(wv[L - 1]);
#pragma unroll
        for (int j = L - 2; j >= 0; j--) {
            V u = p.unwire(wv[j]);
            v = f[j] == 2 ? u : p.combine(v, u);
        }
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
#ifdef NESL_SCAN_PROF
    if (lane == 0) NESL_PROF(tile, 6, reads);
#endif
    if (!fin && lane == 0) st.publish(2, tile, p.wire(p.combine(pre.v, agg)));
    return pre;
}

/* SEG_REDUCE, a full tile in which no segment begins (P::plain; with
 * segments of 10^6 elements, all but a few tiles): its aggregate is a
 * plain fold, without head flags, per-element results or the finish's
 * shared-memory pass and barriers — one block barrier.  The fold keeps
 * element order (associativity only, as every mode allows): the striped
 * items go through the warp's part of buf to blocked order, each thread
 * folds its IPT, the warp folds its lanes in a tree (lane l takes l + off
 * when l is a multiple of 2 off) and thread 0 the warps in order.  The
 * grouping depends on the offsets alone, so float results are the same
 * run to run.  The tile can finish only the segment that crosses into it
 * when that ends at the tile's end (its piece, as in finish) and the empty
 * segments there. */
template <class P, class B, class Item, int IPT>
static __device__ void nesl_seg_plain(const P &p, B &buf, Item (&it)[IPT], typename P::V *s_w, const NeslScanSt<P> &st, int tile)
{
    typedef typename P::Shape S;
    typedef typename P::V V;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
#pragma unroll
    for (int k = 0; k < IPT; k++) buf.put(S::striped(k, t), it[k]);
    if (S::WS) __syncwarp();   /* the warp's own part of the tile */
    else __syncthreads();
    Item a = buf.template get<Item>(t * IPT);
#pragma unroll
    for (int k = 1; k < IPT; k++) a = p.s.op(a, buf.template get<Item>(t * IPT + k), 0, p.e);
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        Item y = nesl_shfl(a, off, 0);
        if ((lane & (2 * off - 1)) == 0) a = p.s.op(a, y, 0, p.e);
    }
    if (lane == 0) s_w[w] = V{ a, 0 };
    __syncthreads();
    int64_t g0 = p.first[tile], g1 = p.first[tile + 1];
    if (t == 0) {
        V agg = s_w[0];
#pragma unroll
        for (int j = 1; j < S::NW; j++) agg.v = p.s.op(agg.v, s_w[j].v, 0, p.e);
        st.agg[tile] = agg;
        if (g0 < g1) p.piece[tile] = agg.v;   /* finished by nesl_k_seg_pieces */
    }
    for (int64_t g = g0 + 1 + t; g < g1; g += S::SB) p.s.store(g, p.ident);
}

template <class P> __global__ void __launch_bounds__(P::Shape::SB, P::Shape::MINB) nesl_k_scan(P p, int64_t n, NeslScanSt<P> st, int phase)
{
    NESL_PDL_WAIT();
    typedef typename P::Item Item;
    typedef typename P::V V;
    typedef typename P::Shape S;
    enum { IPT = S::IPT, TILE = S::TILE, NW = S::NW };
    __shared__ NeslTileBuf<Item, S> buf;
    __shared__ uint8_t fl[P::FLAGS ? TILE : 1];
    __shared__ V s_w[NW];
    __shared__ NeslOpt<V> s_pre;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
#ifdef NESL_SCAN_PROF
    unsigned long long c0 = clock64(), g0 = nesl_gtimer();
#endif
    int tile = nesl_tile_id(st, phase == NESL_PH_LOOKBACK);
    int64_t lo = (int64_t)tile * TILE;
    int cnt = (int)(n - lo < TILE ? n - lo : TILE);
    Item it[IPT];   /* striped, then blocked */
#pragma unroll
    for (int k = 0; k < IPT; k++) {   /* all loads in flight before mark's */
        int e = S::striped(k, t);
        if (e < cnt) it[k] = p.load(lo + e);
    }
    if constexpr (P::FLAGS != 0) {
        /* SEG_REDUCE: a tile in which no segment begins needs neither
         * head flags nor per-element results (the tile's words are read
         * while its loads are in flight; the same for the whole block) */
        if (p.begin(tile, lo, n)) __syncthreads();   /* the tile's first segments known */
        if (phase == NESL_PH_PIECES && p.plain(tile, lo, cnt)) {
            nesl_seg_plain(p, buf, it, s_w, st, tile);
            return;
        }
#pragma unroll
        for (int k = 0; k < IPT; k++) fl[k * S::SB + t] = 0;
        __syncthreads();   /* the flags zeroed */
        p.mark(tile, lo, cnt, fl);
    }
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        int e = S::striped(k, t);
        if (e < cnt) buf.put(e, it[k]);
    }
    if (P::FLAGS || !S::WS) __syncthreads();
    else __syncwarp();   /* the warp's own part of the tile */
#ifdef NESL_SCAN_PROF
    unsigned long long c1 = clock64();
#endif

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
     * and the last tile's aggregate */
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
    for (int j = 1; j < NW; j++) {
        if (j == w) wp = agg;
        agg = p.combine(agg, s_w[j]);
    }
    V ex = nesl_shfl(inc, 1, 1);
    NeslOpt<V> te;   /* the fold of the tile's earlier threads */
    te.v = lane == 0 ? wp : w > 0 ? p.combine(wp, ex) : ex;
    te.ok = lane > 0 || w > 0;
#ifdef NESL_SCAN_PROF
    unsigned long long c2 = clock64();
#endif

    auto local = [&] { p.local(buf, te, cnt); };
    if (phase == NESL_PH_AGG || phase == NESL_PH_PIECES) {
        if (t == 0) st.agg[tile] = agg;
        if (phase == NESL_PH_AGG) return;
        if (t == 0) s_pre.ok = 0;
        local();
    } else if (phase == NESL_PH_APPLY) {
        if (t == 0) s_pre = st.pre[tile];
        local();
    } else if (w == 0) {
        NeslOpt<V> pre = nesl_look_back(p, st, tile, agg, local);
        if (lane == 0) s_pre = pre;
    } else {
        local();
    }
#ifdef NESL_SCAN_PROF
    unsigned long long c3 = clock64();
#endif
    __syncthreads();
    p.finish(buf, f, te, s_pre, agg, tile, lo, cnt);   /* items re-read from buf: fewer live registers */
#ifdef NESL_SCAN_PROF
    NESL_PROF_TILE(tile, g0, c0, c1, c2, c3);
#endif
}

/* NESL_FIXED: the exclusive prefixes of the tile aggregates (after init),
 * in one block of NESL_BLOCK threads, grouped by the tile count alone
 * (nesl_k_tile_prefix, nesl_k_seg_prefix_pieces). */
template <class P>
static __device__ void nesl_tile_prefix_block(const P &p, const typename P::V *agg, NeslOpt<typename P::V> *pre, int64_t ntiles)
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

template <class P>
__global__ void nesl_k_tile_prefix(P p, const typename P::V *agg, NeslOpt<typename P::V> *pre, int64_t ntiles)
{
    NESL_PDL_WAIT();
    nesl_tile_prefix_block(p, agg, pre, ntiles);
}

/* Tile prefixes over many tiles (> NESL_TP_ONE): blocks of NESL_BLOCK
 * tiles fold theirs (nesl_k_tile_red), one block scans the block totals
 * (nesl_k_tile_prefix), and each block rescans its tiles from its total's
 * prefix (nesl_k_tile_apply): every access coalesced, grouping still
 * fixed by the tile count.  nesl_k_tile_prefix alone over 65536 tiles
 * (SEG_REDUCE at 2^28) is one block whose threads each walk 256 tiles
 * with strided, uncoalesced accesses. */
#ifndef NESL_TP_ONE
#define NESL_TP_ONE 4096
#endif
template <class P> __global__ void nesl_k_tile_red(P p, const typename P::V *agg, typename P::V *blk, int64_t ntiles)
{
    NESL_PDL_WAIT();
    typedef typename P::V V;
    NeslCombC<P> c = { &p };
    int64_t i = (int64_t)blockIdx.x * NESL_BLOCK + threadIdx.x;
    NeslOpt<V> x;
    x.ok = i < ntiles;
    if (x.ok) x.v = agg[i];
    x = nesl_block_reduce(x, c);
    if (threadIdx.x == 0) blk[blockIdx.x] = x.v;   /* every block has a tile */
}

template <class P>
__global__ void nesl_k_tile_apply(P p, const typename P::V *agg, const NeslOpt<typename P::V> *bpre, NeslOpt<typename P::V> *pre, int64_t ntiles)
{
    NESL_PDL_WAIT();
    typedef typename P::V V;
    NeslCombC<P> c = { &p };
    int64_t i = (int64_t)blockIdx.x * NESL_BLOCK + threadIdx.x;
    NeslOpt<V> x, ex, tot;
    x.ok = i < ntiles;
    if (x.ok) x.v = agg[i];
    nesl_block_scan(x, c, &ex, &tot);
    if (i < ntiles) pre[i] = nesl_opt_cat(p, bpre[blockIdx.x], ex);
}

/* pre[T] = init ⊕ agg[0] ⊕ ... ⊕ agg[T-1], grouped by ntiles alone. */
template <class P>
static void nesl_cu_tile_prefix(NeslRt *rt, const P &p, const typename P::V *agg, NeslOpt<typename P::V> *pre, int64_t ntiles)
{
    typedef typename P::V V;
    if (ntiles <= NESL_TP_ONE) {
        nesl_cu_launch(rt, nesl_k_tile_prefix<P>, 1, NESL_BLOCK, p, agg, pre, ntiles);
        return;
    }
    int64_t nb = (ntiles + NESL_BLOCK - 1) / NESL_BLOCK;
    V *blk = (V *)nesl_cu_tmp(rt, sizeof(V) * (size_t)nb, false);
    NeslOpt<V> *bpre = (NeslOpt<V> *)nesl_cu_tmp(rt, sizeof(NeslOpt<V>) * (size_t)nb, false);
    nesl_cu_launch(rt, nesl_k_tile_red<P>, (unsigned)nb, NESL_BLOCK, p, agg, blk, ntiles);
    nesl_cu_launch(rt, nesl_k_tile_prefix<P>, 1, NESL_BLOCK, p, blk, bpre, nb);
    nesl_cu_launch(rt, nesl_k_tile_apply<P>, (unsigned)nb, NESL_BLOCK, p, agg, bpre, pre, ntiles);
}

/* The tile states of a look-back over ntiles tiles: the runtime's, kept
 * from launch to launch with a new epoch (no memset: quicksort's
 * descriptors made 310 of its 568 a run, 2-4 us of host time each on the
 * H100), and with a tile counter (counted) the runtime's counter, which
 * the launch leaves at 0 (nesl_ticket; a memset of zeroed states was 141
 * of quicksort's 2832 operations a run, session 22). */
template <class P> static NeslScanSt<P> nesl_cu_lb_state(NeslRt *rt, int64_t ntiles, bool counted = !NESL_TILE_BID)
{
    typedef typename P::Wire Wr;
    enum { WORDS = NeslScanSt<P>::WORDS };
    NeslScanSt<P> st;
    memset(&st, 0, sizeof st);
    void *lb = nesl_cu_lb_states(rt, WORDS > 0, WORDS > 0 ? WORDS * ntiles : ntiles, &st.epoch);
    st.counter = counted ? nesl_cu_counter(rt) : NULL;
    st.ntiles = ntiles;
    if constexpr (WORDS > 0) {
        st.word = (unsigned long long *)lb;
    } else {
        st.flag = (int *)lb;
        st.agg_w = (Wr *)nesl_cu_tmp(rt, sizeof(Wr) * (size_t)ntiles, false);
        st.inc_w = (Wr *)nesl_cu_tmp(rt, sizeof(Wr) * (size_t)ntiles, false);
    }
    return st;
}

template <int MODE, class P> static void nesl_cu_scan_run(NeslRt *rt, const P &p, int64_t n, const char *what)
{
    typedef typename P::V V;
    enum { TILE = P::Shape::TILE, SB = P::Shape::SB };
    if (n <= 0) return;
    int64_t ntiles = (n + TILE - 1) / TILE;
    if (ntiles > 0x7fffffffLL) nesl_fail(rt, "%s: too many elements (%lld)", what, (long long)n);
    if constexpr (MODE == NESL_FIXED) {
        NeslScanSt<P> st;
        memset(&st, 0, sizeof st);
        st.agg = (V *)nesl_cu_tmp(rt, sizeof(V) * (size_t)ntiles, false);
        st.pre = (NeslOpt<V> *)nesl_cu_tmp(rt, sizeof(NeslOpt<V>) * (size_t)ntiles, false);
        nesl_cu_launch(rt, nesl_k_scan<P>, (unsigned)ntiles, SB, p, n, st, NESL_PH_AGG);
        nesl_cu_tile_prefix(rt, p, st.agg, st.pre, ntiles);
        nesl_cu_launch(rt, nesl_k_scan<P>, (unsigned)ntiles, SB, p, n, st, NESL_PH_APPLY);
    } else {
        nesl_cu_launch(rt, nesl_k_scan<P>, (unsigned)ntiles, SB, p, n, nesl_cu_lb_state<P>(rt, ntiles), NESL_PH_LOOKBACK);
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
    typedef NeslShape<R, NESL_SCAN_SB, NESL_SCAN_WORDS, NESL_SCAN_MINB> Shape;
    enum { FLAGS = 0 };
    __device__ void mark(int64_t, int64_t, int, uint8_t *) const { }
    __device__ R load(int64_t i) const { return s.pull(i, e); }
    __device__ R lift(const R &x, int) const { return x; }
    __device__ R combine(const R &a, const R &b) const { return s.op(a, b, 0, e); }
    __device__ R wire(const R &v) const { return v; }
    __device__ R unwire(const R &v) const { return v; }
    __device__ bool final(const R &) const { return false; }
    __device__ NeslOpt<R> init() const { return NeslOpt<R>{ ident, 1 }; }
    /* Before the prefix is known: each thread rewrites its own items as
     * the fold of the tile's elements before them (the tile's first
     * element has none and keeps its item, unused). */
    template <class B> __device__ void local(B &buf, NeslOpt<R> te, int) const
    {
        int t = threadIdx.x;
        NeslOpt<R> r = te;
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {
            R x = buf.template get<R>(t * B::IPT + k);
            if (r.ok) buf.put(t * B::IPT + k, r.v);
            r = nesl_opt_add(*this, r, x);
        }
    }
    template <class B>
    __device__ void finish(B &buf, unsigned, NeslOpt<R>, NeslOpt<R> tp, const R &, int64_t, int64_t lo, int cnt) const
    {
        int t = threadIdx.x;   /* tp.ok: init exists */
#pragma unroll
        for (int k = 0; k < B::IPT; k++) {
            int j = Shape::striped(k, t);
            if (j < cnt) {
                R x = buf.template get<R>(j);
                s.store(lo + j, j == 0 ? tp.v : s.op(tp.v, x, 0, e));
            }
        }
    }
};

/* Sequential SCAN for an operator that can fail or is not known associative. */
template <class S, class R> __global__ void nesl_k_scan_seq(S s, int64_t n, R ident, NeslDErr *e)
{
    NESL_PDL_WAIT();
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
        nesl_cu_launch(rt, nesl_k_scan_seq<S, R>, 1, 1, s, n, ident, e);
        nesl_cu_launched(rt, "SCAN");
    } else {
        NeslScanP<S, R> p = { s, ident, e };
        nesl_cu_scan_run<MODE>(rt, p, n, "SCAN");
    }
}

/* ---- FILTER, PARTITION (and their SEG_ forms): one pass with a
 * look-back over the kept counts.  Warp w owns 32 * IPT consecutive
 * elements of the tile and pulls them striped (row k: elements k*32 +
 * lane) into registers; a row's kept count is a ballot, the warp's the
 * sum of its rows'.  After one barrier every warp knows the kept items
 * before it in the tile and stages its items in shared memory, compacted
 * (kept ones first, then PARTITION's others, each in order), while warp 0
 * finds the tile's prefix; after a second barrier the block stores the
 * kept items as aligned runs of 32 (whole 128-byte lines for 4-byte
 * items; storing a warp's kept items of one row straight from registers
 * wrote ~16 items at an arbitrary offset per store), PARTITION the others
 * at out_f[i - kept before i] likewise, and the SEG_ forms (COUNTS, pre)
 * the exclusive kept counts at every position 0..n, for the new segment
 * lengths.  Counts are 32-bit (lengths are below 2^31). ---- */
template <class S, class R, bool PART, bool COUNTS> struct NeslFilterP {
    S s;
    NeslDErr *e;
    int32_t *pre;
    long long *total;
    uint64_t *rank;   /* FILTER: the rank words of its kept positions (nesl_cu_kept_rank), or NULL */
    typedef R Item;
    typedef unsigned V;
    typedef unsigned Wire;
    /* SEG_PARTITION's two extra addresses per row need more registers */
    typedef NeslShape<R, NESL_FILTER_SB, NESL_FILTER_WORDS, (PART && COUNTS && NESL_FILTER_MINB > 6 ? 6 : NESL_FILTER_MINB)> Shape;
    enum { PARTITION = PART, WITH_COUNTS = COUNTS };
    __device__ R load(int64_t i, bool *keep) const
    {
        R x = s.pull(i, e);
        *keep = s.pred(x, i, e);
        return x;
    }
    __device__ unsigned combine(unsigned a, unsigned b) const { return a + b; }
    __device__ unsigned wire(unsigned v) const { return v; }
    __device__ unsigned unwire(unsigned v) const { return v; }
    __device__ bool final(unsigned) const { return false; }
    __device__ NeslOpt<unsigned> init() const { return NeslOpt<unsigned>{ 0u, 1 }; }
};

/* A warp's stretch of a FILTER tile (wn elements from base, striped over
 * the lanes): its items into it[], their keep flags into keep's bits; the
 * warp's kept count is returned to every lane. */
template <class P, int IPT>
static __device__ __forceinline__ unsigned nesl_filter_load_warp(const P &p, int64_t base, int wn, int lane, typename P::Item (&it)[IPT],
                                                                 unsigned &keep)
{
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        int e = k * 32 + lane;
        if (e < wn) {
            bool f;
            it[k] = p.load(base + e, &f);
            keep |= (unsigned)f << k;
        }
    }
    unsigned wc = 0;
#pragma unroll
    for (int k = 0; k < IPT; k++) wc += (unsigned)__popc(__ballot_sync(0xffffffffu, keep >> k & 1));
    return wc;
}

/* A warp's kept items of its IPT rows (bit k of keep: row k's item is
 * kept), compacted in order into st from before on (the kept items of
 * the warps before it); below: the lane's mask of lower lanes. */
template <int IPT, class Item>
static __device__ __forceinline__ void nesl_stage_kept(unsigned keep, const Item (&it)[IPT], unsigned before, unsigned below, Item *st)
{
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1);
        if (keep >> k & 1) st[before + (unsigned)__popc(b & below)] = it[k];
        before += (unsigned)__popc(b);
    }
}

/* cnt staged items to out[pre ...] by the SB threads of a block: thread
 * t takes position (pre rounded down to 32 items) + t + j SB, so each
 * warp store covers one aligned run of 32 items (128 bytes for 4-byte
 * items); store (i, x) writes out[i]. */
template <int SB, class Item, class F>
static __device__ __forceinline__ void nesl_store_runs(int t, int64_t pre, int cnt, const Item *st, const F &store)
{
    int q = (int)(pre & 31);
    for (int i = t; i < q + cnt; i += SB)
        if (i >= q) store(pre - q + i, st[i - q]);
}

/* The rank word (nesl_cu_kept_rank) of row `lane` of a warp's IPT rows
 * (bit k of keep: row k's item is kept), before: the count kept before
 * row 0; the caller stores lane k's at row k's word for lanes k < IPT
 * with items (k * 32 < the warp's elements).  A warp's row is 32 aligned
 * positions: tiles and warps' stretches are whole rows. */
template <int IPT> static __device__ __forceinline__ uint64_t nesl_rank_word(unsigned keep, unsigned before, int lane)
{
    static_assert(IPT <= 32, "a lane a row");
    uint64_t mine = 0;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1);
        if (lane == k) mine = (uint64_t)before << 32 | b;
        before += (unsigned)__popc(b);
    }
    return mine;
}

/* The rank words of a warp's rows stored, row k's at rank[row0 + k], for
 * the rows that hold items (wn: the warp's elements). */
template <int IPT>
static __device__ __forceinline__ void nesl_store_rank(uint64_t *rank, int64_t row0, int wn, unsigned keep, unsigned before, int lane)
{
    uint64_t rw = nesl_rank_word<IPT>(keep, before, lane);
    if (lane < IPT && lane * 32 < wn) rank[row0 + lane] = rw;
}

template <class P> __global__ void __launch_bounds__(P::Shape::SB, P::Shape::MINB) nesl_k_filter(P p, int64_t n, NeslScanSt<P> st)
{
    NESL_PDL_WAIT();
    typedef typename P::Item Item;
    typedef typename P::Shape S;
    /* STAGE: the tile passes through shared memory (its words fit the
     * shape's; wider items, one per thread, are stored from registers) */
    enum { IPT = S::IPT, TILE = S::TILE, NW = S::NW, WT = 32 * S::IPT, STAGE = NESL_FILTER_STAGE && NeslWords<Item>::n <= NESL_FILTER_WORDS };
    __shared__ unsigned s_w[NW];                /* warp kept counts */
    __shared__ Item s_st[STAGE ? TILE : 1];     /* the tile's kept items in order, then (PARTITION) the others */
    __shared__ unsigned s_pre;     /* kept before the tile */
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
#ifdef NESL_SCAN_PROF
    unsigned long long c0 = clock64(), g0 = nesl_gtimer();
#endif
    int tile = nesl_tile_id(st, true);
    int64_t lo = (int64_t)tile * TILE;
    int n_in = (int)(n - lo < TILE ? n - lo : TILE), wn = n_in - w * WT;   /* wn: the warp's elements (may be <= 0) */
    Item it[IPT];
    unsigned keep = 0;   /* bit k: item k is kept (item k exists iff k * 32 + lane < wn) */
    unsigned wc = nesl_filter_load_warp(p, lo + w * WT, wn, lane, it, keep);
    if (lane == 0) s_w[w] = wc;
#ifdef NESL_SCAN_PROF
    unsigned long long c1 = clock64();
#endif
    __syncthreads();
#ifdef NESL_SCAN_PROF
    unsigned long long c2 = clock64();
#endif
    /* every warp: the kept items before it in the tile, and the tile's */
    unsigned wbefore = 0, ktile;
    for (int j = 0; j < w; j++) wbefore += s_w[j];
    ktile = wbefore;
    for (int j = w; j < NW; j++) ktile += s_w[j];
    /* stage the tile in shared memory, compacted: the kept items at
     * [0, ktile) and (PARTITION) the others after them, each in order, so
     * that the stores below write whole aligned lines; the items need no
     * registers during the look-back */
    unsigned below = (1u << lane) - 1u;
    if constexpr (STAGE) {
        unsigned before = wbefore;
#pragma unroll
        for (int k = 0; k < IPT; k++) {
            unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1), kb = before + (unsigned)__popc(b & below);
            if (keep >> k & 1) s_st[kb] = it[k];
            else if constexpr (P::PARTITION) {
                if (k * 32 + lane < wn) s_st[ktile + (unsigned)(w * WT + k * 32 + lane) - kb] = it[k];
            }
            before += (unsigned)__popc(b);
        }
    }
    if (w == 0) {
        NeslOpt<unsigned> pre = nesl_look_back(p, st, tile, ktile, [] {});
        if (lane == 0) s_pre = pre.v;   /* pre.ok: FILTER's init exists */
    }
#ifdef NESL_SCAN_PROF
    unsigned long long c3 = clock64();
#endif
    __syncthreads();
    /* kept item j goes to out[pre + j], in aligned runs */
    int64_t pre = (int64_t)s_pre;
    if constexpr (STAGE) {
        nesl_store_runs<S::SB>(t, pre, (int)ktile, s_st, [&](int64_t i, const Item &x) { p.s.store(i, x); });
        if constexpr (P::PARTITION)   /* the others: out_f[lo - pre ...] */
            nesl_store_runs<S::SB>(t, lo - pre, n_in - (int)ktile, s_st + ktile, [&](int64_t i, const Item &x) { p.s.store_f(i, x); });
    }
    if constexpr (!STAGE || P::WITH_COUNTS) {
        /* unstaged: a warp's kept items of one row are contiguous; COUNTS:
         * the exclusive kept counts at every position */
        int64_t wlo = lo + w * WT;
        unsigned before = (unsigned)pre + wbefore;
#pragma unroll
        for (int k = 0; k < IPT; k++) {
            unsigned b = __ballot_sync(0xffffffffu, keep >> k & 1), kb = before + (unsigned)__popc(b & below);
            bool ex = k * 32 + lane < wn;
            if constexpr (!STAGE) {
                if (keep >> k & 1) p.s.store((int64_t)kb, it[k]);
                else if constexpr (P::PARTITION) {
                    if (ex) p.s.store_f(wlo + (k * 32 + lane) - (int64_t)kb, it[k]);
                }
            }
            if constexpr (P::WITH_COUNTS) {
                if (ex) p.pre[wlo + k * 32 + lane] = (int32_t)kb;
            }
            before += (unsigned)__popc(b);
        }
    }
    if (p.rank) nesl_store_rank<IPT>(p.rank, (lo + w * WT) >> 5, wn, keep, (unsigned)pre + wbefore, lane);
    if (lo + n_in == n && t == 0) {
        *p.total = pre + (long long)ktile;
        if (P::WITH_COUNTS) p.pre[n] = (int32_t)(pre + ktile);
    }
#ifdef NESL_SCAN_PROF
    NESL_PROF_TILE(tile, g0, c0, c1, c2, c3);
#endif
}

/* Barrier id among n threads (a multiple of 32; 0 is __syncthreads'),
 * not .aligned: the warp-specialized kernel's warps reach its barriers
 * at different places, and a warp's threads need not arrive together
 * (thread 0 has just written a shared variable in a branch).  bar.sync
 * is barrier.sync.aligned, which requires both; synccheck reported
 * "divergent threads" for it. */
static __device__ __forceinline__ void nesl_bar_sync(int id, int n) { asm volatile("barrier.sync %0, %1;" : : "r"(id), "r"(n) : "memory"); }

/* FILTER, warp-specialized: nesl_k_filter leaves its loading warps idle
 * while warp 0 waits in the look-back (most of a tile's life,
 * scan_notes.md).  Here a persistent block has SB loading threads (the
 * tile's shape) and one more warp for the look-back.  Round i: the
 * loading warps load tile i, exchange their kept counts (barrier 1,
 * loading warps only), publish the tile's aggregate at once (no
 * aggregate waits for a look-back, so no tile waits for a predecessor's
 * block), take the next tile from a counter (tiles are taken in the
 * order they are loaded) and stage tile i in shared memory (as
 * nesl_k_filter; two buffers), while the look-back warp finds tile i-1's
 * prefix.  Then barrier 2 of the whole block: after it the look-back
 * warp starts on tile i, and the loading warps store tile i-1 and load
 * tile i+1.  Every shared variable is written before a barrier and read
 * after it; s_w, s_st, s_tl and s_pre alternate by round.  Every shared
 * variable the look-back warp reads is written before a barrier 1, also
 * in the last round, which has no tile: thread 0's writes made between
 * barriers 1 and 2, or before barrier 2 in a round without barrier 1,
 * were reported by racecheck as hazards against the look-back warp's
 * reads although barrier 2 orders them (compute-sanitizer on the H100,
 * driver 580.159.04; the shapes below: 0 hazards).  Speed depends on
 * the shape (scan_notes.md; int32 at 2^28): 0.678 ms with thread 0's
 * s_tl written before the round's `if (has)` and barrier 1 after it;
 * 0.634-0.638 with s_tl written inside the `if`; 0.598-0.620 with
 * barrier 1 inside it too (and a second barrier 1 for the last round),
 * which one-word items get.  ptxas cannot build that shape for wider
 * items ("register allocation failed with register count of 7", nvcc
 * 13.0, sm_90), so they get the second.  (One
 * __syncthreads() per round with no barrier 1, the kept counts added by
 * shared atomics, was slower: 0.73 ms.) */
template <class T> using NeslFilterWsShape = NeslShape<T, NESL_FILTER_SB, NESL_FILTER_WS_WORDS, NESL_FILTER_WS_MINB>;

template <class P> __global__ void __launch_bounds__(NESL_FILTER_SB + 32, NeslFilterWsShape<typename P::Item>::MINB) nesl_k_filter_ws(P p, int64_t n, int ntiles, NeslScanSt<P> st)
{
    NESL_PDL_WAIT();
    typedef typename P::Item Item;
    typedef NeslFilterWsShape<Item> S;
    enum { IPT = S::IPT, TILE = S::TILE, NW = S::NW, WT = 32 * S::IPT, SB = S::SB, ALL = S::SB + 32 };
    static_assert(!P::PARTITION && !P::WITH_COUNTS, "FILTER only");
    __shared__ unsigned s_w[2][NW];    /* tile i's warp kept counts */
    __shared__ Item s_st[2][TILE];     /* staged tiles i, i-1: their kept items */
    __shared__ int s_tile, s_tl[2];    /* the next tile; tile i for the look-back warp (-1: no more) */
    __shared__ unsigned s_pre[2];      /* tile i's prefix */
    __shared__ uint64_t s_rw[2][TILE / 32];   /* tile i's rank words, counts from the tile's start (p.rank) */
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    const unsigned last = (unsigned)ntiles + gridDim.x - 1;   /* a ticket a tile, and one a block that ends it */
    if (t == 0) s_tile = (int)nesl_ticket(st.counter, last);
    __syncthreads();
    if (w == NW) {   /* the look-back warp: tile i between barriers 2 of rounds i and i+1 */
        for (int i = 0;; i++) {
            nesl_bar_sync(2, ALL);
            int tile = s_tl[i & 1];
            if (tile < 0) return;
            unsigned kt = 0;
            for (int j = 0; j < NW; j++) kt += s_w[i & 1][j];
            NeslOpt<unsigned> pre = nesl_look_back(p, st, tile, kt, [] {}, false, NESL_FILTER_WS_DELAY);
            if (lane == 0) s_pre[i & 1] = pre.v;   /* pre.ok: FILTER's init exists */
        }
    }
    unsigned below = (1u << lane) - 1u;
    int ptile = 0, pkt = 0, pn = 0;   /* tile i-1, its kept count and its elements */
    for (int i = 0;; i++) {
        int tile = s_tile;
        bool has = tile < ntiles;
        int64_t lo = (int64_t)tile * TILE;
        int n_in = has ? (int)(n - lo < TILE ? n - lo : TILE) : 0, wn = n_in - w * WT;
        Item it[IPT];
        unsigned keep = 0, wbefore = 0, ktile = 0;
        auto load = [&] {
            if (t == 0) s_tl[i & 1] = tile;
            unsigned wc = nesl_filter_load_warp(p, lo + w * WT, wn, lane, it, keep);
            if (lane == 0) s_w[i & 1][w] = wc;
        };
        auto stage = [&] {
            for (int j = 0; j < w; j++) wbefore += s_w[i & 1][j];
            ktile = wbefore;
            for (int j = w; j < NW; j++) ktile += s_w[i & 1][j];
            if (t == 0) {
                st.publish(tile == 0 ? 2 : 1, tile, ktile);   /* tile 0: inclusive (init 0) */
                s_tile = (int)nesl_ticket(st.counter, last);
            }
            /* stage (the buffer's tile i-2 was stored before barrier 1) */
            nesl_stage_kept(keep, it, wbefore, below, s_st[i & 1]);
            if (p.rank) {
                uint64_t rw = nesl_rank_word<IPT>(keep, wbefore, lane);
                if (lane < IPT) s_rw[i & 1][w * IPT + lane] = rw;
            }
        };
        /* barrier 1: s_w and s_tl written, s_tile read (see above for the two shapes) */
        if constexpr (NeslWords<Item>::n == 1) {
            if (has) {
                load();
                nesl_bar_sync(1, SB);
                stage();
            } else {
                if (t == 0) s_tl[i & 1] = -1;
                nesl_bar_sync(1, SB);
            }
        } else {
            if (has) load();
            else if (t == 0) s_tl[i & 1] = -1;
            nesl_bar_sync(1, SB);
            if (has) stage();
        }
        nesl_bar_sync(2, ALL);   /* tile i staged; tile i-1's prefix found */
        if (i > 0) {   /* store tile i-1 */
            int64_t pre = (int64_t)s_pre[(i - 1) & 1];
            nesl_store_runs<SB>(t, pre, pkt, s_st[(i - 1) & 1], [&](int64_t j, const Item &x) { p.s.store(j, x); });
            if (p.rank)
                for (int j = t; j * 32 < pn; j += SB) p.rank[(int64_t)ptile * (TILE / 32) + j] = s_rw[(i - 1) & 1][j] + ((uint64_t)pre << 32);
            if ((int64_t)ptile * TILE + TILE >= n && t == 0) *p.total = pre + (long long)pkt;   /* the last tile */
        }
        if (!has) return;
        ptile = tile;
        pkt = (int)ktile;
        pn = n_in;
    }
}

/* Launches the FILTER (or PARTITION) of n > 0 elements; the kernel writes
 * the number kept to *total.  COUNTS (the SEG_ forms): pre gets the
 * exclusive kept counts; a template argument, so that FILTER and
 * PARTITION kernels carry no code (and no registers) for them. */
template <bool PART, bool COUNTS, class S>
static void nesl_cu_filter_launch(NeslRt *rt, const S &s, int64_t n, int32_t *pre, long long *total, uint64_t *rank = NULL)
{
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    typedef NeslFilterP<S, R, PART, COUNTS> P;
    enum { TILE = P::Shape::TILE };
    int64_t ntiles = (n + TILE - 1) / TILE;
    if (ntiles > 0x7fffffffLL) nesl_fail(rt, "%s: too many elements (%lld)", PART ? "PARTITION" : "FILTER", (long long)n);
    P p = { s, nesl_cu_derr(rt), pre, total, rank };
    if constexpr (NESL_FILTER_WS && !PART && !COUNTS && NeslWords<R>::n <= NESL_FILTER_WS_WORDS) {
        typedef NeslFilterWsShape<R> WS;
        const void *k = (const void *)nesl_k_filter_ws<P>;
        int64_t wtiles = (n + WS::TILE - 1) / WS::TILE;
        int64_t grid = nesl_cu_grid_threads(rt, k, WS::SB + 32, wtiles);
        nesl_cu_launch(rt, nesl_k_filter_ws<P>, (unsigned)grid, WS::SB + 32, p, n, (int)wtiles, nesl_cu_lb_state<P>(rt, wtiles, true));
    } else {
        nesl_cu_launch(rt, nesl_k_filter<P>, (unsigned)ntiles, P::Shape::SB, p, n, nesl_cu_lb_state<P>(rt, ntiles));
    }
    nesl_cu_launched(rt, PART ? "PARTITION" : "FILTER");
}

/* Returns the number of kept elements (copied to the host).  rank: a
 * FILTER's rank words (nesl_cu_kept_rank) or NULL, here and below. */
template <bool PART, bool COUNTS = false, class S> static int64_t nesl_cu_filter(NeslRt *rt, const S &s, int64_t n, int32_t *pre, uint64_t *rank = NULL)
{
    if (COUNTS != (pre != NULL)) nesl_fail(rt, "%s: kept counts %s", PART ? "PARTITION" : "FILTER", COUNTS ? "without a vector" : "not asked for");
    if (n <= 0) {
        if (pre) {
            cudaMemset(pre, 0, sizeof(int32_t));
            nesl_cu_launched(rt, "memset");   /* its error, and queued work for the timer */
        }
        return 0;
    }
    long long *total = (long long *)nesl_cu_ret(rt, sizeof(long long)), h;
    nesl_cu_filter_launch<PART, COUNTS>(rt, s, n, pre, total, rank);
    nesl_cu_to_host(rt, &h, total, sizeof h, PART ? "a PARTITION count" : "a FILTER count");
    return h;
}

/* The same without waiting: the count is read later, nesl_cu_count (one
 * wait for a group of FILTERs launched together). */
template <bool PART, class S> static NeslCount nesl_cu_filter_later(NeslRt *rt, const S &s, int64_t n, uint64_t *rank = NULL)
{
    NeslCount c = { -1, 0 };
    if (n > 0) nesl_cu_filter_launch<PART, false>(rt, s, n, NULL, nesl_cu_count_slot(rt, &c), rank);
    return c;
}

/* The count known on the host (the flattener's kept, lcu.h): launched
 * without waiting; the kernel writes the count into a slot that the next
 * wait compares with given (nesl_cu_kept_slot), and the caller sets the
 * lengths from given meanwhile (the outputs are allocated for n, so a
 * wrong given within 0..n costs no access out of bounds before it is
 * reported).  A given outside 0..n is wrong whatever the count: the count
 * is waited for then, and reported at once. */
template <bool PART, class S> static void nesl_cu_filter_kept(NeslRt *rt, const S &s, int64_t n, int64_t given, uint64_t *rank = NULL)
{
    if (given < 0 || given > (n > 0 ? n : 0)) nesl_kept_differs(rt, PART ? "PARTITION" : "FILTER", nesl_cu_filter<PART>(rt, s, n, NULL), given);
    if (n > 0) nesl_cu_filter_launch<PART, false>(rt, s, n, NULL, nesl_cu_kept_slot(rt, PART, given), rank);
}

/* New segment lengths of SEG_FILTER / SEG_PARTITION from the exclusive
 * kept counts pre[0..total]. */
__global__ static void nesl_k_seg_lens(const int32_t *pre, const int64_t *offs, int64_t nsegs, int32_t *lt, int32_t *lf)
{
    NESL_PDL_WAIT();
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
    nesl_cu_launch(rt, nesl_k_seg_lens, (unsigned)grid, NESL_BLOCK, pre, offs, nsegs, lt, lf);
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

/* The segment of element i: the last g in [lo, hi) with o[g - base] <= i,
 * given o[lo - base] <= i < o[hi - base] (or hi the last segment + 1), so
 * a nonempty segment.  base: o holds the offsets from segment base on. */
static __device__ __forceinline__ int64_t nesl_segid_search(const int64_t *o, int64_t base, int64_t lo, int64_t hi, int64_t i)
{
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (o[mid - base] <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The last g in [lo, hi) with offs[g] <= i, given offs[lo] <= i, found by
 * a whole warp: each round its 32 lanes probe 32 evenly spaced offsets, so
 * 1e6 segments take 4 rounds of dependent loads where one thread's binary
 * search takes 20 (these two also find segment ids, nesl_cuda_sd.cuh). */
static __device__ __forceinline__ int64_t nesl_segid_search_warp(const int64_t *offs, int64_t lo, int64_t hi, int64_t i)
{
    int lane = threadIdx.x & 31;
    while (hi - lo > 32) {
        int64_t step = (hi - lo + 31) / 32;
        int64_t p = lo + step * lane;   /* lane 0: lo, where offs[lo] <= i */
        unsigned le = __ballot_sync(0xffffffffu, p < hi && offs[p] <= i);   /* a prefix of the lanes */
        lo += step * (31 - __clz(le));
        hi = lo + step < hi ? lo + step : hi;
    }
    unsigned le = __ballot_sync(0xffffffffu, lo + lane < hi && offs[lo + lane] <= i);
    return lo + (31 - __clz(le));
}

/* first[T] for T in 0..ntiles (first[ntiles] = nsegs), a thread a tile:
 * for grids of more than NESL_SEG_FIRST_INLINE tiles (NeslSegP::begin). */
__global__ static void nesl_k_seg_first(const int64_t *offs, int64_t nsegs, int64_t n, int64_t tile, int64_t ntiles, int64_t *first)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t T = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; T <= ntiles; T += stride) {
        int64_t lo = T * tile;
        first[T] = T == 0 ? 0 : lo >= n ? nsegs : nesl_segid_search(offs, 0, 0, nsegs, lo);
    }
}

#ifndef NESL_SEG_FIRST_INLINE
#define NESL_SEG_FIRST_INLINE 2048
#endif

template <class S, class R> struct NeslSegP {
    S s;
    R ident;
    NeslDErr *e;
    const int64_t *offs;
    int64_t nsegs;
    int64_t *first;   /* ntiles + 1: written by the tiles' blocks (begin) or nesl_k_seg_first */
    R *piece;   /* SEG_REDUCE: per tile, the fold of its first segment's part when that began earlier */
    bool scan;
    bool find;   /* begin finds first[] (grids up to NESL_SEG_FIRST_INLINE tiles) */
    typedef R Item;
    typedef NeslSegV<R> V;
    typedef R Wire;
    typedef NeslShape<R, NESL_SEG_SB, NESL_SEG_WORDS, NESL_SEG_MINB, NESL_SEG_WS> Shape;
    enum { FLAGS = 2 };
    /* first[tile] and first[tile + 1] (first[0] = 0, first[ntiles] =
     * nsegs), found by warps 0 and 1 of the tile's block while its loads
     * are in flight, and read by the block after a barrier; the block
     * before writes the same first[tile].  A launch of its own that found
     * them all (one thread a tile, a binary search) cost quicksort and
     * Barnes-Hut 3-5 us per segmented operation; it stays for grids of
     * more tiles, where the searches at the start of every tile made
     * SEG_SCAN of 2^28 elements in segments of 4 9% slower (H100, bench/
     * results/2026-11-26-h100-s24-ab-segfirst.txt).  first[tile] stays
     * for nesl_k_seg_pieces.  Returns whether the block finds them: it then
     * waits at a barrier before reading them (the same for every thread). */
    __device__ bool begin(int64_t tile, int64_t lo, int64_t n) const
    {
        if (!find) return false;
        int w = threadIdx.x >> 5;
        if (w < 2) {
            int64_t at = lo + (int64_t)w * Shape::TILE;   /* warp-uniform */
            int64_t g = w == 0 && tile == 0 ? 0 : at >= n ? nsegs : nesl_segid_search_warp(offs, 0, nsegs, at);
            if ((threadIdx.x & 31) == 0) first[tile + w] = g;
        }
        return true;
    }
    __device__ void mark(int64_t tile, int64_t lo, int cnt, uint8_t *head) const
    {
        for (int64_t g = first[tile] + threadIdx.x; g <= first[tile + 1]; g += Shape::SB) {
            int64_t o = offs[g];
            if (o >= lo && o < lo + cnt) head[o - lo] = 1;
        }
    }
    /* SEG_REDUCE: a full tile in which no segment begins (nor at its
     * first element): the segment holding lo reaches past the tile */
    __device__ bool plain(int64_t tile, int64_t lo, int cnt) const
    {
        if (scan || cnt != Shape::TILE) return false;
        int64_t g = first[tile];
        return offs[g] < lo && offs[g + 1] >= lo + cnt;
    }
    /* SEG_REDUCE: the segment that crosses into tile T and ends there is
     * the prefix of T (from the tile prefixes) then T's piece */
    __device__ void piece_done(const NeslOpt<V> *pre, int64_t T, int64_t n) const
    {
        int64_t lo = T * Shape::TILE, hi = lo + Shape::TILE < n ? lo + Shape::TILE : n, g = first[T];
        if (offs[g] < lo && offs[g + 1] <= hi) s.store(g, s.op(ident, s.op(pre[T].v.v, piece[T], 0, e), 0, e));
    }
    __device__ R load(int64_t i) const { return s.pull(i, e); }
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
    template <class B> __device__ void local(B &, NeslOpt<V>, int) const { }
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
        if (scan && Shape::WS) __syncwarp();   /* scan: the warp's own part; reduce: any element */
        else __syncthreads();
        if (scan) {
#pragma unroll
            for (int k = 0; k < B::IPT; k++) {
                int j = Shape::striped(k, t);
                if (j < cnt) s.store(lo + j, buf.template get<R>(j));
            }
        } else {
            for (int64_t g = first[tile] + t; g < first[tile + 1]; g += Shape::SB) {
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

/* SEG_REDUCE: the segments that cross into a tile and end there
 * (NeslSegP::piece_done), one thread a tile. */
template <class S, class R>
__global__ void nesl_k_seg_pieces(NeslSegP<S, R> p, const NeslOpt<NeslSegV<R> > *pre, int64_t n, int64_t ntiles)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t T = 1 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; T < ntiles; T += stride) p.piece_done(pre, T, n);
}

/* The same after the tile prefixes, in one block, up to NESL_BLOCK
 * tiles (a tile a thread in both steps, as in the separate launches): a
 * launch fewer a SEG_REDUCE (Barnes-Hut's sums of masses, 8 tiles at 10^4
 * bodies).  Over spmv's 2441 tiles, ten a thread one after another, the
 * one block took 0.134 -> 0.146 ms.  A first version had the main pass's
 * last block do both (a ticket a block): compiled into every SEG_ kernel,
 * its code made ptxas spill more in the tiles' loop (SEG_SCAN of segments
 * of 4 1.07 -> 1.09x its baseline) and spmv took 0.162 ms
 * (bench/RESULTS.md, session 35). */
template <class S, class R>
__global__ void nesl_k_seg_prefix_pieces(NeslSegP<S, R> p, const NeslSegV<R> *agg, NeslOpt<NeslSegV<R> > *pre, int64_t n, int64_t ntiles)
{
    NESL_PDL_WAIT();
    nesl_tile_prefix_block(p, agg, pre, ntiles);
    __syncthreads();   /* pre, written by this block */
    for (int64_t T = 1 + threadIdx.x; T < ntiles; T += blockDim.x) p.piece_done(pre, T, n);
}

/* Empty segments reduce to the identity (SEG_REDUCE of no elements). */
template <class S, class R> __global__ void nesl_k_seg_fill(S s, int64_t nsegs, R ident)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < nsegs; g += stride) s.store(g, ident);
}

/* Fold [lo, hi) in index order from acc; with SCAN, each element's place
 * gets the fold of those before it (a REDUCE's source has no store). */
template <bool SCAN, class S, class R> static __device__ __forceinline__ R nesl_seq_fold(const S &s, int64_t lo, int64_t hi, R acc, NeslDErr *e)
{
    for (int64_t i = lo; i < hi; i++) {
        R x = s.pull(i, e);
        if constexpr (SCAN) s.store(i, acc);
        acc = s.op(acc, x, i, e);
    }
    return acc;
}

/* Segment g folded or scanned by one thread, from the identity; the grid's
 * short-segment kernel and the block-local tail both use it. */
template <class S, class R>
static __device__ __forceinline__ void nesl_seg_seq_one(const S &s, int64_t g, const int64_t *offs, const R &ident, bool scan, NeslDErr *e)
{
    if (scan) nesl_seq_fold<true>(s, offs[g], offs[g + 1], ident, e);
    else s.store(g, nesl_seq_fold<false>(s, offs[g], offs[g + 1], ident, e));
}

/* Sequential segmented fold (an operator that can fail or is not known
 * associative): one thread per segment. */
template <class S, class R>
__global__ void nesl_k_seg_seq(S s, int64_t nsegs, const int64_t *offs, R ident, bool scan, NeslDErr *e)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < nsegs; g += stride) nesl_seg_seq_one(s, g, offs, ident, scan, e);
}

template <int MODE, class S, class R>
static void nesl_cu_seg_par(NeslRt *rt, const S &s, int64_t n, int64_t nsegs, const int64_t *offs, const R &ident, bool scan, NeslDErr *e,
                            const char *what)
{
    if (n <= 0) {
        if (!scan) {
            int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_fill<S, R>, (nsegs + NESL_BLOCK - 1) / NESL_BLOCK);
            nesl_cu_launch(rt, nesl_k_seg_fill<S, R>, (unsigned)grid, NESL_BLOCK, s, nsegs, ident);
            nesl_cu_launched(rt, what);
        }
        return;
    }
    enum { TILE = NeslSegP<S, R>::Shape::TILE, SB = NeslSegP<S, R>::Shape::SB };
    int64_t ntiles = (n + TILE - 1) / TILE;
    int64_t *first = (int64_t *)nesl_cu_tmp(rt, sizeof(int64_t) * (size_t)(ntiles + 1), false);
    bool find = ntiles <= NESL_SEG_FIRST_INLINE;
    if (!find) {
        int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_first, (ntiles + NESL_BLOCK) / NESL_BLOCK);
        nesl_cu_launch(rt, nesl_k_seg_first, (unsigned)grid, NESL_BLOCK, offs, nsegs, n, TILE, ntiles, first);
        nesl_cu_launched(rt, what);
    }
    NeslSegP<S, R> p = { s, ident, e, offs, nsegs, first, NULL, scan, find };
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
    nesl_cu_launch(rt, nesl_k_scan<NeslSegP<S, R> >, (unsigned)ntiles, SB, p, n, st, NESL_PH_PIECES);
    nesl_cu_launched(rt, what);
    if (ntiles < 2) return;
#ifdef NESL_SEG_NO_PIECES
    return;   /* bench/cuda/scan_variants.sh "segnp": the one pass alone (results incomplete) */
#endif
    if (ntiles <= NESL_BLOCK) {
        nesl_cu_launch(rt, nesl_k_seg_prefix_pieces<S, R>, 1, NESL_BLOCK, p, st.agg, st.pre, n, ntiles);
        nesl_cu_launched(rt, what);
        return;
    }
    nesl_cu_tile_prefix(rt, p, st.agg, st.pre, ntiles);
    int64_t grid = nesl_cu_grid(rt, (const void *)nesl_k_seg_pieces<S, R>, (ntiles + NESL_BLOCK - 1) / NESL_BLOCK);
    nesl_cu_launch(rt, nesl_k_seg_pieces<S, R>, (unsigned)grid, NESL_BLOCK, p, st.pre, n, ntiles);
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
        nesl_cu_launch(rt, nesl_k_seg_seq<S, R>, (unsigned)grid, NESL_BLOCK, s, nsegs, offs, ident, scan, e);
        nesl_cu_launched(rt, what);
    } else {
        nesl_cu_seg_par<MODE>(rt, s, n, nsegs, offs, ident, scan, e, what);
    }
}

#endif
