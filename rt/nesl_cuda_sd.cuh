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

#endif
