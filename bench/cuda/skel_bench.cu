/* skel_bench.cu — checks and times the CUDA skeletons (doc/codegen.md,
 * "Speed"): the templates of rt/nesl_cuda.cuh called with functors shaped
 * as nesslc generates them, against a CPU reference (correctness, fresh
 * random data, many sizes) and against a device-to-device copy and CUB's
 * device-wide equivalents (speed: CUDA events, warm-up, median of 25).
 * GB/s count bytes read + written once.  Exit status 1 if a check fails.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Irt bench/cuda/skel_bench.cu \
 *        -Lbuild/lib -lnesl_rt_cuda -o skel_bench
 *   ./skel_bench                # correctness only
 *   ./skel_bench nocheck 28     # timings only
 *   ./skel_bench 26 28          # correctness, then timings at 2^26, 2^28
 *   ./skel_bench nocheck nocub 28   # timings without CUB's rows
 *   ./skel_bench nocheck prof 28    # built with -DNESL_SCAN_PROF: per-tile
 *                               # phase times of SCAN and FILTER (FILTER's
 *                               # with -DNESL_FILTER_WS=0 only) */
#include <cub/cub.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <random>
#include <vector>
#include "nesl_rt.h"
#include "nesl_cuda.cuh"

/* ---- functors shaped like the generated ones ---- */
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
    const int32_t *x; int32_t *y, *yf;
    __device__ R pull(int64_t it, NeslDErr *) const { R r; r.c0 = x[it]; return r; }
    __device__ bool pred(const R &v, int64_t, NeslDErr *) const { return (v.c0 & 1) == 0; }
    __device__ void store(int64_t i, const R &r) const { y[i] = r.c0; }
    __device__ void store_f(int64_t i, const R &r) const { yf[i] = r.c0; }
};
/* affine maps x -> a*x + b composed left to right: associative, not
 * commutative, two components (the look-back's flag + value path) */
struct RA { int32_t c0, c1; };
struct AffS {
    const int32_t *x; int32_t *y0, *y1;
    __device__ RA pull(int64_t it, NeslDErr *) const { RA r; r.c0 = x[it] | 1; r.c1 = x[it] >> 3; return r; }
    __device__ RA op(const RA &a, const RA &b, int64_t, NeslDErr *) const
    {
        RA r; r.c0 = nesl_imul(a.c0, b.c0); r.c1 = nesl_iadd(nesl_imul(a.c1, b.c0), b.c1); return r;
    }
    __device__ void store(int64_t i, const RA &r) const { y0[i] = r.c0; y1[i] = r.c1; }
};
struct RD { double c0; };
struct FSumS {
    const int32_t *x; double *y;
    __device__ RD pull(int64_t it, NeslDErr *) const { RD r; r.c0 = x[it] * 0.001 + 0.1; return r; }
    __device__ RD op(const RD &a, const RD &b, int64_t, NeslDErr *) const { RD r; r.c0 = a.c0 + b.c0; return r; }
    __device__ void store(int64_t i, const RD &r) const { y[i] = r.c0; }
};
struct Even { __device__ bool operator()(int32_t v) const { return (v & 1) == 0; } };

/* scan_variants.sh's "main" variant builds this file with the scan family
 * as it was on main, whose nesl_cu_filter had no COUNTS argument */
#ifdef NESL_MAIN
#define COUNTS(part) part
#else
#define COUNTS(part) part, true
#endif

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("  FAIL: " __VA_ARGS__); printf("\n"); failures++; } } while (0)
#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

