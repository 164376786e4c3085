/* rt_cuda_rank.cu — the rank library kernels of the CUDA runtime
 * (rt_cuda_impl.h). */
#include "rt_cuda_impl.h"

/* ---- ranks: stable radix sorts (CUB).  Float keys: NaNs made one
 * positive NaN and -0.0 made +0.0 first, so that they compare as in the
 * interpreter (NaN above every number, all NaNs equal, -0.0 == 0.0).
 * Segmented: a second stable sort by segment id. ---- */
__global__ static void k_iota(int64_t n, int32_t *idx)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) idx[i] = (int32_t)i;
}

/* K: double, or float (-ffloat32); qnan: the one positive quiet NaN of K. */
template <class K> __global__ static void k_canon(const K *x, int64_t n, K *y, K qnan)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        K v = x[i];
        y[i] = isnan(v) ? qnan : v == (K)0 ? (K)0 : v;
    }
}

__global__ static void k_gather_ids(const int32_t *ids, const int32_t *idx, int64_t n, int32_t *out)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = ids[idx[i]];
}

__global__ static void k_ranks(const int32_t *idx, const int32_t *ids, const int64_t *offs, int64_t n, int32_t *rank)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
        rank[idx[k]] = (int32_t)(ids ? k - offs[ids[idx[k]]] : k);
}

template <class K> static void sort_pairs(NeslRt *rt, bool down, const K *kin, K *kout, const int32_t *vin, int32_t *vout, int64_t n)
{
    size_t bytes = 0;
    if (down) cub::DeviceRadixSort::SortPairsDescending(NULL, bytes, kin, kout, vin, vout, (int)n);
    else cub::DeviceRadixSort::SortPairs(NULL, bytes, kin, kout, vin, vout, (int)n);
    void *tmp = nesl_cu_tmp(rt, bytes, false);
    if (down) cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, kin, kout, vin, vout, (int)n);
    else cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, vin, vout, (int)n);
    nesl_cu_launched(rt, "rank");
}

NeslVec *nesl_rank(NeslRt *rt, NeslSd *sd, const NeslVec *v, bool down)
{
    if (sd && nesl_sd_total(rt, sd) != v->len)
        nesl_fail(rt, "seg_rank: the segment descriptor covers %lld elements but the vector has %lld",
                  (long long)nesl_sd_total(rt, sd), (long long)v->len);
    int64_t n = v->len;
    NeslVec *r = nesl_vec_new(rt, NESL_INT, n);
    if (n == 0) return r;
    size_t mark = nesl_mark(rt);
    int32_t *idx = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
    int32_t *idx2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
    unsigned grid = (unsigned)cu_grid_for(rt, (const void *)k_iota, n);
    nesl_cu_launch(rt, k_iota, grid, NESL_BLOCK, n, idx);
    if (v->base == NESL_FLOAT) {
        double *k = (double *)nesl_cu_tmp(rt, sizeof(double) * (size_t)n, false);
        double *k2 = (double *)nesl_cu_tmp(rt, sizeof(double) * (size_t)n, false);
        nesl_cu_launch(rt, k_canon<double>, grid, NESL_BLOCK, (const double *)v->data, n, k, (double)NAN);
        sort_pairs<double>(rt, down, k, k2, idx, idx2, n);
    } else if (v->base == NESL_F32) {
        float *k = (float *)nesl_cu_tmp(rt, sizeof(float) * (size_t)n, false);
        float *k2 = (float *)nesl_cu_tmp(rt, sizeof(float) * (size_t)n, false);
        nesl_cu_launch(rt, k_canon<float>, grid, NESL_BLOCK, (const float *)v->data, n, k, NAN);
        sort_pairs<float>(rt, down, k, k2, idx, idx2, n);
    } else {
        int32_t *k2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        sort_pairs<int32_t>(rt, down, (const int32_t *)v->data, k2, idx, idx2, n);
    }
    const int32_t *ids = NULL;
    const int64_t *offs = NULL;
    int32_t *fin = idx2;
    if (sd) {
        ids = nesl_sd_segids(rt, sd);
        offs = nesl_sd_offs(rt, sd);
        int32_t *g = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        int32_t *g2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        nesl_cu_launch(rt, k_gather_ids, grid, NESL_BLOCK, ids, idx2, n, g);
        sort_pairs<int32_t>(rt, false, g, g2, idx2, idx, n);
        fin = idx;
    }
    nesl_cu_launch(rt, k_ranks, grid, NESL_BLOCK, fin, ids, offs, n, (int32_t *)r->data);
    nesl_cu_launched(rt, "rank");
    nesl_release(rt, mark, 0);
    return r;
}

