/* nesl_cuda_sd.cuh — make_sd's scan, shared by the runtime (rt_cuda_sd.cu:
 * the lengths of a vector) and generated code (the lengths a MAP computes
 * as the scan pulls them, so make_sd of a MAP's result is one launch:
 * doc/codegen.md, "Descriptors of a MAP").  Included by nesl_cuda.cuh. */
#ifndef NESL_CUDA_SD_CUH
#define NESL_CUDA_SD_CUH

/* What the scan of n lengths writes: the offsets (int64, n + 1 of them, the
 * last the total), the offsets as the ints an offsets vector holds, the
 * total's slot (read at the next wait), and the error record for negative
 * lengths (NULL where they were checked before). */
typedef struct NeslSdScan {
    int64_t n;
    int64_t *offs;
    int32_t *offs32;
    int64_t *tot;
    NeslDErr *e;
} NeslSdScan;

NESL_C_BEGIN
/* make_sd (lens[, total]) whose scan the caller launches (nesl_cu_sd_scan):
 * open makes the descriptor (lens's block is its lengths) and fills sc;
 * close ends the launch group and sets the total given (< 0: none). */
NeslSd *nesl_make_sd_open(NeslRt *rt, const NeslVec *lens, NeslSdScan *sc);
void nesl_make_sd_close(NeslRt *rt, NeslSd *s, int64_t total);
NESL_C_END

/* A segment's length l, at iteration it: a negative one is make_sd's
 * error (e NULL: the lengths were checked before). */
static __device__ __forceinline__ int32_t nesl_sd_len_ck(int32_t l, int64_t it, NeslDErr *e)
{
    if (l < 0 && e) nesl_derr_rec(e, it, NESL_E_SDLEN, l, 0, 0);
    return l;
}

/* The exclusive prefix v of segment g into sc's outputs (g = n: the total). */
static __device__ __forceinline__ void nesl_sd_store(const NeslSdScan &sc, int64_t g, int64_t v)
{
    sc.offs[g] = v;
    if (g < sc.n) sc.offs32[g] = (int32_t)v;
    else *sc.tot = v;
}

/* Length g of n (0 past the end), src.len (g, e) below n.  The scans
 * below take any P with this interface: V pull (g, e), V op (a, b, it,
 * e), store (g, v) of the exclusive prefix (of the total at g = n), n ()
 * and derr () (NeslSdGroup scans several descriptors' lengths at once). */
template <class Src> struct NeslSdLens {
    Src src;
    NeslSdScan sc;
    __device__ int64_t pull(int64_t g, NeslDErr *e) const { return g < sc.n ? nesl_sd_len_ck(src.len(g, e), g, e) : 0; }
    __device__ int64_t op(int64_t a, int64_t b, int64_t, NeslDErr *) const { return a + b; }
    __device__ void store(int64_t g, int64_t v) const { nesl_sd_store(sc, g, v); }
    __host__ __device__ int64_t n() const { return sc.n; }
    __host__ __device__ NeslDErr *derr() const { return sc.e; }
};

/* Up to 256 * NeslSdSmall<V>::ITEMS segments (4096 for one descriptor):
 * one launch of one block (no look-back state); most descriptors are that
 * small, and quicksort makes a dozen per recursion level.  The lengths
 * are pulled striped (thread t takes g = k * 256 + t: the loads coalesce)
 * into shared memory, each thread scans its ITEMS consecutive ones from
 * there, and the offsets go back the same way.  Pulling a thread's
 * consecutive lengths from global memory took 4.5 us a launch (median,
 * quicksort 10^6, H100), three descriptors' at once 8.5; loads striped
 * over a warp, scanned in 16 rounds of shuffles, 5.5 (the rounds chain).
 * A pad slot after every 16 keeps a thread's consecutive slots in
 * different banks.  ITEMS: as many as 48 KB of static shared memory
 * holds, at most 16. */
template <class V> struct NeslSdSmall {
    enum {
        FIT = 49152 / (sizeof(V) * (NESL_BLOCK + NESL_BLOCK / 16)),
        ITEMS = FIT < 16 ? FIT : 16,
        N = NESL_BLOCK * ITEMS,
        SLOTS = N + N / 16
    };
    static __device__ __forceinline__ int slot(int g) { return g + (g >> 4); }
};

