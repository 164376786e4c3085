// Micro-benchmark baselines, CUB's device-wide equivalents of single SOACs
// on ints generated as in bench/progs/micro_*.nesl.in:
//   micro map N | reduce N | scan N | filter N | permute N
//   micro segreduce N SEG | segscan N SEG
// Each prints the NESL program's checksum, the median time and the bytes the
// SOAC itself must move (README.md).
#include "bench.cuh"
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <cstring>

struct Temp {   // CUB temporary storage, sized by a first call, allocated once
    void *p = nullptr;
    size_t bytes = 0;
    void reserve() { CK(cudaMalloc(&p, std::max<size_t>(bytes, 1))); }
};

struct Positive {
    __host__ __device__ bool operator()(int32_t x) const { return x > 0; }
};

struct Affine {
    __host__ __device__ int32_t operator()(int32_t x) const { return (int32_t)(3u * (uint32_t)x + 1u); }
};

__global__ void scatter_kernel(const int32_t *xs, const int32_t *perm, int64_t n, int32_t *ys)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        ys[perm[i]] = xs[i];
}

// the segment of each element: 1 at every segment start, inclusive-scanned
__global__ void mark_starts(const int32_t *offsets, int64_t nseg, int32_t *keys)
{
    for (int64_t s = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; s < nseg; s += (int64_t)gridDim.x * blockDim.x)
        if (s > 0)
            keys[offsets[s]] = 1;
}