static std::mt19937_64 rng(12345);
static std::vector<int32_t> rand_ints(int64_t n)
{
    std::vector<int32_t> h(n);
    for (auto &v : h) v = (int32_t)(rng() >> 33) - (1 << 29);
    return h;
}
template <class T> static std::vector<T> down(const T *d, int64_t n)
{
    std::vector<T> h(n);
    if (n) CK(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return h;
}
template <class T> static T *poisoned(NeslRt *rt, int64_t n)
{
    T *p = (T *)nesl_cu_tmp(rt, sizeof(T) * (size_t)(n + 1), false);
    CK(cudaMemset(p, 0xA5, sizeof(T) * (size_t)(n + 1)));
    return p;
}
static uint32_t wadd(uint32_t a, uint32_t b) { return a + b; }

/* Segment lengths: kind 0 random 0..8 (empties), 1 mostly empty + few long,
 * 2 one segment, 3 equal length `mean` (> 0; no trailing empties: mean >= n
 * gives nsegs = 1), 4 long segments whose ends often fall on, or one
 * before or after, a multiple of 4096 or 2048 (the SEG_ tiles of 4- and
 * 8-byte items), with empty segments there */
static std::vector<int32_t> seg_lens(int64_t n, int kind, int64_t mean)
{
    std::vector<int32_t> l;
    int64_t left = n;
    while (left > 0) {
        int64_t x;
        if (kind == 4) {
            int64_t m = 4096 * (1 + (int64_t)(rng() % 3));
            switch (rng() % 10) {
            case 0: case 1: x = 0; break;
            case 2: case 3: x = m; break;
            case 4: x = 2048; break;
            case 5: x = m - 1; break;
            case 6: x = m + 1; break;
            default: x = (int64_t)(rng() % 60000); break;
            }
        } else {
            x = kind == 0 ? (int64_t)(rng() % 9) : kind == 1 ? (rng() % 4 ? 0 : (int64_t)(rng() % 20000)) : kind == 2 ? left : mean;
        }
        x = std::min(x, left);
        l.push_back((int32_t)x);
        left -= x;
    }
    if (kind != 3) for (int k = 0; k < 3; k++) l.push_back(0);   /* trailing empties */
    if (n == 0) l.push_back(0);
    return l;
}

static void check_size(NeslRt *rt, int64_t n)
{
    size_t mark = nesl_mark(rt);
    std::vector<int32_t> h = rand_ints(n);
    NeslVec *xv = nesl_vec_from_host(rt, NESL_INT, n, h.data());
    const int32_t *xd = (const int32_t *)xv->data;
    int32_t *y = poisoned<int32_t>(rt, n), *y2 = poisoned<int32_t>(rt, n);
    R id = { 7 };
    /* MAP x+1 (striped chunks of NESL_MAP_ITEMS * NESL_BLOCK) */
    nesl_cu_map(rt, MapS{ xd, y }, n);
    {
        auto o = down(y, n + 1);
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++) if ((uint32_t)o[i] != wadd(h[i], 1)) bad = i;
        CHECK(bad < 0 && o[n] == (int32_t)0xA5A5A5A5, "MAP n=%lld at %lld", (long long)n, (long long)bad);
    }
    /* REDUCE int +: in order (NESL_PAR) and striped (NESL_COMM) */
    {
        uint32_t acc = 7;
        for (int64_t i = 0; i < n; i++) acc = wadd(acc, h[i]);
        R r1 = nesl_cu_reduce<NESL_PAR>(rt, FoldS{ xd, y }, n, id), r2 = nesl_cu_reduce<NESL_COMM>(rt, FoldS{ xd, y }, n, id);
        CHECK((uint32_t)r1.c0 == acc && (uint32_t)r2.c0 == acc, "REDUCE + n=%lld: %d %d, want %d", (long long)n, r1.c0, r2.c0, (int32_t)acc);
    }
    /* REDUCE of affine maps (non-commutative: in order) */
    {
        uint32_t a = 1, b = 0;
        for (int64_t i = 0; i < n; i++) {
            uint32_t xa = (uint32_t)(h[i] | 1), xb = (uint32_t)(h[i] >> 3);
            b = b * xa + xb;
            a = a * xa;
        }
        RA r = nesl_cu_reduce<NESL_PAR>(rt, AffS{ xd, y, y2 }, n, RA{ 1, 0 });
        CHECK((uint32_t)r.c0 == a && (uint32_t)r.c1 == b, "REDUCE affine n=%lld", (long long)n);
    }
    /* SCAN int +: the exclusive sums from 7, the poisoned word after them untouched */
    auto check_scan = [&](int32_t *out, const char *what) {
        auto o = down(out, n + 1);
        uint32_t acc = 7;
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++) { if ((uint32_t)o[i] != acc) bad = i; acc = wadd(acc, h[i]); }
        CHECK(bad < 0 && o[n] == (int32_t)0xA5A5A5A5, "%s n=%lld at %lld", what, (long long)n, (long long)bad);
    };
    nesl_cu_scan<NESL_PAR>(rt, FoldS{ xd, y }, n, id);
    check_scan(y, "SCAN +");
    /* SCAN int + as generated code asks for it (NESL_COMM) */
    nesl_cu_scan<NESL_COMM>(rt, FoldS{ xd, y2 }, n, id);
    check_scan(y2, "SCAN + COMM");
    /* SCAN of affine maps (non-commutative, 8-byte values) */
    RA aid = { 1, 0 };
    nesl_cu_scan<NESL_PAR>(rt, AffS{ xd, y, y2 }, n, aid);
    {
        auto o0 = down(y, n), o1 = down(y2, n);
        uint32_t a = 1, b = 0;
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++) {
            if ((uint32_t)o0[i] != a || (uint32_t)o1[i] != b) bad = i;
            uint32_t xa = (uint32_t)(h[i] | 1), xb = (uint32_t)(h[i] >> 3);
            b = b * xa + xb;
            a = a * xa;
        }
        CHECK(bad < 0, "SCAN affine n=%lld at %lld", (long long)n, (long long)bad);
    }
    /* SCAN float +, fixed grouping: close to the sequential sum, bitwise
     * the same run to run */
    {
        double *fy = poisoned<double>(rt, n);
        RD fid = { 0.5 };
        nesl_cu_scan<NESL_FIXED>(rt, FSumS{ xd, fy }, n, fid);
        auto o = down(fy, n);
        nesl_cu_scan<NESL_FIXED>(rt, FSumS{ xd, fy }, n, fid);
        auto o2 = down(fy, n);
        double acc = 0.5, worst = 0;
        for (int64_t i = 0; i < n; i++) {
            worst = std::max(worst, fabs(o[i] - acc) / std::max(1.0, fabs(acc)));
            acc += h[i] * 0.001 + 0.1;
        }
        CHECK(worst < 1e-9 && memcmp(o.data(), o2.data(), sizeof(double) * n) == 0, "SCAN float n=%lld err %g", (long long)n, worst);
    }
    /* FILTER, PARTITION, SEG_FILTER's counts: random data (half kept) and
     * runs of 3000 kept then 3000 dropped (whole tiles of either) */
    std::vector<int32_t> hruns(h);
    for (int64_t i = 0; i < n; i++) hruns[i] = (h[i] & ~1) | (int32_t)(i / 3000 & 1);
    NeslVec *xrv = nesl_vec_from_host(rt, NESL_INT, n, hruns.data());
    for (int pat = 0; pat < 2; pat++) {
        const std::vector<int32_t> &hf = pat ? hruns : h;
        const int32_t *xf = pat ? (const int32_t *)xrv->data : xd;
        for (int part = 0; part < 2; part++) {
            int32_t *pre = poisoned<int32_t>(rt, n);
            FiltS fs = { xf, y, y2 };
            int64_t k = part ? nesl_cu_filter<COUNTS(true)>(rt, fs, n, pre) : nesl_cu_filter<COUNTS(false)>(rt, fs, n, pre);
            std::vector<int32_t> t, f, p;
            for (int64_t i = 0; i < n; i++) { p.push_back((int32_t)t.size()); ((hf[i] & 1) == 0 ? t : f).push_back(hf[i]); }
            p.push_back((int32_t)t.size());
            auto ot = down(y, (int64_t)t.size()), of = down(y2, (int64_t)f.size()), op = down(pre, n + 1);
            CHECK(k == (int64_t)t.size() && ot == t && (!part || of == f) && op == p, "%s pattern %d n=%lld kept %lld of %zu", part ? "PARTITION" : "FILTER", pat,
                  (long long)n, (long long)k, t.size());
        }
        /* FILTER without per-position counts (its own kernel, nesl_k_filter) */
        {
            int32_t *yt = poisoned<int32_t>(rt, n);
            FiltS fs = { xf, yt, y2 };
            int64_t k = nesl_cu_filter<false>(rt, fs, n, (int32_t *)NULL);
            std::vector<int32_t> t;
            for (int64_t i = 0; i < n; i++) if ((hf[i] & 1) == 0) t.push_back(hf[i]);
            auto ot = down(yt, (int64_t)t.size() + 1);
            bool tail = ot[t.size()] == (int32_t)0xA5A5A5A5;
            ot.pop_back();
            CHECK(k == (int64_t)t.size() && ot == t && tail, "FILTER (no counts) pattern %d n=%lld kept %lld of %zu", pat, (long long)n, (long long)k, t.size());
        }
        /* PARTITION without per-position counts: every element written once */
        {
            int32_t *yt = poisoned<int32_t>(rt, n), *yf = poisoned<int32_t>(rt, n);
            FiltS fs = { xf, yt, yf };
            int64_t k = nesl_cu_filter<true>(rt, fs, n, (int32_t *)NULL);
            std::vector<int32_t> t, f;
            for (int64_t i = 0; i < n; i++) ((hf[i] & 1) == 0 ? t : f).push_back(hf[i]);
            auto ot = down(yt, (int64_t)t.size() + 1), of = down(yf, (int64_t)f.size() + 1);
            bool tail = ot[t.size()] == (int32_t)0xA5A5A5A5 && of[f.size()] == (int32_t)0xA5A5A5A5;
            ot.pop_back();
            of.pop_back();
            CHECK(k == (int64_t)t.size() && ot == t && of == f && tail, "PARTITION (no counts) pattern %d n=%lld kept %lld of %zu", pat, (long long)n, (long long)k,
                  t.size());
        }
    }
    /* SEG_REDUCE, SEG_SCAN (int +, affine, float fixed) on several segment
     * shapes: short with empties; mostly empty; one long segment with
     * empties after it; segments of exactly one tile (heads at every tile's
     * first element); nsegs = 1; long segments ending on or next to tile
     * boundaries, empties there (tiles without heads, SEG_REDUCE's plain
     * path, that finish a segment and empties) */
    const int64_t shapes[][2] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 4096 }, { 3, std::max(n, (int64_t)1) }, { 4, 0 } };
    for (auto &sh : shapes) {
        int kind = (int)sh[0];
        auto lens = seg_lens(n, kind, sh[1]);
        int64_t ns = (int64_t)lens.size();
        NeslSd *sd = nesl_make_sd(rt, nesl_vec_from_host(rt, NESL_INT, ns, lens.data()));
        const int64_t *offs = nesl_sd_offs(rt, sd);
        std::vector<int64_t> off(ns + 1, 0);
        for (int64_t g = 0; g < ns; g++) off[g + 1] = off[g] + lens[g];
        int32_t *sr = poisoned<int32_t>(rt, ns), *sr2 = poisoned<int32_t>(rt, ns);
        nesl_cu_seg_fold<NESL_PAR>(rt, FoldS{ xd, sr }, n, ns, offs, id, false);
        nesl_cu_seg_fold<NESL_PAR>(rt, FoldS{ xd, y }, n, ns, offs, id, true);
        auto orr = down(sr, ns), osc = down(y, n);
        int64_t bad = -1, bads = -1;
        for (int64_t g = 0; g < ns; g++) {
            uint32_t acc = 7;
            for (int64_t i = off[g]; i < off[g + 1]; i++) { if ((uint32_t)osc[i] != acc && bads < 0) bads = i; acc = wadd(acc, h[i]); }
            if ((uint32_t)orr[g] != acc && bad < 0) bad = g;
        }
        CHECK(bad < 0 && bads < 0, "SEG + kind %d n=%lld nsegs=%lld reduce bad seg %lld scan bad elt %lld", kind, (long long)n, (long long)ns,
              (long long)bad, (long long)bads);
        nesl_cu_seg_fold<NESL_PAR>(rt, AffS{ xd, sr, sr2 }, n, ns, offs, aid, false);
        auto a0 = down(sr, ns), a1 = down(sr2, ns);
        bad = -1;
        for (int64_t g = 0; g < ns; g++) {
            uint32_t a = 1, b = 0;
            for (int64_t i = off[g]; i < off[g + 1]; i++) { uint32_t xa = (uint32_t)(h[i] | 1), xb = (uint32_t)(h[i] >> 3); b = b * xa + xb; a *= xa; }
            if (((uint32_t)a0[g] != a || (uint32_t)a1[g] != b) && bad < 0) bad = g;
        }
        CHECK(bad < 0, "SEG_REDUCE affine kind %d n=%lld bad seg %lld", kind, (long long)n, (long long)bad);
        double *fy = poisoned<double>(rt, n), *fr = poisoned<double>(rt, ns);
        RD fid = { 0.25 };
        nesl_cu_seg_fold<NESL_FIXED>(rt, FSumS{ xd, fy }, n, ns, offs, fid, true);
        nesl_cu_seg_fold<NESL_FIXED>(rt, FSumS{ xd, fr }, n, ns, offs, fid, false);
        auto fo = down(fy, n), fro = down(fr, ns);
        nesl_cu_seg_fold<NESL_FIXED>(rt, FSumS{ xd, fy }, n, ns, offs, fid, true);
        nesl_cu_seg_fold<NESL_FIXED>(rt, FSumS{ xd, fr }, n, ns, offs, fid, false);
        auto fo2 = down(fy, n), fro2 = down(fr, ns);   /* bitwise the same run to run */
        CHECK(memcmp(fo.data(), fo2.data(), sizeof(double) * n) == 0 && memcmp(fro.data(), fro2.data(), sizeof(double) * ns) == 0,
              "SEG float kind %d n=%lld: results differ between runs", kind, (long long)n);
        double worst = 0;
        for (int64_t g = 0; g < ns; g++) {
            double acc = 0.25;
            for (int64_t i = off[g]; i < off[g + 1]; i++) {
                worst = std::max(worst, fabs(fo[i] - acc) / std::max(1.0, fabs(acc)));
                acc += h[i] * 0.001 + 0.1;
            }
            worst = std::max(worst, fabs(fro[g] - acc) / std::max(1.0, fabs(acc)));
        }
        CHECK(worst < 1e-9, "SEG float kind %d n=%lld nsegs=%lld err %g", kind, (long long)n, (long long)ns, worst);
    }
    CK(cudaDeviceSynchronize());
    nesl_release(rt, mark, 0);
}

