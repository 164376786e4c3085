// block_pass.cu — what one pass of a flattened program costs when a whole
// block runs it, between __syncthreads, instead of a kernel launch.  A
// measurement for issue #6 (bench/RESULTS.md, session 38), not part of the
// compiler.
//
// A block-local tail (doc/decisions.md) would run a recursive lifted
// function's λcu inside one block for a group of calls of at most B
// elements: every SOAC and descriptor operation of a level becomes one or
// a few block-wide passes over the block's arrays, with a barrier between
// passes, instead of a launch of about 5 us.  Quicksort's level is ~16 such
// operations, Barnes-Hut's tree level ~35; the tail runs the levels left
// once the calls fit (bench/recursion_levels.py).  Whether the tail pays
// depends on what a pass costs, measured here for the passes a level is
// made of, on arrays of B ints in the block's own region of global memory
// (an arena, as generated code would have: L1/L2-resident) and, for
// comparison, in shared memory:
//   map     y[i] = x[i] * 3 + 1
//   gather  y[i] = x[off[sid[i]] + (i - st[sid[i]])], the segment id
//           stored (a MAP by segment: three dependent loads)
//   scan    y = exclusive plus-scan of x (CUB: BlockLoad and BlockStore
//           through shared memory, so global accesses coalesce; BlockScan
//           of B / 256 items a thread)
//   filter  the x[i] < pivot kept, in order, into y (the same load,
//           flags, BlockScan, scatter) and the count
// One kernel runs P passes of a kind (P = 1000), G blocks at once: G = 1
// is a pass's latency, G = 528 (4 blocks an SM of 132) the same with the
// GPU full (and G = 264 between).  The time a pass is the kernel's (CUDA events, median of 5
// after a warm-up) over P.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -o block_pass bench/cuda/block_pass.cu
//   ./block_pass
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { NT = 256, BMAX = 4096 };
enum Kind { MAP, GATHER, SCAN, FILTER, NKINDS };

typedef cub::BlockScan<int, NT> Scan;

// A thread's ITEMS consecutive elements of v (a "blocked" arrangement, the
// order a scan needs), loaded and stored through shared memory a warp at a
// time so that global accesses coalesce (CUB's WARP_TRANSPOSE); from
// shared memory directly (room for x, y and a transpose would pass 48 KB).
template <int ITEMS, bool SHARED> struct Io {
    typedef cub::BlockLoad<int, NT, ITEMS, SHARED ? cub::BLOCK_LOAD_DIRECT : cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockStore<int, NT, ITEMS, SHARED ? cub::BLOCK_STORE_DIRECT : cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    union Temp {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        Scan::TempStorage scan;
    };
};
// One pass of kind K over the block's arrays (x, y, sid, off, st: B =
// NT * ITEMS ints each), then a barrier.  The arrays swap between passes.
template <Kind K, int ITEMS, bool SHARED> __device__ void pass(int *&x, int *&y, const int *sid, const int *off, const int *st,
                                                               typename Io<ITEMS, SHARED>::Temp &ts, int *count)
{
    enum { B = NT * ITEMS };
    typedef Io<ITEMS, SHARED> IO;
    if (K == MAP) {
        for (int i = threadIdx.x; i < B; i += NT) y[i] = x[i] * 3 + 1;
    } else if (K == GATHER) {
        for (int i = threadIdx.x; i < B; i += NT) {
            int g = sid[i];
            y[i] = x[off[g] + (i - st[g])];
        }
    } else if (K == SCAN) {
        int v[ITEMS];
        typename IO::Load(ts.load).Load(x, v);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < ITEMS; k++) v[k] &= 7;
        Scan(ts.scan).ExclusiveSum(v, v);
        __syncthreads();
        typename IO::Store(ts.store).Store(y, v);
    } else {
        int v[ITEMS], f[ITEMS];
        int pivot = x[B / 2];
        typename IO::Load(ts.load).Load(x, v);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < ITEMS; k++) f[k] = v[k] < pivot;
        int total;
        Scan(ts.scan).ExclusiveSum(f, f, total);
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            if (v[k] < pivot) y[f[k]] = v[k];
        for (int i = total + threadIdx.x; i < B; i += NT) y[i] = x[i];   // y stays B long for the next pass
        if (threadIdx.x == 0) *count += total;
    }
    __syncthreads();
    int *t = x;
    x = y;
    y = t;
}

