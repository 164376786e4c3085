// host_cost.cu — what one call of the CUDA API costs the host, the cost
// that bounds quicksort and Barnes–Hut (thousands of small operations per
// form).  For each kind of call: R calls back to back on the legacy default
// stream (or a non-blocking one where said), the host's time per call until
// the last one returned, and the device's (events around the R calls: it
// equals the host's when the device keeps pace), median of 7 rounds; then
// the same small kernels replayed as one CUDA graph.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o host_cost bench/cuda/host_cost.cu && ./host_cost
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cub/cub.cuh>

__global__ void k_empty() {}
__global__ void k_fill(int *p, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = i;
}
struct Big { long long w[32]; };   // a generated functor's size
__global__ void k_big(Big b) {
    if (b.w[threadIdx.x & 31] == 12345 && threadIdx.x == 1000) ((int *)b.w[0])[0] = 0;
}

static double now_us() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F> static void measure(const char *what, int reps, F f, cudaStream_t st = 0) {
    std::vector<double> t, g;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = 0; r < 7; r++) {
        cudaDeviceSynchronize();
        cudaEventRecord(a, st);
        double t0 = now_us();
        for (int i = 0; i < reps; i++) f(i);
        double t1 = now_us();
        cudaEventRecord(b, st);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back((t1 - t0) / reps);
        g.push_back(ms * 1e3 / reps);
    }
    std::sort(t.begin(), t.end());
    std::sort(g.begin(), g.end());
    printf("%-48s %8.2f us/call host %8.2f device\n", what, t[3], g[3]);
}

int main() {
    const int n = 1 << 20;
    int *a, *b, *h, *mapped, *dmapped;
    cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
    cudaMallocHost(&h, 64);
    cudaHostAlloc(&mapped, 64, cudaHostAllocMapped);
    cudaHostGetDevicePointer(&dmapped, mapped, 0);
    size_t tb = 0;
    cub::DeviceScan::InclusiveSum(nullptr, tb, a, b, n);
    void *tmp; cudaMalloc(&tmp, tb);
    int nb = 0;
    const int R = 2000;
    measure("k_empty<<<1,256>>> + cudaGetLastError", R, [&](int) { k_empty<<<1, 256>>>(); cudaGetLastError(); });
    measure("k_fill<<<528,256>>> (n = 1M)", R, [&](int) { k_fill<<<528, 256>>>(a, n); });
    measure("cudaMemcpyAsync D2D 4 KB", R, [&](int) { cudaMemcpyAsync(b, a, 4096, cudaMemcpyDeviceToDevice, 0); });
    measure("cudaMemcpy D2D 4 KB", R, [&](int) { cudaMemcpy(b, a, 4096, cudaMemcpyDeviceToDevice); });
    measure("cudaMemsetAsync 4 KB", R, [&](int) { cudaMemsetAsync(b, 0, 4096, 0); });
    measure("cub InclusiveSum 1M (size query + scan)", R / 4, [&](int) {
        size_t q = 0;
        cub::DeviceScan::InclusiveSum(nullptr, q, a, b, n);
        cub::DeviceScan::InclusiveSum(tmp, q, a, b, n);
    });
    measure("cub InclusiveSum 1000", R / 4, [&](int) {
        size_t q = 0;
        cub::DeviceScan::InclusiveSum(nullptr, q, a, b, 1000);
        cub::DeviceScan::InclusiveSum(tmp, q, a, b, 1000);
    });
    measure("cudaOccupancyMaxActiveBlocksPerMultiprocessor", R, [&](int) {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k_fill, 256, 0);
    });
    measure("cudaStreamSynchronize (idle)", R, [&](int) { cudaStreamSynchronize(0); });
    measure("k_empty + cudaStreamSynchronize", R, [&](int) { k_empty<<<1, 256>>>(); cudaStreamSynchronize(0); });
    measure("k_empty + D2H 4 B pinned + sync", R, [&](int) {
        k_empty<<<1, 256>>>();
        cudaMemcpyAsync(h, a, 4, cudaMemcpyDeviceToHost, 0);
        cudaStreamSynchronize(0);
    });
    measure("k_fill(1M) + cudaStreamSynchronize", R, [&](int) { k_fill<<<528, 256>>>(a, n); cudaStreamSynchronize(0); });
    measure("cudaEventRecord", R, [&](int) { static cudaEvent_t e = [] { cudaEvent_t x; cudaEventCreate(&x); return x; }(); cudaEventRecord(e, 0); });
    cudaStream_t ns;
    cudaStreamCreateWithFlags(&ns, cudaStreamNonBlocking);
    Big big = {};
    measure("k_empty<<<1,256>>>", R, [&](int) { k_empty<<<1, 256>>>(); });
    measure("k_big<<<1,256>>> (256-byte argument)", R, [&](int) { k_big<<<1, 256>>>(big); });
    measure("k_big<<<1,256>>> + cudaGetLastError", R, [&](int) { k_big<<<1, 256>>>(big); cudaGetLastError(); });
    measure("k_big<<<1,256>>> (again)", R, [&](int) { k_big<<<1, 256>>>(big); });
    measure("k_empty<<<1,256>>> + cudaGetLastError (again)", R, [&](int) { k_empty<<<1, 256>>>(); cudaGetLastError(); });
    measure("k_empty<<<1,256>>>, non-blocking stream", R, [&](int) { k_empty<<<1, 256, 0, ns>>>(); }, ns);
    measure("k_big<<<1,256>>>, non-blocking stream", R, [&](int) { k_big<<<1, 256, 0, ns>>>(big); }, ns);
    {   // R launches of k_big captured once, replayed as a graph
        cudaGraph_t gr;
        cudaGraphExec_t ge;
        cudaStreamBeginCapture(ns, cudaStreamCaptureModeGlobal);
        for (int i = 0; i < R; i++) k_big<<<1, 256, 0, ns>>>(big);
        cudaStreamEndCapture(ns, &gr);
        cudaGraphInstantiate(&ge, gr, 0);
        measure("one CUDA graph of R k_big launches (a replay)", 1, [&](int) { cudaGraphLaunch(ge, ns); }, ns);
    }
    printf("(the graph's times are per replay of R = %d kernels: divide by R)\n", R);
    printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
