// Barnes-Hut baseline: one force evaluation (tree build and walk, theta 0.5)
// of N bodies on distinct points of the 1024 x 1024 grid of the unit square,
// building on the GPU the same flat preorder quad tree as
// bench/progs/barneshut.nesl.in:
//  - Morton codes (x bit above y bit at each level: NESL's quadrant order
//    (x < h, y < h), (x < h, y >= h), (x >= h, y < h), (x >= h, y >= h)),
//    bodies sorted by code (CUB radix sort);
//  - a node is a level-L prefix group of the sorted codes whose parent group
//    holds more than one body; in preorder the nodes are ordered by (first
//    body, level), so a scan of flags over the (body, level) grid gives each
//    node's position, and a subtree's size is the flags in its range;
//  - masses and mass-weighted positions from exact int64 prefix sums;
//  - the walk: one thread per body (in Morton order), the stackless loop of
//    the NESL program over the flat tree.
#include "bench.cuh"
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

constexpr int BITS = 10;            // grid bits per coordinate
constexpr int LEVELS = BITS + 1;    // levels 0 (root) .. 10

struct Node {
    float m, cx, cy, w;
    int size;
};

__host__ __device__ inline int32_t grid_point(int32_t i)
{
    uint32_t a = ((uint32_t)i * 7919u + 13u) & 1048575u;
    uint32_t b = a ^ (a >> 10);
    return (int32_t)((b * 40503u) & 1048575u);
}

__device__ inline uint32_t morton(uint32_t gx, uint32_t gy)
{
    uint32_t code = 0;
    for (int b = BITS - 1; b >= 0; b--)
        code = (code << 2) | (((gx >> b) & 1) << 1) | ((gy >> b) & 1);
    return code;
}

__device__ inline uint32_t prefix(uint32_t code, int level) { return code >> (2 * (BITS - level)); }

// first sorted body whose level-`level` prefix exceeds p
__device__ inline int group_end(const uint32_t *codes, int n, uint32_t p, int level)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (prefix(codes[mid], level) <= p) lo = mid + 1; else hi = mid;
    }
    return lo;
}

__device__ inline int group_start(const uint32_t *codes, int n, uint32_t p, int level)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (prefix(codes[mid], level) < p) lo = mid + 1; else hi = mid;
    }
    return lo;
}

__global__ void codes_kernel(const int32_t *gxy, int n, uint32_t *codes, int32_t *ids)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        codes[i] = morton((uint32_t)gxy[i] & 1023u, (uint32_t)gxy[i] >> 10);
        ids[i] = i;
    }
}

// sums over sorted bodies (shifted by one, for an exclusive scan of n + 1)
__global__ void weights_kernel(const uint32_t *codes, const int32_t *ids, const float *mass, int n,
                               long long *sm, long long *smx, long long *smy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uint32_t c = codes[i], gx = 0, gy = 0;
        for (int b = 0; b < BITS; b++) {
            gx |= ((c >> (2 * b + 1)) & 1) << b;
            gy |= ((c >> (2 * b)) & 1) << b;
        }
        long long m = (long long)mass[ids[i]];
        sm[i] = m;
        smx[i] = m * gx;
        smy[i] = m * gy;
    } else if (i == n) {
        sm[i] = smx[i] = smy[i] = 0;
    }
}

__global__ void flags_kernel(const uint32_t *codes, int n, int *flags)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t > (int64_t)n * LEVELS)
        return;
    if (t == (int64_t)n * LEVELS) {
        flags[t] = 0;
        return;
    }
    int i = (int)(t / LEVELS), L = (int)(t % LEVELS);
    int f;
    if (L == 0) {
        f = i == 0;
    } else {
        uint32_t p = prefix(codes[i], L);
        bool starts = i == 0 || prefix(codes[i - 1], L) != p;
        uint32_t pp = prefix(codes[i], L - 1);
        f = starts && group_end(codes, n, pp, L - 1) - group_start(codes, n, pp, L - 1) > 1;
    }
    flags[t] = f;
}

__global__ void nodes_kernel(const uint32_t *codes, int n, const int *flags, const int *rank,
                             const long long *sm, const long long *smx, const long long *smy, Node *tree)
{
    int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (t >= (int64_t)n * LEVELS || !flags[t])
        return;
    int i = (int)(t / LEVELS), L = (int)(t % LEVELS);
    int end = L == 0 ? n : group_end(codes, n, prefix(codes[i], L), L);
    long long m = sm[end] - sm[i], mx = smx[end] - smx[i], my = smy[end] - smy[i];
    Node nd;
    nd.m = (float)m;
    nd.cx = (float)((double)mx / 1024.0) / nd.m;
    nd.cy = (float)((double)my / 1024.0) / nd.m;
    nd.w = ldexpf(1.0f, -L);
    nd.size = rank[(int64_t)end * LEVELS] - rank[t];
    tree[rank[t]] = nd;
}

