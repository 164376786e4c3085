// bench/base/bench.cuh — shared by the hand-written CUDA baselines: error
// checks, the input hash (the same bits as bench/progs/common.nesl and
// bench/ref.py), event timing with warm-up and median, the output lines the
// harness parses:
//   checksum: V1 V2 ...      (the NESL program's checksum, same order)
//   baseline-ms: T           (median of REPS timed runs after WARM warm-ups)
//   baseline-bytes: B        (bytes the computation must move, README.md)
#pragma once
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#define CK(call) bench_check((call), #call, __FILE__, __LINE__)
#define CKL() CK(cudaGetLastError())

static inline void bench_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
        exit(1);
    }
}

// NESL's hash(i) (bench/progs/common.nesl): 32-bit wrapping arithmetic; the
// masks keep values non-negative so that >> is the same as NESL's rshift.
__host__ __device__ inline int32_t bench_hash(int32_t i)
{
    uint32_t a = ((uint32_t)i * 1103515245u + 12345u) & 0x7fffffffu;
    uint32_t b = a ^ (a >> 15);
    uint32_t c = (b * 668265261u) & 0x7fffffffu;
    return (int32_t)(c ^ (c >> 16));
}

// NESL rem: C's remainder (sign of the dividend).
__host__ __device__ inline int32_t bench_rem(int32_t a, int32_t b) { return a % b; }

// out[i] = f(i) for i in [0, n).
template <class T, class F>
__global__ void bench_fill_kernel(T *out, int64_t n, F f)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        out[i] = f(i);
}

template <class T, class F>
void bench_fill(T *out, int64_t n, F f)
{
    if (n == 0)
        return;
    int64_t blocks = std::min<int64_t>((n + 255) / 256, 65536);
    bench_fill_kernel<<<(unsigned)blocks, 256>>>(out, n, f);
    CKL();
}

template <class T>
T *bench_alloc(int64_t n)
{
    T *p = nullptr;
    CK(cudaMalloc(&p, std::max<int64_t>(n, 1) * sizeof(T)));
    return p;
}

template <class T>
T bench_get(const T *d, int64_t i)
{
    T v;
    CK(cudaMemcpy(&v, d + i, sizeof(T), cudaMemcpyDeviceToHost));
    return v;
}

// Median time in ms of `run` over reps timed runs, after warm warm-up runs;
// `prep` runs before each run outside the timed region (e.g. restoring an
// input that the run overwrites).
template <class Prep, class Run>
double bench_time(Prep prep, Run run, int warm = 2, int reps = 11)
{
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    for (int r = 0; r < warm; r++) {
        prep();
        run();
    }
    CK(cudaDeviceSynchronize());
    CKL();
    std::vector<float> ms;
    for (int r = 0; r < reps; r++) {
        prep();
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(start));
        run();
        CK(cudaEventRecord(stop));
        CK(cudaEventSynchronize(stop));
        CKL();
        float t;
        CK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    return ms[ms.size() / 2];
}

template <class Run>
double bench_time(Run run)
{
    return bench_time([] {}, run);
}

static inline void bench_report(double ms, double bytes)
{
    printf("baseline-ms: %.6f\nbaseline-bytes: %.0f\n", ms, bytes);
}

// sum over i of f(i), 32-bit wrapping (NESL's int sum).
template <class F>
int32_t bench_wsum(int64_t n, F f)
{
    uint32_t s = thrust::transform_reduce(thrust::device, thrust::counting_iterator<int64_t>(0),
                                          thrust::counting_iterator<int64_t>(n), f, 0u,
                                          thrust::plus<uint32_t>());
    return (int32_t)s;
}

// sum({y * (1 + (i and 7)) : y in ys; i in [0:n]}) with wrapping.
static inline int32_t bench_weighted(const int32_t *ys, int64_t n)
{
    return bench_wsum(n, [=] __device__(int64_t i) -> uint32_t {
        return (uint32_t)ys[i] * (uint32_t)(1 + (i & 7));
    });
}

// float sum in float, as NESL's sum under -ffloat32 (any order).
template <class F>
float bench_fsum(int64_t n, F f)
{
    return thrust::transform_reduce(thrust::device, thrust::counting_iterator<int64_t>(0),
                                    thrust::counting_iterator<int64_t>(n), f, 0.0f,
                                    thrust::plus<float>());
}

static inline int64_t bench_arg(int argc, char **argv, int k, const char *usage)
{
    if (argc <= k) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    return atoll(argv[k]);
}

// Thrust temporary storage from blocks kept between calls, so that no
// cudaMalloc/cudaFree is timed: thrust::cuda::par(alloc).
struct CachingAllocator {
    typedef char value_type;
    std::multimap<std::ptrdiff_t, char *> free_blocks;
    std::map<char *, std::ptrdiff_t> used;
    char *allocate(std::ptrdiff_t bytes)
    {
        auto it = free_blocks.lower_bound(bytes);
        char *p;
        if (it != free_blocks.end()) {
            p = it->second;
            bytes = it->first;
            free_blocks.erase(it);
        } else {
            CK(cudaMalloc(&p, bytes));
        }
        used[p] = bytes;
        return p;
    }
    void deallocate(char *p, size_t)
    {
        free_blocks.insert({used[p], p});
        used.erase(p);
    }
};
