/* skel_bench.cu — a first look at the CUDA skeletons' speed (doc/codegen.md):
 * MAP, REDUCE, SCAN, FILTER, SEG_REDUCE, SEG_SCAN on int32 through the
 * templates of rt/nesl_cuda.cuh, with functors shaped as nesslc generates
 * them, against a device-to-device copy and CUB's device-wide equivalents.
 * Timed with CUDA events after a warm-up; prints GB/s (bytes read + written).
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Irt bench/cuda/skel_bench.cu \
 *        -Lbuild/lib -lnesl_rt_cuda -o skel_bench && ./skel_bench 26 28 */
#include <cub/cub.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include "nesl_rt.h"
#include "nesl_cuda.cuh"

struct R { int32_t c0; };
struct MapS {
    const int32_t *x; int32_t *y;
    __device__ R pull(int64_t it, NeslDErr *) const { R r; r.c0 = nesl_iadd(x[it], 1); return r; }
    __device__ void store(int64_t i, const R &r) const { y[i] = r.c0; }
};
struct FoldS {
    const int32_t *x; int32_t *y;
    __device__ R pull(int64_t it, NeslDErr *) const { R r; r.c0 = x[it]; return r; }
    __device__ R op(const R &a, const R &b, int64_t, NeslDErr *) const { R r; r.c0 = nesl_iadd(a.c0, b.c0); return r; }
    __device__ void store(int64_t i, const R &r) const { y[i] = r.c0; }
};
struct FiltS {
    const int32_t *x; int32_t *y;
    __device__ R pull(int64_t it, NeslDErr *) const { R r; r.c0 = x[it]; return r; }
    __device__ bool pred(const R &v, int64_t, NeslDErr *) const { return (v.c0 & 1) == 0; }
    __device__ void store(int64_t i, const R &r) const { y[i] = r.c0; }
};
struct Even { __device__ bool operator()(int32_t v) const { return (v & 1) == 0; } };

static cudaEvent_t t0, t1;
template <class F> static double timeit(F f, int reps = 10)
{
    f(); f();
    cudaEventRecord(t0);
    for (int i = 0; i < reps; i++) f();
    cudaEventRecord(t1);
    cudaEventSynchronize(t1);
    float ms;
    cudaEventElapsedTime(&ms, t0, t1);
    return ms / reps / 1e3;
}

static void row(const char *what, int lg, double bytes, double ours, double cub)
{
    printf("%-22s 2^%d  ours %8.3f ms %7.1f GB/s", what, lg, ours * 1e3, bytes / ours / 1e9);
    if (cub > 0) printf("   CUB %8.3f ms %7.1f GB/s   ours/CUB %.2f", cub * 1e3, bytes / cub / 1e9, ours / cub);
    printf("\n");
}

