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

/* Length g of n (0 past the end), src.len (g, e) below n; a negative one
 * is make_sd's error. */
template <class Src> struct NeslSdLens {
    Src src;
    NeslSdScan sc;
    __device__ int64_t pull(int64_t g, NeslDErr *e) const
    {
        if (g >= sc.n) return 0;
        int32_t l = src.len(g, e);
        if (l < 0 && e) nesl_derr_rec(e, g, NESL_E_SDLEN, l, 0, 0);
        return l;
    }
    __device__ int64_t op(int64_t a, int64_t b, int64_t, NeslDErr *) const { return a + b; }
    __device__ void store(int64_t g, int64_t v) const
    {
        sc.offs[g] = v;
        if (g < sc.n) sc.offs32[g] = (int32_t)v;
        else *sc.tot = v;
    }
};

/* Up to NESL_SD_SMALL segments: one launch of one block (no look-back
 * state); most descriptors are that small, and quicksort makes a dozen
 * per recursion level. */
#define NESL_SD_SMALL_ITEMS 16
#define NESL_SD_SMALL (NESL_BLOCK * NESL_SD_SMALL_ITEMS)
template <class Src> __global__ void nesl_k_sd_small(NeslSdLens<Src> p)
{
    __shared__ int64_t warp_sum[NESL_WARPS];
    int64_t v[NESL_SD_SMALL_ITEMS], sum = 0;
    int64_t g0 = (int64_t)threadIdx.x * NESL_SD_SMALL_ITEMS;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
    for (int k = 0; k < NESL_SD_SMALL_ITEMS; k++) {
        v[k] = p.pull(g0 + k, p.sc.e);
        sum += v[k];
    }
    int64_t inc = sum;   /* the warp's inclusive scan of the threads' sums */
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int64_t y = __shfl_up_sync(0xffffffffu, inc, d);
        if (lane >= d) inc += y;
    }
    if (lane == 31) warp_sum[w] = inc;
    __syncthreads();
    int64_t pre = inc - sum, total = 0;
    for (int k = 0; k < NESL_WARPS; k++) {
        if (k < w) pre += warp_sum[k];
        total += warp_sum[k];
    }
#pragma unroll
    for (int k = 0; k < NESL_SD_SMALL_ITEMS; k++) {
        if (g0 + k < p.sc.n) p.store(g0 + k, pre);
        pre += v[k];
    }
    if (threadIdx.x == 0) p.store(p.sc.n, total);
}

/* More segments: the SCAN skeleton's one pass over n + 1 lengths (the last
 * 0, so offs[n] is the total). */
template <class Src> static void nesl_cu_sd_scan(NeslRt *rt, const Src &src, const NeslSdScan &sc)
{
    NeslSdLens<Src> p = { src, sc };
    if (sc.n <= NESL_SD_SMALL) {
        nesl_k_sd_small<Src><<<1, NESL_BLOCK>>>(p);
        nesl_cu_launched(rt, "segment offsets");
        return;
    }
    size_t mark = nesl_mark(rt);
    NeslScanP<NeslSdLens<Src>, int64_t> sp = { p, 0, sc.e };
    nesl_cu_scan_run<NESL_PAR>(rt, sp, sc.n + 1, "segment offsets");
    nesl_release(rt, mark, 0);
}

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

/* ---- segment ids: element i's segment, the last g with offs[g] <= i ---- */
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

/* The same search by a whole warp: each round its 32 lanes probe 32 evenly
 * spaced offsets, so 1e6 segments take 4 rounds of dependent loads where
 * one thread's binary search takes 20. */
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

/* The ids of NESL_SEGID_RUN consecutive elements from i0 (a multiple of
 * NESL_SEGID_RUN), the first in segment g: one load per element that stays
 * in its segment, two when it moves to the next one (short segments:
 * spmv's rows, quicksort's partitions), a search from there past that. */
#define NESL_SEGID_RUN 8   /* two int4 stores (nesl_k_seg_tiles) */
static __device__ __forceinline__ void nesl_segid_run(const int64_t *o, int64_t base, int64_t hi, int64_t g, int64_t i0, int32_t *v)
{
#pragma unroll
    for (int k = 0; k < NESL_SEGID_RUN; k++) {
        if (k > 0 && g + 1 < hi && o[g + 1 - base] <= i0 + k) {
            g++;
            if (g + 1 < hi && o[g + 1 - base] <= i0 + k) g = nesl_segid_search(o, base, g + 1, hi, i0 + k);
        }
        v[k] = (int32_t)g;
    }
}