template <class P> __global__ void nesl_k_sd_small(P p)
{
    NESL_PDL_WAIT();
    typedef decltype(p.pull(0, 0)) V;
    typedef NeslSdSmall<V> S;
    __shared__ V buf[S::SLOTS];
    __shared__ V warp_sum[NESL_WARPS];
    int64_t n = p.n();
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
#pragma unroll
    for (int k = 0; k < S::ITEMS; k++) buf[S::slot(k * NESL_BLOCK + t)] = p.pull(k * NESL_BLOCK + t, p.derr());
    __syncthreads();
    V v[S::ITEMS], sum = V();
#pragma unroll
    for (int k = 0; k < S::ITEMS; k++) {
        v[k] = buf[S::slot(t * S::ITEMS + k)];
        sum = p.op(sum, v[k], 0, 0);
    }
    V inc = sum;   /* the warp's inclusive scan of the threads' sums */
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        V y = nesl_shfl(inc, d, 1);
        if (lane >= d) inc = p.op(y, inc, 0, 0);
    }
    if (lane == 31) warp_sum[w] = inc;
    V pre = nesl_shfl(inc, 1, 1), total = V();
    if (lane == 0) pre = V();
    __syncthreads();   /* warp_sum written, buf read */
    for (int k = 0; k < NESL_WARPS; k++) {
        if (k < w) pre = p.op(warp_sum[k], pre, 0, 0);
        total = p.op(total, warp_sum[k], 0, 0);
    }
#pragma unroll
    for (int k = 0; k < S::ITEMS; k++) {
        buf[S::slot(t * S::ITEMS + k)] = pre;
        pre = p.op(pre, v[k], 0, 0);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < S::ITEMS; k++)
        if (k * NESL_BLOCK + t < n) p.store(k * NESL_BLOCK + t, buf[S::slot(k * NESL_BLOCK + t)]);
    if (t == 0) p.store(n, total);
}

/* The offsets of p's n segments; more than one block's: the SCAN
 * skeleton's one pass over n + 1 lengths (the last 0, so offs[n] is the
 * total). */
template <class P> static void nesl_cu_sd_scan_p(NeslRt *rt, const P &p)
{
    typedef decltype(p.pull(0, 0)) V;
    if (p.n() <= NeslSdSmall<V>::N) {
        nesl_cu_launch(rt, nesl_k_sd_small<P>, 1, NESL_BLOCK, p);
        nesl_cu_launched(rt, "segment offsets");
        return;
    }
    size_t mark = nesl_mark(rt);
    NeslScanP<P, V> sp = { p, V(), p.derr() };
    nesl_cu_scan_run<NESL_PAR>(rt, sp, p.n() + 1, "segment offsets");
    nesl_release(rt, mark, 0);
}

template <class Src> static void nesl_cu_sd_scan(NeslRt *rt, const Src &src, const NeslSdScan &sc)
{
    nesl_cu_sd_scan_p(rt, NeslSdLens<Src>{ src, sc });
}

/* K descriptors' lengths, vectors of one length n, scanned together
 * (nesl_make_sd_group): a launch where there were K.  Descriptor j's
 * errors come after descriptor j - 1's (iteration j * (n + 1) + g), as
 * they did from K launches. */
template <int K> struct NeslSdV {
    int64_t t[K];
};
template <int K> struct NeslSdGroup {
    const int32_t *lens[K];
    NeslSdScan sc[K];
    __device__ NeslSdV<K> pull(int64_t g, NeslDErr *e) const
    {
        NeslSdV<K> r;
#pragma unroll
        for (int j = 0; j < K; j++) r.t[j] = g < sc[0].n ? nesl_sd_len_ck(lens[j][g], j * (sc[0].n + 1) + g, e) : 0;
        return r;
    }
    __device__ NeslSdV<K> op(const NeslSdV<K> &a, const NeslSdV<K> &b, int64_t, NeslDErr *) const
    {
        NeslSdV<K> r;
#pragma unroll
        for (int j = 0; j < K; j++) r.t[j] = a.t[j] + b.t[j];
        return r;
    }
    __device__ void store(int64_t g, const NeslSdV<K> &v) const
    {
#pragma unroll
        for (int j = 0; j < K; j++) nesl_sd_store(sc[j], g, v.t[j]);
    }
    __host__ __device__ int64_t n() const { return sc[0].n; }
    __host__ __device__ NeslDErr *derr() const { return sc[0].e; }
};
#define NESL_SD_GROUP_MAX 4