int main(int argc, char **argv)
{
    char *av[] = { argv[0] };
    NeslRt *rt = nesl_rt_new(1, av, 0, NULL);
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device: %s\n", p.name);
    for (int a = 1; a < argc; a++) {
        int lg = atoi(argv[a]);
        int64_t n = (int64_t)1 << lg;
        size_t mark = nesl_mark(rt);
        std::vector<int32_t> h(n);
        for (int64_t i = 0; i < n; i++) h[i] = (int32_t)((i * 2654435761u) >> 7) & 1023;
        NeslVec *x = nesl_vec_from_host(rt, NESL_INT, n, h.data());
        NeslVec *y = nesl_vec_new(rt, NESL_INT, n);
        const int32_t *xd = (const int32_t *)x->data;
        int32_t *yd = (int32_t *)y->data;
        double B = 4.0 * n;
        double cp = timeit([&] { cudaMemcpyAsync(yd, xd, B, cudaMemcpyDeviceToDevice); });
        printf("%-22s 2^%d  %8.3f ms %7.1f GB/s (read + write)\n", "copy", lg, cp * 1e3, 2 * B / cp / 1e9);
        void *tmp = NULL;
        size_t tb = 0, t2 = 0;
        int32_t *o = (int32_t *)nesl_cu_tmp(rt, 64, false);
        int64_t *no = (int64_t *)nesl_cu_tmp(rt, 64, false);
        cub::DeviceReduce::Sum(NULL, tb, xd, o, n);
        cub::DeviceScan::ExclusiveSum(NULL, t2, xd, yd, n); tb = t2 > tb ? t2 : tb;
        cub::DeviceSelect::If(NULL, t2, xd, yd, no, n, Even()); tb = t2 > tb ? t2 : tb;
        tmp = nesl_cu_tmp(rt, tb + 16, false);
        MapS ms = { xd, yd };
        FoldS fs = { xd, yd };
        FiltS fl = { xd, yd };
        R id = { 0 };
        double ours = timeit([&] { nesl_cu_map(rt, ms, n); });
        row("MAP x+1", lg, 2 * B, ours, cp);
        int32_t check = 0;
        ours = timeit([&] { check = nesl_cu_reduce(rt, fs, n, id, false).c0; });
        double cub = timeit([&] { size_t b = tb; int32_t r; cub::DeviceReduce::Sum(tmp, b, xd, o, n); cudaMemcpy(&r, o, 4, cudaMemcpyDeviceToHost); });
        int32_t ref = 0;
        for (int64_t i = 0; i < n; i++) ref = (int32_t)((uint32_t)ref + (uint32_t)h[i]);
        row("REDUCE + (to host)", lg, B, ours, cub);
        if (check != ref) printf("  REDUCE WRONG: %d vs %d\n", check, ref);
        ours = timeit([&] { nesl_cu_scan(rt, fs, n, id, false); });
        cub = timeit([&] { size_t b = tb; cub::DeviceScan::ExclusiveSum(tmp, b, xd, yd, n); });
        row("SCAN + (exclusive)", lg, 2 * B, ours, cub);
        {
            std::vector<int32_t> out(n);
            cudaMemcpy(out.data(), yd, B, cudaMemcpyDeviceToHost);
            int32_t acc = 0;
            int64_t bad = -1;
            for (int64_t i = 0; i < n && bad < 0; i++) {
                if (out[i] != acc) bad = i;
                acc = (int32_t)((uint32_t)acc + (uint32_t)h[i]);
            }
            if (bad >= 0) printf("  SCAN WRONG at %lld\n", (long long)bad);
        }
        int64_t kept = 0;
        ours = timeit([&] { kept = nesl_cu_filter<false>(rt, fl, n, (int32_t *)NULL); });
        cub = timeit([&] { size_t b = tb; int64_t k; cub::DeviceSelect::If(tmp, b, xd, yd, no, n, Even()); cudaMemcpy(&k, no, 8, cudaMemcpyDeviceToHost); });
        row("FILTER even (to host)", lg, B + 4.0 * kept, ours, cub);
        /* segmented: mean length 4 and 10^6 */
        for (int mean : { 4, 1000000 }) {
            int64_t ns = n / mean > 0 ? n / mean : 1;
            std::vector<int32_t> lens(ns);
            int64_t tot = 0;
            for (int64_t g = 0; g < ns; g++) { lens[g] = (int32_t)(g + 1 < ns ? mean : n - tot); tot += lens[g]; }
            NeslVec *lv = nesl_vec_from_host(rt, NESL_INT, ns, lens.data());
            NeslSd *sd = nesl_make_sd(rt, lv);
            const int64_t *offs = nesl_sd_offs(rt, sd);
            const int32_t *ids = nesl_sd_segids(rt, sd);
            NeslVec *sr = nesl_vec_new(rt, NESL_INT, ns);
            FoldS ss = { xd, (int32_t *)sr->data };
            ours = timeit([&] { nesl_cu_seg_fold(rt, ss, n, ns, offs, ids, id, false, false); });
            size_t b = 0;
            cub::DeviceSegmentedReduce::Sum(NULL, b, xd, (int32_t *)sr->data, (int)ns, offs, offs + 1);
            void *st = nesl_cu_tmp(rt, b + 16, false);
            cub = timeit([&] { size_t bb = b; cub::DeviceSegmentedReduce::Sum(st, bb, xd, (int32_t *)sr->data, (int)ns, offs, offs + 1); });
            char name[64];
            snprintf(name, sizeof name, "SEG_REDUCE mean %d", mean);
            row(name, lg, B + 4.0 * ns, ours, cub);
            FoldS sc = { xd, yd };
            ours = timeit([&] { nesl_cu_seg_fold(rt, sc, n, ns, offs, ids, id, true, false); });
            size_t b2 = 0;
            cub::DeviceScan::ExclusiveSumByKey(NULL, b2, ids, xd, yd, (int)n);
            void *st2 = nesl_cu_tmp(rt, b2 + 16, false);
            cub = timeit([&] { size_t bb = b2; cub::DeviceScan::ExclusiveSumByKey(st2, bb, ids, xd, yd, (int)n); });
            snprintf(name, sizeof name, "SEG_SCAN mean %d", mean);
            row(name, lg, 2 * B, ours, cub);
        }
        nesl_release(rt, mark, 0);
    }
    return nesl_rt_free(rt);
}