int main(int argc, char **argv)
{
    const char *op = argc > 1 ? argv[1] : "";
    int64_t n = bench_arg(argc, argv, 2, "map|reduce|scan|filter|permute|segreduce|segscan N [SEG]");
    bool segmented = !strcmp(op, "segreduce") || !strcmp(op, "segscan");
    int64_t nseg = 0, seg = segmented ? bench_arg(argc, argv, 3, "segreduce|segscan N SEG") : 0;
    int32_t *offsets = nullptr;
    Temp t;
    if (segmented) {   // lengths 1 + rem(hash(i + 99991), 2 SEG - 1), offsets by an (untimed) scan
        nseg = n / seg;
        offsets = bench_alloc<int32_t>(nseg + 1);
        bench_fill(offsets, nseg + 1, [=] __device__(int64_t i) {
            return i < nseg ? 1 + bench_rem(bench_hash((int32_t)i + 99991), (int32_t)(2 * seg - 1)) : 0;
        });
        Temp s;
        CK(cub::DeviceScan::ExclusiveSum(s.p, s.bytes, offsets, offsets, nseg + 1));
        s.reserve();
        CK(cub::DeviceScan::ExclusiveSum(s.p, s.bytes, offsets, offsets, nseg + 1));
        n = bench_get(offsets, nseg);   // the elements: the sum of the lengths
    }
    int32_t *xs = bench_alloc<int32_t>(n), *ys = bench_alloc<int32_t>(n), *count = bench_alloc<int32_t>(1);
    bench_fill(xs, n, [] __device__(int64_t i) { return bench_rem(bench_hash((int32_t)i), 16) - 8; });
    double ms = 0, bytes = 0;
    int32_t *perm = nullptr, *keys = nullptr;

    if (!strcmp(op, "map")) {
        ms = bench_time([&] { CK(cub::DeviceTransform::Transform(xs, ys, n, Affine())); });
        printf("checksum: %lld %d\n", (long long)n, bench_weighted(ys, n));
        bytes = 8.0 * n;
    } else if (!strcmp(op, "reduce")) {
        CK(cub::DeviceReduce::Sum(t.p, t.bytes, xs, ys, n));
        t.reserve();
        ms = bench_time([&] { CK(cub::DeviceReduce::Sum(t.p, t.bytes, xs, ys, n)); });
        printf("checksum: %d\n", bench_get(ys, 0));
        bytes = 4.0 * n;
    } else if (!strcmp(op, "scan")) {
        CK(cub::DeviceScan::ExclusiveSum(t.p, t.bytes, xs, ys, n));
        t.reserve();
        ms = bench_time([&] { CK(cub::DeviceScan::ExclusiveSum(t.p, t.bytes, xs, ys, n)); });
        printf("checksum: %lld %d %d\n", (long long)n, bench_get(ys, n - 1),
               bench_wsum(n, [=] __device__(int64_t i) -> uint32_t { return (uint32_t)ys[i]; }));
        bytes = 8.0 * n;
    } else if (!strcmp(op, "filter")) {
        CK(cub::DeviceSelect::If(t.p, t.bytes, xs, ys, count, n, Positive()));
        t.reserve();
        ms = bench_time([&] { CK(cub::DeviceSelect::If(t.p, t.bytes, xs, ys, count, n, Positive())); });
        int32_t kept = bench_get(count, 0);
        printf("checksum: %d %d\n", kept, bench_weighted(ys, kept));
        bytes = 4.0 * n + 4.0 * kept;
    } else if (!strcmp(op, "permute")) {
        if (n & (n - 1)) {
            fprintf(stderr, "micro permute: N must be a power of two\n");
            return 2;
        }
        perm = bench_alloc<int32_t>(n);
        bench_fill(perm, n, [=] __device__(int64_t i) {
            return (int32_t)(((uint32_t)i * 1640531527u + 12345u) & (uint32_t)(n - 1));
        });
        unsigned blocks = (unsigned)std::min<int64_t>((n + 255) / 256, 1 << 20);
        ms = bench_time([&] { scatter_kernel<<<blocks, 256>>>(xs, perm, n, ys); });
        printf("checksum: %lld %d\n", (long long)n, bench_weighted(ys, n));
        bytes = 12.0 * n;
    } else if (!strcmp(op, "segreduce")) {
        CK(cub::DeviceSegmentedReduce::Sum(t.p, t.bytes, xs, ys, nseg, offsets, offsets + 1));
        t.reserve();
        ms = bench_time([&] { CK(cub::DeviceSegmentedReduce::Sum(t.p, t.bytes, xs, ys, nseg, offsets, offsets + 1)); });
        printf("checksum: %lld %d\n", (long long)nseg, bench_weighted(ys, nseg));
        bytes = 4.0 * n + 4.0 * (nseg + 1) + 4.0 * nseg;
    } else if (!strcmp(op, "segscan")) {
        // CUB scans by key: the per-element segment number is materialized
        // (untimed); reading it is part of the baseline's cost, not the SOAC's.
        keys = bench_alloc<int32_t>(n);
        CK(cudaMemset(keys, 0, n * sizeof(int32_t)));
        mark_starts<<<(unsigned)std::min<int64_t>((nseg + 255) / 256, 65536), 256>>>(offsets, nseg, keys);
        CKL();
        Temp s;
        CK(cub::DeviceScan::InclusiveSum(s.p, s.bytes, keys, keys, n));
        s.reserve();
        CK(cub::DeviceScan::InclusiveSum(s.p, s.bytes, keys, keys, n));
        CK(cub::DeviceScan::ExclusiveSumByKey(t.p, t.bytes, keys, xs, ys, n));
        t.reserve();
        ms = bench_time([&] { CK(cub::DeviceScan::ExclusiveSumByKey(t.p, t.bytes, keys, xs, ys, n)); });
        int32_t sum = bench_wsum(n, [=] __device__(int64_t i) -> uint32_t {
            return (uint32_t)ys[i] * (uint32_t)(1 + ((i - offsets[keys[i]]) & 7));
        });
        printf("checksum: %lld %d\n", (long long)nseg, sum);
        bytes = 8.0 * n + 4.0 * (nseg + 1);
    } else {
        fprintf(stderr, "micro: unknown operation '%s'\n", op);
        return 2;
    }
    bench_report(ms, bytes);
    return 0;
}
