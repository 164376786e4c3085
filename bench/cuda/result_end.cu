// result_end.cu — where a REDUCE form ends when its value goes to the host,
// by events: after a 64-byte copy of the result area into pinned memory,
// after the kernel wrote the value into mapped host memory, or with the
// value left on the device (as CUB's baseline leaves it).  A stand-in
// reduction kernel (its last block folds the partials serially), median of
// 40 runs (doc/decisions.md, "A kernel's small result is written into
// mapped host memory").
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o result_end bench/cuda/result_end.cu && ./result_end
//
// H100 80GB HBM3, 2026-11-26 (session 19): n = 10^6: copy 33.1 us, mapped
// 24.9, on the device 25.2; n = 10^8: 162.1, 157.5, 153.5.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
__global__ void k_sum(const float *x, int64_t n, float *out, unsigned *cnt, float *part) {
    __shared__ float sh[256];
    float a = 0;
    for (int64_t i = blockIdx.x * 256 + threadIdx.x; i < n; i += (int64_t)gridDim.x * 256) a += x[i];
    sh[threadIdx.x] = a; __syncthreads();
    for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
    __shared__ bool last;
    if (threadIdx.x == 0) { part[blockIdx.x] = sh[0]; __threadfence(); last = atomicAdd(cnt, 1u) == gridDim.x - 1; }
    __syncthreads();
    if (last && threadIdx.x == 0) { float t = 0; for (unsigned b = 0; b < gridDim.x; b++) t += ((volatile float *)part)[b]; *out = t; *cnt = 0; }
}
int main() {
    float *x, *h, *d, *hp, *dres, *part; unsigned *cnt;
    cudaMalloc(&x, 400000000); cudaMemset(x, 0, 400000000);
    cudaMalloc(&part, 1056 * 4); cudaMalloc(&cnt, 4); cudaMemset(cnt, 0, 4); cudaMalloc(&dres, 64);
    cudaHostAlloc(&h, 64, cudaHostAllocMapped); cudaHostGetDevicePointer(&d, h, 0);
    cudaMallocHost(&hp, 64);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int64_t n : {1000000LL, 100000000LL}) {
        for (int mode = 0; mode < 3; mode++) {
            std::vector<float> t;
            for (int r = 0; r < 41; r++) {
                cudaDeviceSynchronize();
                cudaEventRecord(a);
                k_sum<<<1056, 256>>>(x, n, mode == 1 ? d : dres, cnt, part);
                if (mode == 0) cudaMemcpyAsync(hp, dres, 64, cudaMemcpyDeviceToHost, 0);
                cudaEventRecord(b);
                cudaStreamSynchronize(0);
                float ms; cudaEventElapsedTime(&ms, a, b);
                if (r) t.push_back(ms * 1000);
            }
            std::sort(t.begin(), t.end());
            printf("n %lld %s: %.2f us\n", (long long)n, mode == 0 ? "copy 64 B to pinned" : mode == 1 ? "mapped write" : "left on device", t[t.size() / 2]);
        }
    }
    return 0;
}
