// Device-to-device copy bandwidth: cudaMemcpy of 2 GiB, bytes read plus
// bytes written over the median time of 10 copies after 2 warm-ups.
#include "bench.cuh"

int main()
{
    const int64_t bytes = (int64_t)2 << 30;
    char *a = bench_alloc<char>(bytes), *b = bench_alloc<char>(bytes);
    CK(cudaMemset(a, 0x5a, bytes));
    double ms = bench_time([] {}, [&] { CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); }, 2, 10);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
    printf("copy-ms: %.6f\ncopy-GBps: %.1f\n", ms, 2.0 * bytes / (ms * 1e6));
    return 0;
}