/* A block takes a tile of NESL_SEGID_TILE elements: two searches over all
 * the offsets find its first and last segment, and when those segments'
 * offsets fit in shared memory, every thread searches them there, for a
 * run of NESL_SEGID_RUN elements; body.tile (t0, m, ids) then gets the
 * ids of the tile's m elements from t0 in shared memory, to use with
 * consecutive threads on consecutive elements (an element per thread in
 * turn: the body's loads and stores coalesce, where a run per thread made
 * quicksort's MAPs of 10^7 elements 14% slower).  A search per thread over
 * all the offsets cost quicksort's descriptors (up to n/2 segments, ~19
 * dependent global loads each) 13 us a launch on the H100; mandelbrot's
 * 4e6 elements in 2000 segments took 51 us with a search per element, 14
 * with a search per run. */
#define NESL_SEGID_TILE (NESL_BLOCK * NESL_SEGID_RUN)
template <class B> __global__ void nesl_k_seg_tiles(const int64_t *offs, int64_t nsegs, int64_t total, B body)
{
    __shared__ int64_t so[NESL_SEGID_TILE];
    __shared__ __align__(16) int32_t sid[NESL_SEGID_TILE];
    __shared__ int64_t gs, ge;
    for (int64_t t0 = (int64_t)blockIdx.x * NESL_SEGID_TILE; t0 < total; t0 += (int64_t)gridDim.x * NESL_SEGID_TILE) {
        int64_t t1 = (t0 + NESL_SEGID_TILE < total ? t0 + NESL_SEGID_TILE : total) - 1;
        int w = threadIdx.x >> 5;
        if (w < 2) {   /* two warps in parallel */
            int64_t g = nesl_segid_search_warp(offs, 0, nsegs, w == 0 ? t0 : t1);
            if ((threadIdx.x & 31) == 0) *(w == 0 ? &gs : &ge) = g;
        }
        __syncthreads();
        int64_t a = gs, b = ge + 1, m = b - a;   /* the tile's segments: [a, b) */
        bool shared = m <= NESL_SEGID_TILE;   /* else many empty segments: search the offsets in global memory */
        if (shared)
            for (int64_t k = threadIdx.x; k < m; k += blockDim.x) so[k] = offs[a + k];
        __syncthreads();
        int64_t i0 = t0 + (int64_t)threadIdx.x * NESL_SEGID_RUN;
        if (i0 <= t1) {
            const int64_t *o = shared ? so : offs;
            int64_t base = shared ? a : 0;
            int32_t v[NESL_SEGID_RUN];
            nesl_segid_run(o, base, b, nesl_segid_search(o, base, a, b, i0), i0, v);
            int4 *d = (int4 *)(sid + threadIdx.x * NESL_SEGID_RUN);   /* two 16-byte stores, not 8 conflicting ones */
            d[0] = make_int4(v[0], v[1], v[2], v[3]);
            d[1] = make_int4(v[4], v[5], v[6], v[7]);
        }
        __syncthreads();
        body.tile(t0, (int)(t1 - t0 + 1), sid);
        __syncthreads();   /* so, sid, gs and ge are the next tile's */
    }
}

NESL_C_BEGIN
/* How s's segment ids are found: *ulen > 0 where every segment has that
 * length (dist_sd: the id is i / ulen), else from the offsets (*offs, of
 * *nsegs segments).  The total number of elements is returned. */
int64_t nesl_sd_seg_plan(NeslRt *rt, NeslSd *s, const int64_t **offs, int64_t *nsegs, int32_t *ulen);
NESL_C_END

/* A MAP whose thunk reads segids (s) at its index (gen_kernel_ids): the
 * functor's pull (i, g, e) gets element i's segment g, found per tile as
 * the segment ids are (nesl_k_seg_tiles), so they are never stored. */
template <class F> struct NeslMapSegRun {
    F f;
    NeslDErr *e;
    __device__ void tile(int64_t t0, int m, const int32_t *sid) const
    {
        for (int j = threadIdx.x; j < m; j += NESL_BLOCK) f.store(t0 + j, f.pull(t0 + j, sid[j], e));
    }
};

template <class F> __global__ void nesl_k_map_seg_uniform(F f, int64_t n, int32_t l, NeslDErr *e)
{
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
        nesl_k_map_seg_uniform<F><<<(unsigned)nesl_cu_grid(rt, k, (n + NESL_BLOCK - 1) / NESL_BLOCK), NESL_BLOCK>>>(f, n, l, e);
    } else {
        const void *k = (const void *)nesl_k_seg_tiles<NeslMapSegRun<F>>;
        nesl_k_seg_tiles<NeslMapSegRun<F>><<<(unsigned)nesl_cu_grid(rt, k, (n + NESL_SEGID_TILE - 1) / NESL_SEGID_TILE), NESL_BLOCK>>>(
            offs, nsegs, n, NeslMapSegRun<F>{ f, e });
    }
    nesl_cu_launched(rt, "MAP");
}

#endif
