// quicksort baseline: thrust::sort of N hashed 31-bit ints, in place on a
// copy of the input restored (untimed) before each run; thrust's temporary
// storage comes from a caching allocator, so no cudaMalloc is timed.
#include "bench.cuh"
#include <thrust/sort.h>


int main(int argc, char **argv)
{
    int64_t n = bench_arg(argc, argv, 1, "N");
    int32_t *in = bench_alloc<int32_t>(n), *work = bench_alloc<int32_t>(n);
    bench_fill(in, n, [] __device__(int64_t i) { return bench_hash((int32_t)i); });
    CachingAllocator alloc;
    double ms = bench_time([&] { CK(cudaMemcpy(work, in, n * sizeof(int32_t), cudaMemcpyDeviceToDevice)); },
                           [&] { thrust::sort(thrust::cuda::par(alloc), work, work + n); });
    printf("checksum: %lld %d %d %d\n", (long long)n, bench_weighted(work, n), bench_get(work, 0), bench_get(work, n - 1));
    bench_report(ms, 8.0 * n);    // keys read once and written once (a lower bound)
    return 0;
}
