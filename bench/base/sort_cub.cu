// radix sort baseline: CUB DeviceRadixSort::SortKeys of N hashed 31-bit ints
// (all 32 key bits, input and output buffers, temporary storage allocated once).
#include "bench.cuh"
#include <cub/device/device_radix_sort.cuh>

int main(int argc, char **argv)
{
    int64_t n = bench_arg(argc, argv, 1, "N");
    int32_t *in = bench_alloc<int32_t>(n), *out = bench_alloc<int32_t>(n);
    bench_fill(in, n, [] __device__(int64_t i) { return bench_hash((int32_t)i); });
    size_t tmp_bytes = 0;
    void *tmp = nullptr;
    CK(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, in, out, (int)n));
    CK(cudaMalloc(&tmp, tmp_bytes));
    double ms = bench_time([&] { CK(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, in, out, (int)n)); });
    printf("checksum: %lld %d %d %d\n", (long long)n, bench_weighted(out, n), bench_get(out, 0), bench_get(out, n - 1));
    bench_report(ms, 8.0 * n);    // keys read once and written once (a lower bound)
    return 0;
}