NESL_C_BEGIN
/* make_sd (lens[j], totals[j]) for j < k (totals[j] < 0: none) into
 * out[j], in order: consecutive ones whose lengths vectors have the same
 * length (up to NESL_SD_GROUP_MAX) share a scan. */
void nesl_make_sd_group(NeslRt *rt, int k, const NeslVec *const *lens, const int64_t *totals, NeslSd **out);
/* filter_sd (s, kept[j]) for j < k <= NESL_SD_GROUP_MAX into out[j]: one
 * launch (quicksort's three filters of one descriptor a level). */
void nesl_filter_sd_group(NeslRt *rt, NeslSd *s, int k, const NeslVec *const *kept, NeslSd **out);
/* The same, and zip_sd (out[za], out[zb]) into *zip, in the same launch
 * where the rank words give the offsets (quicksort's lifted [lesser,
 * greater] a level). */
void nesl_filter_sd_group_zip(NeslRt *rt, NeslSd *s, int k, const NeslVec *const *kept, NeslSd **out, int za, int zb, NeslSd **zip);
/* s1 = sum_sd (a, b) and s2 = sum_sd (s1, c) in one launch (a lifted
 * a ++ b ++ c: quicksort's lesser ++ equal ++ greater a level). */
void nesl_sum_sd2(NeslRt *rt, NeslSd *a, NeslSd *b, NeslSd *c, NeslSd **s1, NeslSd **s2);
NESL_C_END

/* The lengths of a vector. */
struct NeslSdVecLens {
    const int32_t *lens;
    __device__ int32_t len(int64_t g, NeslDErr *) const { return lens[g]; }
};

/* make_sd (v[, total]) of v, a result of MAP f (n): f's len (g, e) stores
 * element g of every result and returns its length; lens is v. */
template <class F> static NeslSd *nesl_cu_map_sd(NeslRt *rt, const F &f, const NeslVec *lens, int64_t total)
{
    NeslSdScan sc;
    NeslSd *s = nesl_make_sd_open(rt, lens, &sc);
    nesl_cu_sd_scan(rt, f, sc);
    nesl_make_sd_close(rt, s, total);
    return s;
}

/* ---- segment ids: element i's segment, the last g with offs[g] <= i
 * (nesl_segid_search, nesl_segid_search_warp: nesl_cuda_scan.cuh) ---- */

/* The ids of RUN consecutive elements from i0 (a multiple of RUN), the
 * first in segment g: one load per element that stays in its segment,
 * two when it moves to the next one (short segments: spmv's rows,
 * quicksort's partitions), a search from there past that. */
template <int RUN>
static __device__ __forceinline__ void nesl_segid_run(const int64_t *o, int64_t base, int64_t hi, int64_t g, int64_t i0, int32_t *v)
{
#pragma unroll
    for (int k = 0; k < RUN; k++) {
        if (k > 0 && g + 1 < hi && o[g + 1 - base] <= i0 + k) {
            g++;
            if (g + 1 < hi && o[g + 1 - base] <= i0 + k) g = nesl_segid_search(o, base, g + 1, hi, i0 + k);
        }
        v[k] = (int32_t)g;
    }
}

/* The offsets a tile copies to shared memory (more segments: each thread
 * writes whole segments' ids).  Room for a whole tile's (16 KB a block at
 * runs of 8) left the L1 cache little of the SM for the segments' values
 * the body reads: H100, quicksort 10^7's kernels 15.17 -> 14.38 ms at 256,
 * 14.16 at 128 (bench/RESULTS.md, session 35). */
#ifndef NESL_SEG_TILE_OFFS
#define NESL_SEG_TILE_OFFS 128
#endif

