/* small_scan.cu — the fixed cost of the runtime's scans at the small sizes
 * that a quicksort or Barnes–Hut recursion level runs them at: make_sd's
 * scan of n lengths (int64 sums: one block up to 4096, look-back above)
 * and SCAN + of n int32 (packed look-back states), each timed two ways:
 *   - in a stream, 200 launches back to back (what a level's queue sees);
 *   - alone, between two events with the device idle before (what ncu's
 *     gpu__time_duration reports), median of 51.
 * An empty one-block kernel gives the floor of both.  Built with
 * -DNESL_SCAN_PROF, it also prints each tile's phases (globaltimer ns from
 * the kernel's first tile start) for the sizes given after "prof".
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Irt bench/cuda/small_scan.cu \
 *        -Lbuild/lib -lnesl_rt_cuda -o small_scan && ./small_scan
 *   ./small_scan prof 10000 100000     # with -DNESL_SCAN_PROF */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "nesl_rt.h"
#include "nesl_cuda.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct SumS {
    const int32_t *x; int32_t *y;
    __device__ int32_t pull(int64_t it, NeslDErr *) const { return x[it]; }
    __device__ int32_t op(int32_t a, int32_t b, int64_t, NeslDErr *) const { return a + b; }
    __device__ void store(int64_t i, int32_t v) const { y[i] = v; }
};

__global__ void k_empty(int *p)
{
    if (p && threadIdx.x == 1000) *p = 0;
}

/* Median over rounds of the time per launch between two events: each
 * round `per` launches back to back after the device went idle (7 rounds
 * of 200: a stream's rate; 51 of 1: a launch alone). */
template <class F> static double time_us(F f, int rounds, int per)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<double> r;
    for (int rep = 0; rep < rounds; rep++) {
        CK(cudaDeviceSynchronize());
        cudaEventRecord(a);
        for (int i = 0; i < per; i++) f();
        cudaEventRecord(b);
        CK(cudaEventSynchronize(b));
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        r.push_back(ms * 1e3 / per);
    }
    std::sort(r.begin(), r.end());
    return r[r.size() / 2];
}
template <class F> static double stream_us(F f) { return time_us(f, 7, 200); }
template <class F> static double alone_us(F f) { return time_us(f, 51, 1); }

struct Bufs {
    int32_t *lens, *off32, *x, *y;
    int64_t *offs, *tot;
};

static void sd_scan(NeslRt *rt, const Bufs &b, int64_t n)
{
    NeslSdScan sc = { n, b.offs, b.off32, b.tot, NULL };
    nesl_cu_sd_scan(rt, NeslSdVecLens{ b.lens }, sc);
}

static void sum_scan(NeslRt *rt, const Bufs &b, int64_t n)
{
    nesl_cu_scan<NESL_PAR>(rt, SumS{ b.x, b.y }, n, (int32_t)0);
}

/* offsets and sums checked against the host's: a timing of a wrong scan
 * means nothing */
static int check(NeslRt *rt, const Bufs &b, int64_t n, const std::vector<int32_t> &h)
{
    sd_scan(rt, b, n);
    sum_scan(rt, b, n);
    std::vector<int64_t> o(n + 1);
    std::vector<int32_t> y(n);
    CK(cudaMemcpy(o.data(), b.offs, 8 * (n + 1), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), b.y, 4 * n, cudaMemcpyDeviceToHost));
    int64_t s = 0;
    int bad = 0;
    for (int64_t i = 0; i <= n; i++) {
        if (o[i] != s || (i < n && y[i] != (int32_t)s)) bad++;
        if (i < n) s += h[i];
    }
    if (bad) printf("n %lld: %d wrong offsets\n", (long long)n, bad);
    return bad;
}

