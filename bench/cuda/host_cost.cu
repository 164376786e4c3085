// host_cost.cu — what one call of the CUDA API costs the host, the cost
// that bounds quicksort and Barnes–Hut (thousands of small operations per
// form).  For each kind of call: R calls back to back on the legacy default
// stream, the host's time per call until the last one returned (the device
// may still be working), median of 7 rounds.
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

static double now_us() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F> static void measure(const char *what, int reps, F f) {
    std::vector<double> t;
    for (int r = 0; r < 7; r++) {
        cudaDeviceSynchronize();
        double t0 = now_us();
        for (int i = 0; i < reps; i++) f(i);
        double t1 = now_us();
        cudaDeviceSynchronize();
        t.push_back((t1 - t0) / reps);
    }
    std::sort(t.begin(), t.end());
    printf("%-44s %8.2f us/call\n", what, t[3]);
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
    printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