/* A block takes a tile of NESL_BLOCK * RUN elements: two searches over
 * all the offsets find its first and last segment, and when those
 * segments' offsets fit in shared memory (NESL_SEG_TILE_OFFS), every
 * thread searches them there, for a run of RUN elements; body.tile (t0,
 * m, ids) then gets the ids of the tile's m elements from t0 in shared
 * memory, to use with
 * consecutive threads on consecutive elements (an element per thread in
 * turn: the body's loads and stores coalesce, where a run per thread made
 * quicksort's MAPs of 10^7 elements 14% slower).  A search per thread over
 * all the offsets cost quicksort's descriptors (up to n/2 segments, ~19
 * dependent global loads each) 13 us a launch on the H100; mandelbrot's
 * 4e6 elements in 2000 segments took 51 us with a search per element, 14
 * with a search per run.  RUN (a multiple of 4, for int4 stores of the
 * ids): nesl_seg_tiles_launch. */
template <class B, int RUN> __global__ void nesl_k_seg_tiles(const int64_t *offs, int64_t nsegs, int64_t total, B body)
{
    NESL_PDL_WAIT();
    static_assert(RUN > 0 && RUN % 4 == 0, "segment ids are stored as int4s");
    enum { TILE = NESL_BLOCK * RUN, OFFS = NESL_SEG_TILE_OFFS < TILE ? NESL_SEG_TILE_OFFS : TILE };
    __shared__ int64_t so[OFFS];
    __shared__ __align__(16) int32_t sid[TILE];
    __shared__ int64_t gs, ge;
    for (int64_t t0 = (int64_t)blockIdx.x * TILE; t0 < total; t0 += (int64_t)gridDim.x * TILE) {
        int64_t t1 = (t0 + TILE < total ? t0 + TILE : total) - 1;
        int w = threadIdx.x >> 5;
        if (w < 2) {   /* two warps in parallel */
            int64_t g = nesl_segid_search_warp(offs, 0, nsegs, w == 0 ? t0 : t1);
            if ((threadIdx.x & 31) == 0) *(w == 0 ? &gs : &ge) = g;
        }
        __syncthreads();
        int64_t a = gs, b = ge + 1, m = b - a;   /* the tile's segments: [a, b) */
        bool shared = m <= OFFS;   /* else many short or empty segments */
        if (shared)
            for (int64_t k = threadIdx.x; k < m; k += blockDim.x) so[k] = offs[a + k];
        __syncthreads();
        int64_t i0 = t0 + (int64_t)threadIdx.x * RUN;
        if (shared && i0 <= t1) {
            int32_t v[RUN];
            nesl_segid_run<RUN>(so, a, b, nesl_segid_search(so, a, a, b, i0), i0, v);
            int4 *d = (int4 *)(sid + threadIdx.x * RUN);   /* 16-byte stores, not 4 conflicting ones each */
#pragma unroll
            for (int k = 0; k < RUN / 4; k++) d[k] = make_int4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
        } else if (!shared) {
            /* Each thread takes segments in turn and writes its id where it
             * meets the tile.  Only segments [a, b) meet it, and only a can
             * start before t0.  A search per element in global memory took
             * quicksort's gathers of finished segments (lengths 0 and 1, ten
             * times more segments than elements) 27-29 us a launch. */
#pragma unroll 4
            for (int64_t g = a + threadIdx.x; g < b; g += blockDim.x) {
                int64_t lo = offs[g], hi = offs[g + 1];   /* offs[nsegs] is the total */
                for (int64_t i = lo < t0 ? t0 : lo; i < hi && i <= t1; i++) sid[i - t0] = (int32_t)g;
            }
        }
        __syncthreads();
        body.template tile<RUN>(t0, (int)(t1 - t0 + 1), sid);
        __syncthreads();   /* so, sid, gs and ge are the next tile's */
    }
}

/* Launches body over the total elements of the segments offs[0..nsegs)
 * in tiles (nesl_k_seg_tiles) of NESL_BLOCK * RUN elements, RUN 4 or 8:
 * 4 where those tiles fit the GPU in one wave of resident blocks, else
 * 8.  A launch of up to a wave is latency-bound (each block's tile is a
 * chain of dependent loads: the searches, the offsets, the body's pulls),
 * and twice the blocks of half the elements keep twice the warps busy;
 * with more tiles than a wave, 8 an element's thread amortizes the
 * searches over more elements.  H100, kernel time (ncu): 4 everywhere
 * against 8 took quicksort 10^6's MAPs by segment 2172 -> 1752 us a run
 * and Barnes-Hut 10^4's 554 -> 414, but spmv's one MAP of 10^7 elements
 * 38 -> 48 us (bench/RESULTS.md, session 31). */