__global__ void walk_kernel(const int32_t *ids, const float *bx, const float *by, int n,
                            const Node *tree, const int *ntree, float *ax_out, float *ay_out, int *cnt_out)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    int b = ids[k], nt = *ntree;
    float x = bx[b], y = by[b], ax = 0.0f, ay = 0.0f;
    const float theta2 = 0.25f, eps2 = 1.0e-3f;
    int cnt = 0;
    for (int i = 0; i < nt;) {
        Node nd = tree[i];
        float dx = nd.cx - x, dy = nd.cy - y, d2 = dx * dx + dy * dy;
        if (nd.size == 1 || nd.w * nd.w < theta2 * d2) {
            float r2 = d2 + eps2, s = nd.m / (r2 * sqrtf(r2));
            ax = ax + s * dx;
            ay = ay + s * dy;
            cnt++;
            i += nd.size;
        } else {
            i++;
        }
    }
    ax_out[b] = ax;
    ay_out[b] = ay;
    cnt_out[b] = cnt;
}

int main(int argc, char **argv)
{
    int n = (int)bench_arg(argc, argv, 1, "N");
    int32_t *gxy = bench_alloc<int32_t>(n), *ids = bench_alloc<int32_t>(n), *ids2 = bench_alloc<int32_t>(n);
    float *bx = bench_alloc<float>(n), *by = bench_alloc<float>(n), *bm = bench_alloc<float>(n);
    bench_fill(gxy, n, [] __device__(int64_t i) { return grid_point((int32_t)i); });
    bench_fill(bx, n, [] __device__(int64_t i) { return (float)(grid_point((int32_t)i) & 1023) / 1024.0f; });
    bench_fill(by, n, [] __device__(int64_t i) { return (float)(grid_point((int32_t)i) >> 10) / 1024.0f; });
    bench_fill(bm, n, [] __device__(int64_t i) { return (float)(1 + bench_rem(bench_hash((int32_t)i), 4)); });
    uint32_t *codes = bench_alloc<uint32_t>(n), *codes2 = bench_alloc<uint32_t>(n);
    long long *sm = bench_alloc<long long>(n + 1), *smx = bench_alloc<long long>(n + 1), *smy = bench_alloc<long long>(n + 1);
    int64_t nf = (int64_t)n * LEVELS + 1;
    int *flags = bench_alloc<int>(nf), *rank = bench_alloc<int>(nf);
    Node *tree = bench_alloc<Node>(nf);
    float *ax = bench_alloc<float>(n), *ay = bench_alloc<float>(n);
    int *cnt = bench_alloc<int>(n);
    size_t sort_bytes = 0, scan_bytes = 0, scanl_bytes = 0;
    void *sort_tmp = nullptr, *scan_tmp = nullptr, *scanl_tmp = nullptr;
    CK(cub::DeviceRadixSort::SortPairs(sort_tmp, sort_bytes, codes, codes2, ids, ids2, n, 0, 2 * BITS));
    CK(cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, flags, rank, nf));
    CK(cub::DeviceScan::ExclusiveSum(scanl_tmp, scanl_bytes, sm, sm, n + 1));
    CK(cudaMalloc(&sort_tmp, sort_bytes));
    CK(cudaMalloc(&scan_tmp, scan_bytes));
    CK(cudaMalloc(&scanl_tmp, scanl_bytes));
    unsigned nb = (n + 256) / 256, fb = (unsigned)((nf + 255) / 256);
    double ms = bench_time([&] {
        codes_kernel<<<nb, 256>>>(gxy, n, codes, ids);
        CK(cub::DeviceRadixSort::SortPairs(sort_tmp, sort_bytes, codes, codes2, ids, ids2, n, 0, 2 * BITS));
        weights_kernel<<<nb, 256>>>(codes2, ids2, bm, n, sm, smx, smy);
        CK(cub::DeviceScan::ExclusiveSum(scanl_tmp, scanl_bytes, sm, sm, n + 1));
        CK(cub::DeviceScan::ExclusiveSum(scanl_tmp, scanl_bytes, smx, smx, n + 1));
        CK(cub::DeviceScan::ExclusiveSum(scanl_tmp, scanl_bytes, smy, smy, n + 1));
        flags_kernel<<<fb, 256>>>(codes2, n, flags);
        CK(cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, flags, rank, nf));
        nodes_kernel<<<fb, 256>>>(codes2, n, flags, rank, sm, smx, smy, tree);
        walk_kernel<<<nb, 256>>>(ids2, bx, by, n, tree, rank + (nf - 1), ax, ay, cnt);
    });
    printf("checksum: %.9g %d\n", bench_fsum(n, [=] __device__(int64_t i) -> float { return sqrtf(ax[i] * ax[i] + ay[i] * ay[i]); }),
           bench_wsum(n, [=] __device__(int64_t i) -> uint32_t { return (uint32_t)cnt[i]; }));
    printf("info: %d tree nodes\n", bench_get(rank, nf - 1));
    bench_report(ms, 24.0 * n);   // bodies (x, y, m) read once, accelerations written once
    return 0;
}