/* ---- timing ---- */
template <class F> static double median_s(F f, int reps = 25)
{
    static cudaEvent_t a, b;
    if (!a) { cudaEventCreate(&a); cudaEventCreate(&b); }
    f(); f(); f();
    std::vector<float> ms;
    for (int i = 0; i < reps; i++) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        ms.push_back(t);
    }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[reps / 2] / 1e3;
}

static double copy_gbs;
static bool use_cub = true;
/* CUB's time (0: skipped) */
template <class F> static double cub_s(F f) { return use_cub ? median_s(f) : 0; }
static void row(const char *what, int lg, double bytes, double ours, double cub)
{
    double g = bytes / ours / 1e9;
    printf("%-20s 2^%d  ours %8.3f ms %7.1f GB/s (%3.0f%% of copy)", what, lg, ours * 1e3, g, 100 * g / copy_gbs);
    if (cub > 0) printf("  CUB %8.3f ms %7.1f GB/s  ours/CUB %.2f", cub * 1e3, bytes / cub / 1e9, ours / cub);
    printf("\n");
}

/* The timed rows' data: n random ints on the device and two outputs. */
struct TimedInput {
    std::vector<int32_t> h;
    const int32_t *xd;
    int32_t *yd, *y2;
};

static TimedInput timed_input(NeslRt *rt, int64_t n)
{
    TimedInput in;
    in.h = rand_ints(n);
    in.xd = (const int32_t *)nesl_vec_from_host(rt, NESL_INT, n, in.h.data())->data;
    in.yd = (int32_t *)nesl_cu_tmp(rt, 4 * (size_t)n, false);
    in.y2 = (int32_t *)nesl_cu_tmp(rt, 4 * (size_t)n, false);
    return in;
}