#ifdef NESL_SCAN_PROF
template <class F> static void prof_tiles(const char *what, int64_t ntiles, F f)
{
    unsigned long long *buf = NULL;
    CK(cudaMalloc(&buf, 16 * 8 * (size_t)ntiles));
    CK(cudaMemset(buf, 0, 16 * 8 * (size_t)ntiles));
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpyToSymbol(nesl_prof, &buf, sizeof buf));
    f();
    CK(cudaDeviceSynchronize());
    unsigned long long *none = NULL;
    CK(cudaMemcpyToSymbol(nesl_prof, &none, sizeof none));
    std::vector<unsigned long long> h(16 * (size_t)ntiles);
    CK(cudaMemcpy(h.data(), buf, 16 * 8 * (size_t)ntiles, cudaMemcpyDeviceToHost));
    CK(cudaFree(buf));
    unsigned long long g0 = ~0ull, g1 = 0;
    for (int64_t i = 0; i < ntiles; i++) {
        g0 = std::min(g0, h[i * 16]);
        g1 = std::max(g1, h[i * 16 + 8]);
    }
    printf("prof %s: %lld tiles, first start to last end %.2f us\n", what, (long long)ntiles, (double)(g1 - g0) / 1e3);
    double ghz = 0;
    for (int64_t i = 0; i < ntiles; i++) ghz += (double)(h[i * 16 + 5] - h[i * 16 + 1]) / (double)(h[i * 16 + 8] - h[i * 16]);
    ghz /= (double)ntiles;
    for (int64_t i = 0; i < ntiles; i += ntiles > 12 ? ntiles / 12 : 1) {
        const unsigned long long *r = &h[i * 16];
        printf("  tile %4lld sm %3llu start %6.2f us  loads %5.2f  agg %5.2f  prefix %5.2f  end %5.2f  (reads %llu)\n", (long long)i, r[7],
               (double)(r[0] - g0) / 1e3, (double)(r[2] - r[1]) / ghz / 1e3, (double)(r[3] - r[2]) / ghz / 1e3,
               (double)(r[4] - r[3]) / ghz / 1e3, (double)(r[5] - r[4]) / ghz / 1e3, r[6]);
    }
}
#endif

int main(int argc, char **argv)
{
    char *av[] = { argv[0] };
    NeslRt *rt = nesl_rt_new(1, av, 0, NULL);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const int64_t NMAX = 1000000;
    std::vector<int32_t> h(NMAX);
    for (int64_t i = 0; i < NMAX; i++) h[i] = (int32_t)(((uint32_t)i * 2654435761u) >> 28);   /* 0..15 */
    Bufs b;
    CK(cudaMalloc(&b.lens, 4 * NMAX));
    CK(cudaMalloc(&b.x, 4 * NMAX));
    CK(cudaMalloc(&b.y, 4 * NMAX));
    CK(cudaMalloc(&b.off32, 4 * (NMAX + 1)));
    CK(cudaMalloc(&b.offs, 8 * (NMAX + 1)));
    CK(cudaMalloc(&b.tot, 8));
    CK(cudaMemcpy(b.lens, h.data(), 4 * NMAX, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b.x, h.data(), 4 * NMAX, cudaMemcpyHostToDevice));
    const int64_t sizes[] = { 1000, 4096, 4097, 10000, 30000, 100000, 1000000 };
    int bad = 0;
    for (int64_t n : sizes) bad += check(rt, b, n, h);
    bool prof = argc > 1 && !strcmp(argv[1], "prof");
    if (!prof) {
        printf("%-22s %8s %10s %10s\n", "kernel", "n", "stream us", "alone us");
        printf("%-22s %8d %10.2f %10.2f\n", "empty <<<1,256>>>", 0, stream_us([&] { k_empty<<<1, 256>>>(NULL); }),
               alone_us([&] { k_empty<<<1, 256>>>(NULL); }));
        for (int64_t n : sizes)
            printf("%-22s %8lld %10.2f %10.2f\n", "make_sd scan (int64)", (long long)n, stream_us([&] { sd_scan(rt, b, n); }),
                   alone_us([&] { sd_scan(rt, b, n); }));
        for (int64_t n : sizes)
            printf("%-22s %8lld %10.2f %10.2f\n", "SCAN + (int32)", (long long)n, stream_us([&] { sum_scan(rt, b, n); }),
                   alone_us([&] { sum_scan(rt, b, n); }));
    }
#ifdef NESL_SCAN_PROF
    for (int a = 2; prof && a < argc; a++) {
        int64_t n = atoll(argv[a]);
        if (n <= 0 || n > NMAX) continue;
        typedef NeslScanP<NeslSdLens<NeslSdVecLens>, int64_t>::Shape SdS;
        typedef NeslScanP<SumS, int32_t>::Shape SS;
        prof_tiles("make_sd scan", (n + 1 + SdS::TILE - 1) / SdS::TILE, [&] { sd_scan(rt, b, n); });
        prof_tiles("SCAN +", (n + SS::TILE - 1) / SS::TILE, [&] { sum_scan(rt, b, n); });
    }
#endif
    CK(cudaDeviceSynchronize());
    nesl_rt_free(rt);
    printf("checks: %d wrong\n", bad);
    return bad ? 1 : 0;
}
