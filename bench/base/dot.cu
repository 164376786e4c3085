// dot product baseline: CUB DeviceReduce over the products (a transform
// iterator, so the products are never stored).
#include "bench.cuh"
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

struct Prod {
    const float *x, *y;
    __device__ float operator()(int64_t i) const { return x[i] * y[i]; }
};

int main(int argc, char **argv)
{
    int64_t n = bench_arg(argc, argv, 1, "N");
    float *xs = bench_alloc<float>(n), *ys = bench_alloc<float>(n), *out = bench_alloc<float>(1);
    bench_fill(xs, n, [] __device__(int64_t i) { return (float)(bench_rem(bench_hash((int32_t)(2 * i)), 64) - 32) * 0.03125f; });
    bench_fill(ys, n, [] __device__(int64_t i) { return (float)(bench_rem(bench_hash((int32_t)(2 * i + 1)), 64) - 32) * 0.03125f; });
    auto prods = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), Prod{xs, ys});
    size_t tmp_bytes = 0;
    void *tmp = nullptr;
    CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, prods, out, n));
    CK(cudaMalloc(&tmp, tmp_bytes));
    double ms = bench_time([&] { CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, prods, out, n)); });
    printf("checksum: %.9g\n", bench_get(out, 0));
    bench_report(ms, 8.0 * n);
    return 0;
}