static void bench(NeslRt *rt, int lg)
{
    int64_t n = (int64_t)1 << lg;
    size_t mark = nesl_mark(rt);
    TimedInput in = timed_input(rt, n);
    const int32_t *xd = in.xd;
    int32_t *yd = in.yd, *y2 = in.y2;
    double B = 4.0 * n;
    double cp = median_s([&] { cudaMemcpyAsync(yd, xd, B, cudaMemcpyDeviceToDevice); });
    copy_gbs = 2 * B / cp / 1e9;
    printf("%-20s 2^%d  %8.3f ms %7.1f GB/s (read + write)\n", "copy", lg, cp * 1e3, copy_gbs);
    size_t tb = 0, t2 = 0;
    int32_t *o = (int32_t *)nesl_cu_tmp(rt, 64, false);
    int64_t *no = (int64_t *)nesl_cu_tmp(rt, 64, false);
    cub::DeviceReduce::Sum(NULL, tb, xd, o, n);
    cub::DeviceScan::ExclusiveSum(NULL, t2, xd, yd, n); tb = std::max(tb, t2);
    cub::DeviceSelect::If(NULL, t2, xd, yd, no, n, Even()); tb = std::max(tb, t2);
    cub::DevicePartition::If(NULL, t2, xd, yd, no, n, Even()); tb = std::max(tb, t2);
    void *tmp = nesl_cu_tmp(rt, tb + 16, false);
    R id = { 0 };
    double ours = median_s([&] { nesl_cu_map(rt, MapS{ xd, yd }, n); });
    row("MAP x+1", lg, 2 * B, ours, cp);
    ours = median_s([&] { (void)nesl_cu_reduce<NESL_PAR>(rt, FoldS{ xd, yd }, n, id); });
    double cub = cub_s([&] { size_t b = tb; int32_t r; cub::DeviceReduce::Sum(tmp, b, xd, o, n); cudaMemcpy(&r, o, 4, cudaMemcpyDeviceToHost); });
    row("REDUCE + (to host)", lg, B, ours, cub);
    ours = median_s([&] { (void)nesl_cu_reduce<NESL_COMM>(rt, FoldS{ xd, yd }, n, id); });
    row("REDUCE + striped", lg, B, ours, cub);
    ours = median_s([&] { nesl_cu_scan<NESL_PAR>(rt, FoldS{ xd, yd }, n, id); });
    cub = cub_s([&] { size_t b = tb; cub::DeviceScan::ExclusiveSum(tmp, b, xd, yd, n); });
    row("SCAN + exclusive", lg, 2 * B, ours, cub);
    ours = median_s([&] { nesl_cu_scan<NESL_COMM>(rt, FoldS{ xd, yd }, n, id); });
    row("SCAN + (COMM)", lg, 2 * B, ours, cub);
    RD fid = { 0 };
    double *fd = (double *)nesl_cu_tmp(rt, 8 * (size_t)n, false);
    ours = median_s([&] { nesl_cu_scan<NESL_FIXED>(rt, FSumS{ xd, fd }, n, fid); });
    row("SCAN float (fixed)", lg, 3 * B, ours, 0);
    int64_t kept = 0;
    FiltS fs = { xd, yd, y2 };
    ours = median_s([&] { kept = nesl_cu_filter<false>(rt, fs, n, (int32_t *)NULL); });
    cub = cub_s([&] { size_t b = tb; int64_t k; cub::DeviceSelect::If(tmp, b, xd, yd, no, n, Even()); cudaMemcpy(&k, no, 8, cudaMemcpyDeviceToHost); });
    row("FILTER even", lg, B + 4.0 * kept, ours, cub);
    {
        int32_t *pre = (int32_t *)nesl_cu_tmp(rt, 4 * (size_t)(n + 1), false);
        ours = median_s([&] { kept = nesl_cu_filter<COUNTS(false)>(rt, fs, n, pre); });
        row("FILTER + counts", lg, B + 4.0 * kept + 4.0 * n, ours, 0);
    }
    ours = median_s([&] { kept = nesl_cu_filter<true>(rt, fs, n, (int32_t *)NULL); });
    cub = cub_s([&] { size_t b = tb; int64_t k; cub::DevicePartition::If(tmp, b, xd, yd, no, n, Even()); cudaMemcpy(&k, no, 8, cudaMemcpyDeviceToHost); });
    row("PARTITION even", lg, 2 * B, ours, cub);
    for (int mean : { 4, 1000000 }) {
        auto lens = seg_lens(n, 3, mean);
        int64_t ns = (int64_t)lens.size();
        NeslSd *sd = nesl_make_sd(rt, nesl_vec_from_host(rt, NESL_INT, ns, lens.data()));
        const int64_t *offs = nesl_sd_offs(rt, sd);
        const int32_t *ids = nesl_sd_segids(rt, sd);   /* CUB's scan-by-key keys */
        int32_t *sr = (int32_t *)nesl_cu_tmp(rt, 4 * (size_t)ns, false);
        ours = median_s([&] { nesl_cu_seg_fold<NESL_PAR>(rt, FoldS{ xd, sr }, n, ns, offs, id, false); });
        size_t b = 0;
        cub::DeviceSegmentedReduce::Sum(NULL, b, xd, sr, (int)ns, offs, offs + 1);
        void *st = nesl_cu_tmp(rt, b + 16, false);
        cub = cub_s([&] { size_t bb = b; cub::DeviceSegmentedReduce::Sum(st, bb, xd, sr, (int)ns, offs, offs + 1); });
        char name[64];
        snprintf(name, sizeof name, "SEG_REDUCE mean %d", mean);
        row(name, lg, B + 4.0 * ns, ours, cub);
        ours = median_s([&] { nesl_cu_seg_fold<NESL_PAR>(rt, FoldS{ xd, yd }, n, ns, offs, id, true); });
        size_t b2 = 0;
        cub::DeviceScan::ExclusiveSumByKey(NULL, b2, ids, xd, yd, (int)n);
        void *st2 = nesl_cu_tmp(rt, b2 + 16, false);
        cub = cub_s([&] { size_t bb = b2; cub::DeviceScan::ExclusiveSumByKey(st2, bb, ids, xd, yd, (int)n); });
        snprintf(name, sizeof name, "SEG_SCAN mean %d", mean);
        row(name, lg, 2 * B, ours, cub);
    }
    CK(cudaDeviceSynchronize());
    nesl_release(rt, mark, 0);
}