// P passes of kind K; arrays in global memory (the block's region of
// arena, 5 * B ints a block) or, SHARED, x and y in shared memory.
template <Kind K, int ITEMS, bool SHARED> __global__ void __launch_bounds__(NT) passes(int P, int *arena, int *out)
{
    enum { B = NT * ITEMS };
    __shared__ typename Io<ITEMS, SHARED>::Temp ts;
    __shared__ int sx[SHARED ? B : 1], sy[SHARED ? B : 1];
    __shared__ int count;
    int *r = arena + (size_t)blockIdx.x * 5 * B;
    int *x = SHARED ? sx : r, *y = SHARED ? sy : r + B;
    const int *sid = r + 2 * B, *off = r + 3 * B, *st = r + 4 * B;
    if (SHARED)
        for (int i = threadIdx.x; i < B; i += NT) sx[i] = r[i];
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    for (int p = 0; p < P; p++) pass<K, ITEMS, SHARED>(x, y, sid, off, st, ts, &count);
    if (threadIdx.x == 0) out[blockIdx.x] = x[B / 3] + count;   // keeps the passes from being dead code
}

// Segments of 16 elements: sid[i] = i / 16, st[g] = 16 g, off[g] = the
// same segment's start in x (a permutation of the segments, so the loads
// go elsewhere than i).
static void fill(std::vector<int> &h, int B, int G)
{
    for (int b = 0; b < G; b++) {
        int *r = &h[(size_t)b * 5 * B];
        int nseg = B / 16;
        for (int i = 0; i < B; i++) r[i] = (int)((i * 2654435761u) >> 4) & 0xfffff;
        for (int i = 0; i < B; i++) r[2 * B + i] = i / 16;
        for (int g = 0; g < nseg; g++) {
            r[4 * B + g] = 16 * g;
            r[3 * B + g] = 16 * ((g * 37 + 11) % nseg);
        }
    }
}

// The median of 5 timings (CUDA events) of run(), after one, over P: us each.
template <class Run> static float median_us(int P, Run run)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    run();   // warm-up
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < 5; r++) {
        CK(cudaEventRecord(a));
        run();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms[2] * 1e3f / P;
}

template <Kind K, int ITEMS, bool SHARED> static float time_passes(int G, int P, int *arena, int *out)
{
    return median_us(P, [&] { passes<K, ITEMS, SHARED><<<G, NT>>>(P, arena, out); });
}

template <int ITEMS, bool SHARED> static void row(int G, int P, int *arena, int *out)
{
    printf("  B %4d  G %3d  %-6s", NT * ITEMS, G, SHARED ? "shared" : "global");
    printf("  map %6.2f  gather %6.2f  scan %6.2f  filter %6.2f us a pass\n", time_passes<MAP, ITEMS, SHARED>(G, P, arena, out),
           SHARED ? 0.0f : time_passes<GATHER, ITEMS, SHARED>(G, P, arena, out), time_passes<SCAN, ITEMS, SHARED>(G, P, arena, out),
           time_passes<FILTER, ITEMS, SHARED>(G, P, arena, out));
}

template <int ITEMS> static void rows(int full, int P, int *arena, int *out, std::vector<int> &h)
{
    for (int G : { 1, full / 2, full }) {
        fill(h, NT * ITEMS, G);
        CK(cudaMemcpy(arena, h.data(), (size_t)G * 5 * NT * ITEMS * sizeof(int), cudaMemcpyHostToDevice));
        row<ITEMS, false>(G, P, arena, out);
        row<ITEMS, true>(G, P, arena, out);
    }
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int full = 4 * prop.multiProcessorCount, P = 1000;
    printf("%s, %d SMs: one kernel of P = %d block-wide passes, %d threads a block, G blocks at once\n",
           prop.name, prop.multiProcessorCount, P, NT);
    size_t n = (size_t)full * 5 * BMAX;
    int *arena, *out;
    CK(cudaMalloc(&arena, n * sizeof(int)));
    CK(cudaMalloc(&out, full * sizeof(int)));
    std::vector<int> h(n);
    rows<2>(full, P, arena, out, h);
    rows<4>(full, P, arena, out, h);
    rows<8>(full, P, arena, out, h);
    rows<16>(full, P, arena, out, h);
    // For scale: the same pass as a kernel of its own, launched back to back.
    float launch = median_us(P, [&] {
        for (int p = 0; p < P; p++) passes<MAP, 2, false><<<1, NT>>>(1, arena, out);
    });
    printf("for scale: %d back-to-back launches of one map pass over 512 elements: %.2f us a launch\n", P, launch);
    CK(cudaFree(arena));
    CK(cudaFree(out));
    return 0;
}