template <class B> static void nesl_seg_tiles_launch(NeslRt *rt, const char *what, const int64_t *offs, int64_t nsegs, int64_t total, const B &body)
{
    const void *k4 = (const void *)nesl_k_seg_tiles<B, 4>;
    int64_t tiles4 = (total + 4 * NESL_BLOCK - 1) / (4 * NESL_BLOCK), grid4 = nesl_cu_grid(rt, k4, tiles4);
    if (tiles4 <= grid4) {
        nesl_cu_launch(rt, nesl_k_seg_tiles<B, 4>, (unsigned)grid4, NESL_BLOCK, offs, nsegs, total, body);
    } else {
        const void *k8 = (const void *)nesl_k_seg_tiles<B, 8>;
        nesl_cu_launch(rt, nesl_k_seg_tiles<B, 8>, (unsigned)nesl_cu_grid(rt, k8, (total + 8 * NESL_BLOCK - 1) / (8 * NESL_BLOCK)), NESL_BLOCK, offs,
                       nsegs, total, body);
    }
    nesl_cu_launched(rt, what);
}

NESL_C_BEGIN
/* How s's segment ids are found: *ulen > 0 where every segment has that
 * length (dist_sd: the id is i / ulen), else from the offsets (*offs, of
 * *nsegs segments).  The total number of elements is returned. */
int64_t nesl_sd_seg_plan(NeslRt *rt, NeslSd *s, const int64_t **offs, int64_t *nsegs, int32_t *ulen);
NESL_C_END

/* A MAP whose thunk reads segids (s) at its index (gen_kernel_ids): the
 * functor's pull (i, g, e) gets element i's segment g, found per tile as
 * the segment ids are (nesl_k_seg_tiles), so they are never stored.  As
 * in nesl_k_map, a thread pulls all RUN of its elements of a
 * full tile before it stores any: a pull is a chain of dependent loads
 * (the id, the segment's offset, the element), and a store between two
 * pulls kept the next chain from starting (it might alias); quicksort
 * 10^6's gathers by segment took 3.66 ms of GPU time against 4.05. */
template <class F> struct NeslMapSegRun {
    F f;
    NeslDErr *e;
    template <int RUN> __device__ void tile(int64_t t0, int m, const int32_t *sid) const
    {
        typedef decltype(f.pull(0, 0, e)) R;
        if (m == NESL_BLOCK * RUN) {
            R r[RUN];
            NeslDErr le = nesl_derr_local();
#pragma unroll
            for (int k = 0; k < RUN; k++) {
                int j = threadIdx.x + k * NESL_BLOCK;
                r[k] = f.pull(t0 + j, sid[j], &le);
            }
#pragma unroll
            for (int k = 0; k < RUN; k++) f.store(t0 + threadIdx.x + k * NESL_BLOCK, r[k]);
            nesl_derr_merge(e, le);
        } else {
#pragma unroll 1
            for (int j = threadIdx.x; j < m; j += NESL_BLOCK) f.store(t0 + j, f.pull(t0 + j, sid[j], e));
        }
    }
};

template <class F> __global__ void nesl_k_map_seg_uniform(F f, int64_t n, int32_t l, NeslDErr *e)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        f.store(i, f.pull(i, (int32_t)(i / l), e));
}

/* n: the MAP's size, total (s) (checked by the generated code) */
template <class F> static void nesl_cu_map_seg(NeslRt *rt, const F &f, int64_t n, NeslSd *s)
{
    const int64_t *offs;
    int64_t nsegs;
    int32_t l;
    nesl_sd_seg_plan(rt, s, &offs, &nsegs, &l);
    if (n <= 0) return;
    NeslDErr *e = nesl_cu_derr(rt);
    if (l > 0) {
        const void *k = (const void *)nesl_k_map_seg_uniform<F>;
        nesl_cu_launch(rt, nesl_k_map_seg_uniform<F>, (unsigned)nesl_cu_grid(rt, k, (n + NESL_BLOCK - 1) / NESL_BLOCK), NESL_BLOCK, f, n, l, e);
        nesl_cu_launched(rt, "MAP");
    } else {
        nesl_seg_tiles_launch(rt, "MAP", offs, nsegs, n, NeslMapSegRun<F>{ f, e });
    }
}

#endif