#ifdef NESL_SCAN_PROF
/* Per-tile phase times of one launch (rt/nesl_cuda_scan.cuh, NESL_PROF). */
static void prof_report(const char *what, const std::vector<unsigned long long> &b, int64_t ntiles, double kernel_s, int sms)
{
    const char *names[4] = { "start->loads landed", "->aggregate known", "->prefix known", "->end" };
    std::vector<double> d[6];
    double wall = 0, cyc = 0, reads = 0, maxreads = 0;
    for (int64_t i = 0; i < ntiles; i++) {
        const unsigned long long *r = &b[i * 16];
        for (int k = 0; k < 4; k++) d[k].push_back((double)(long long)(r[k + 2] - r[k + 1]));
        d[4].push_back((double)(long long)(r[5] - r[1]));
        d[5].push_back((double)(long long)(r[8] - r[0]));
        wall += (double)(long long)(r[8] - r[0]);
        cyc += (double)(long long)(r[5] - r[1]);
        reads += (double)r[6];
        maxreads = std::max(maxreads, (double)r[6]);
    }
    double ghz = cyc / wall;
    printf("prof %s: %lld tiles, kernel %.3f ms, SM clock %.2f GHz, resident tiles per SM %.2f, look-back read rounds mean %.2f max %.0f\n", what,
           (long long)ntiles, kernel_s * 1e3, ghz, wall / (kernel_s * 1e9 * sms), reads / (double)ntiles, maxreads);
    for (int k = 0; k < 5; k++) {
        std::vector<double> &v = d[k];
        std::sort(v.begin(), v.end());
        double m = 0;
        for (double x : v) m += x;
        m /= (double)v.size();
        printf("  %-22s mean %7.0f ns  p10 %7.0f  p50 %7.0f  p90 %7.0f  p99 %7.0f\n", k < 4 ? names[k] : "total (clock)", m / ghz,
               v[v.size() / 10] / ghz, v[v.size() / 2] / ghz, v[v.size() * 9 / 10] / ghz, v[v.size() * 99 / 100] / ghz);
    }
}

