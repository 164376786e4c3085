// map_grid.cu — norm2's scale MAP (y1 = x / s1, y2 = x / s2 over 10^8
// floats) as nesl_k_map runs it, with other grids and item counts: which
// grid MAP should use (doc/decisions.md, "MAP's grid has a block per
// chunk").  Event times, median of 15 after 3 warm-ups.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o map_grid bench/cuda/map_grid.cu && ./map_grid
//
// H100 80GB HBM3, 2026-11-26 (session 19): items4 over an occupancy grid
// (132 x 8 blocks, the old nesl_k_map) 481 us; items4 with a block per
// chunk 438 us; one element per thread 444 us; the baseline's grid-stride
// kernel at 132 x 8 blocks 480 us; cudaMemcpy D2D 2902 GB/s against a
// grid-stride copy kernel's 2390.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
struct S { const float *x; float s1, s2; float *y1, *y2; };
// CS: the stores as __stcs (streaming, evict first)
template <int ITEMS, bool CS = false> __global__ void k_items(S s, int64_t n) {
    const int64_t chunk = (int64_t)ITEMS * 256;
    int64_t stride = (int64_t)gridDim.x * chunk;
    for (int64_t lo = (int64_t)blockIdx.x * chunk + threadIdx.x; lo < n; lo += stride) {
        if (lo + (ITEMS - 1) * 256 < n) {
            float r1[ITEMS], r2[ITEMS];
#pragma unroll
            for (int k = 0; k < ITEMS; k++) { float v = s.x[(int32_t)(lo + k * 256)]; r1[k] = v / s.s1; r2[k] = v / s.s2; }
#pragma unroll
            for (int k = 0; k < ITEMS; k++) {
                if (CS) { __stcs(s.y1 + lo + k * 256, r1[k]); __stcs(s.y2 + lo + k * 256, r2[k]); }
                else { s.y1[lo + k * 256] = r1[k]; s.y2[lo + k * 256] = r2[k]; }
            }
        } else {
#pragma unroll 1
            for (int64_t i = lo; i < n; i += 256) { float v = s.x[i]; s.y1[i] = v / s.s1; s.y2[i] = v / s.s2; }
        }
    }
}
__global__ void k_base(S s, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)256 + threadIdx.x; i < n; i += (int64_t)gridDim.x * 256) {
        float x = s.x[i]; s.y1[i] = x / s.s1; s.y2[i] = x / s.s2;
    }
}
__global__ void k_each(S s, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)256 + threadIdx.x;
    if (i < n) { float x = s.x[i]; s.y1[i] = x / s.s1; s.y2[i] = x / s.s2; }
}
__global__ void k_copy(const float *x, float *y, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)256 + threadIdx.x; i < n; i += (int64_t)gridDim.x * 256) y[i] = x[i];
}
template <class F> float timeit(F f) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int r = 0; r < 3; r++) f();
    cudaDeviceSynchronize();
    std::vector<float> ms;
    for (int r = 0; r < 15; r++) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t); }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1000.f;
}
int main() {
    const int64_t n = 100000000;
    S s; float *x, *y1, *y2;
    CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y1, n * 4)); CK(cudaMalloc(&y2, n * 4));
    k_each<<<(n + 255) / 256, 256>>>(S{x, 1.f, 1.f, y1, y1}, n);  // touch
    cudaMemset(x, 0x3f, n * 4);
    s = S{x, 3.f, 7.f, y1, y2};
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int nb; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k_items<4>, 256, 0);
    printf("sms %d occ(items4) %d\n", sms, nb);
    double bytes = 12.0 * n;
    float t;
    t = timeit([&] { k_copy<<<sms * 8, 256>>>(x, y1, n); }); printf("copy grid-stride sms*8: %.1f us %.0f GB/s\n", t, 8.0 * n / t / 1e3);
    cudaMemcpy(y2, x, 4, cudaMemcpyDeviceToDevice);
    t = timeit([&] { cudaMemcpyAsync(y1, x, n * 4, cudaMemcpyDeviceToDevice); }); printf("cudaMemcpy D2D: %.1f us %.0f GB/s\n", t, 8.0 * n / t / 1e3);
    auto rep = [&](const char *nm, float t) { printf("%-28s %.1f us %.0f GB/s\n", nm, t, bytes / t / 1e3); };
    rep("base sms*8", timeit([&] { k_base<<<sms * 8, 256>>>(s, n); }));
    rep("base sms*16", timeit([&] { k_base<<<sms * 16, 256>>>(s, n); }));
    rep("base sms*4", timeit([&] { k_base<<<sms * 4, 256>>>(s, n); }));
    rep("each", timeit([&] { k_each<<<(n + 255) / 256, 256>>>(s, n); }));
    rep("items1 occ", timeit([&] { k_items<1><<<sms * nb, 256>>>(s, n); }));
    rep("items2 occ", timeit([&] { k_items<2><<<sms * nb, 256>>>(s, n); }));
    rep("items4 occ (current)", timeit([&] { k_items<4><<<sms * nb, 256>>>(s, n); }));
    rep("items8 occ", timeit([&] { k_items<8><<<sms * nb, 256>>>(s, n); }));
    rep("items4 full grid", timeit([&] { k_items<4><<<(n + 1023) / 1024, 256>>>(s, n); }));
    rep("items2 full grid", timeit([&] { k_items<2><<<(n + 511) / 512, 256>>>(s, n); }));
    rep("items4 occ*2", timeit([&] { k_items<4><<<sms * nb * 2, 256>>>(s, n); }));
    rep("items4 cs occ", timeit([&] { k_items<4, true><<<sms * nb, 256>>>(s, n); }));
    rep("items1 cs occ", timeit([&] { k_items<1, true><<<sms * nb, 256>>>(s, n); }));
    rep("items4 cs full", timeit([&] { k_items<4, true><<<(n + 1023) / 1024, 256>>>(s, n); }));
    rep("base sms*8 again", timeit([&] { k_base<<<sms * 8, 256>>>(s, n); }));
    rep("items4 occ again", timeit([&] { k_items<4><<<sms * nb, 256>>>(s, n); }));
    CK(cudaGetLastError());
    return 0;
}