template <class F> static void prof_one(const char *what, int64_t ntiles, int sms, F f)
{
    unsigned long long *buf = (unsigned long long *)nullptr;
    CK(cudaMalloc(&buf, 16 * 8 * (size_t)ntiles));
    CK(cudaMemset(buf, 0, 16 * 8 * (size_t)ntiles));
    f();
    f();
    CK(cudaMemcpyToSymbol(nesl_prof, &buf, sizeof buf));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    CK(cudaEventSynchronize(b));
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    unsigned long long *none = nullptr;
    CK(cudaMemcpyToSymbol(nesl_prof, &none, sizeof none));
    std::vector<unsigned long long> h(16 * (size_t)ntiles);
    CK(cudaMemcpy(h.data(), buf, 16 * 8 * (size_t)ntiles, cudaMemcpyDeviceToHost));
    CK(cudaFree(buf));
    prof_report(what, h, ntiles, ms / 1e3, sms);
}

static void prof(NeslRt *rt, int lg, int sms)
{
    int64_t n = (int64_t)1 << lg;
    size_t mark = nesl_mark(rt);
    TimedInput in = timed_input(rt, n);
    const int32_t *xd = in.xd;
    int32_t *yd = in.yd, *y2 = in.y2;
    R id = { 0 };
    typedef NeslScanP<FoldS, R>::Shape SS;
    typedef NeslFilterP<FiltS, R, false, false>::Shape FS;
    printf("SCAN shape %d x %d (tile %d), FILTER shape %d x %d (tile %d)\n", (int)SS::SB, (int)SS::IPT, (int)SS::TILE, (int)FS::SB,
           (int)FS::IPT, (int)FS::TILE);
    prof_one("SCAN + (COMM)", (n + SS::TILE - 1) / SS::TILE, sms, [&] { nesl_cu_scan<NESL_COMM>(rt, FoldS{ xd, yd }, n, id); });
    FiltS fs = { xd, yd, y2 };
    prof_one("FILTER even", (n + FS::TILE - 1) / FS::TILE, sms, [&] { (void)nesl_cu_filter<false>(rt, fs, n, (int32_t *)NULL); });
    CK(cudaDeviceSynchronize());
    nesl_release(rt, mark, 0);
}
#endif

int main(int argc, char **argv)
{
    char *av[] = { argv[0] };
    NeslRt *rt = nesl_rt_new(1, av, 0, NULL);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const int64_t sizes[] = { 0, 1, 2, 33, 255, 3071, 3072, 3073, 4095, 4096, 4097, 6145, 8191, 12345, 65536 * 3 + 1, (1 << 20) + 7, 3000017, 20000003 };
    bool check = true, profile = false;
    for (int a = 1; a < argc; a++) {
        check = check && strcmp(argv[a], "nocheck");
        use_cub = use_cub && strcmp(argv[a], "nocub");
        profile = profile || !strcmp(argv[a], "prof");
    }
    if (check) {
        for (int64_t n : sizes) check_size(rt, n);
        printf("checks: %d failed\n", failures);
    }
    for (int a = 1; a < argc; a++)
        if (atoi(argv[a]) > 0) {
#ifdef NESL_SCAN_PROF
            if (profile) {
                prof(rt, atoi(argv[a]), p.multiProcessorCount);
                continue;
            }
#endif
            bench(rt, atoi(argv[a]));
        }
    (void)profile;
    nesl_rt_free(rt);
    return failures ? 1 : 0;
}
