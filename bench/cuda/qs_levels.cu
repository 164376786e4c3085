// qs_levels.cu — how fast can a *flattened* quicksort be on this GPU when its
// recursion is driven from the device instead of the host, and when the
// parts below a block's size are sorted inside one block?  A measurement
// for issue #6, not part of the compiler: nesslc's quicksort is launch- and
// wait-bound (hundreds of launches and ~150 host waits a sort), and the
// architectural changes that would remove that cost are each a new level of
// code generation.  This program measures what they could reach before
// anyone builds them (bench/RESULTS.md, session 36; doc/decisions.md).
//
// The algorithm is the flattened one nesslc runs: all segments of a
// recursion level at once, three-way split around each segment's middle
// element, segments of fewer than two elements (and each `equal` part)
// finished.  It is idealised in the compiler's favour: the split is in
// place (no concatenation on the way back up, no packing of the finished
// segments' elements), and a level is three passes:
//   count   — per element: its segment (a search in the block's part of the
//             level's segment table), its class (<, =, > the pivot); counts
//             per segment and class by warp-aggregated atomics (on shared
//             counters when a block's chunk lies in one segment);
//   carve   — per segment: the three parts' bases; the new level's table
//             (parts of more than `tail` elements) appended a warp at a time
//             by a 64-bit atomic that returns the table's count and the
//             running element total at once, so its prefix sums stay
//             monotone; smaller parts of >= 2 elements to the tail's list;
//   scatter — per element: its place by warp-aggregated atomics on the
//             bases; elements of recursing parts to the next level's keys,
//             the others to the output; and the new table's chunk index.
// With the tail on (tail = 2048 or 4096), each listed part is then sorted by
// one block (CUB's block radix sort); off (tail = 1), every part recurses.
// Two drivers run the same passes: one cooperative kernel looping over the
// levels with grid.sync() between passes (sizes never leave the device;
// optionally the count's last block does the carve, one grid.sync fewer a
// level), and the host launching three kernels a level and reading the new
// table's size back once a level (the least a host-driven recursion can do).
//
//   nvcc -O2 -std=c++17 -arch=sm_90 --extended-lambda -o qs_levels bench/cuda/qs_levels.cu
//   ./qs_levels 1000 1000000 10000000
// Output: per size, thrust::sort's time; for each tail setting, the
// device-driven kernel at 1, 2, 4 and all co-resident blocks a SM (with a
// tail, also in 2 passes at all of them) and the host-driven loop: median time (CUDA events, 2 warm-ups, 11 runs), level
// count, and whether the output equals thrust's; one traced run splits the
// device-driven time into its passes (block 0's %globaltimer after each
// grid.sync).  QS_QUICK=1: one run of each driver with the tail, for
// compute-sanitizer at large sizes.
#include "../base/bench.cuh"
#include <cooperative_groups.h>
#include <cub/block/block_radix_sort.cuh>
#include <thrust/sort.h>
#include <climits>
#include <cstring>

namespace cg = cooperative_groups;

constexpr int TPB = 256, ITEMS = 8, CHUNK = TPB * ITEMS;
constexpr unsigned long long TOTAL_MASK = (1ull << 40) - 1;

// A level's segment table.  head = count << 40 | total elements.
struct Table {
    int *start, *len, *pre, *cnt; // cnt: 3 counts, then reused as 3 bases
    int *chunk_seg;               // the segment of element c * CHUNK
    unsigned long long *head;
};

struct State {
    int *keys[2];
    int *out;
    Table tab[2];
    int *levels;
    int tail;                // parts of at most this many elements: block-local
    int *small_start, *small_len, *nsmall;
    unsigned long long *trace; // null, or per level m and 3 pass ends (ns)
    int carve_last;            // device-driven: the count's last block carves
    unsigned *done;            // (its counter of finished blocks)
};

__device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Block 0's clock after a grid.sync: when the pass before it ended.
__device__ void stamp(const State &S, int k, unsigned long long v)
{
    if (S.trace && blockIdx.x == 0 && threadIdx.x == 0)
        S.trace[k] = v;
}

// The segment of element j: the last entry whose prefix is <= j.
__device__ int seg_search(const int *pre, int lo, int hi, int j)
{
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (pre[mid] <= j) lo = mid; else hi = mid;
    }
    return lo;
}

// The block's part of the table for elements [j0, jend): segments s0..s1,
// their prefixes and pivots in shared memory.
struct Part {
    int s0, s1;
    int blk[3], gbase[3]; // a one-segment chunk's counts and global bases
    int last;             // this block finished the count last
    int pre[CHUNK + 1], piv[CHUNK + 1], start[CHUNK + 1];
};

// The chunk's first and last segment from the table's chunk index, not a
// binary search over the whole table: ~20 dependent loads the whole block
// would wait for at every chunk.
__device__ void find_part(Part &p, const Table &t, int nseg, int m, int j0, int jend)
{
    if (threadIdx.x == 0) {
        int c = j0 / CHUNK, s1 = nseg - 1;
        p.s0 = t.chunk_seg[c];
        if (jend < m && s1 > p.s0) {
            s1 = t.chunk_seg[c + 1];
            if (t.pre[s1] > jend - 1)
                s1--;
        }
        p.s1 = s1;
    }
    if (threadIdx.x < 3)
        p.blk[threadIdx.x] = 0;
    __syncthreads();
}

// A segment's length comes from the prefixes, not len: after carve, len
// holds which parts recurse (copied to recurse when it is not null).
__device__ void load_part(Part &p, const Table &t, const int *keys, int nseg, int m, int j0, int jend,
                          int *recurse)
{
    find_part(p, t, nseg, m, j0, jend);
    for (int s = p.s0 + threadIdx.x; s <= p.s1; s += TPB) {
        int st = t.start[s], end = s + 1 < nseg ? t.pre[s + 1] : m;
        p.pre[s - p.s0] = t.pre[s];
        p.start[s - p.s0] = st;
        p.piv[s - p.s0] = keys[st + (end - t.pre[s]) / 2];
        if (recurse)
            recurse[s - p.s0] = t.len[s];
    }
    __syncthreads();
}

// Element j's segment (relative to s0), its key and class.
__device__ void element(const Part &p, const int *keys, int j, int &ls, int &key, int &cls)
{
    ls = p.s0 == p.s1 ? 0 : seg_search(p.pre, 0, p.s1 - p.s0 + 1, j);
    key = keys[p.start[ls] + (j - p.pre[ls])];
    int piv = p.piv[ls];
    cls = key < piv ? 0 : key == piv ? 1 : 2;
}

// A thread's elements of the chunk, all loads issued before any is used (a
// load, a warp vote, a load... left each warp one load in flight).
__device__ void load_items(const Part &p, const int *keys, int j0, int jend, int *ls, int *key, int *cls)
{
    for (int it = 0; it < ITEMS; it++) {
        int j = j0 + it * TPB + threadIdx.x;
        ls[it] = key[it] = cls[it] = 0;
        if (j < jend)
            element(p, keys, j, ls[it], key[it], cls[it]);
    }
}

// Room for a warp's elements of one (segment, class): one atomic a warp,
// on the block's shared counters when the chunk lies in one segment (the
// top levels, where a global counter would take every warp's atomic), else
// on the segment's global counter.  Returns the lane's offset: from the
// block's count (to add to p.gbase later) or the global base.
__device__ int reserve(Part &p, const Table &t, bool ok, int ls, int cls)
{
    unsigned peers = __match_any_sync(0xffffffffu, ok ? ls * 3 + cls : -1);
    int lane = threadIdx.x & 31, leader = __ffs(peers) - 1, base = 0;
    if (ok && lane == leader)
        base = p.s0 == p.s1 ? atomicAdd(&p.blk[cls], __popc(peers))
                            : atomicAdd(&t.cnt[(p.s0 + ls) * 3 + cls], __popc(peers));
    base = __shfl_sync(0xffffffffu, base, leader);
    return base + __popc(peers & ((1u << lane) - 1));
}

__device__ void pass_count(Part &p, const State &S, int cur, int nseg, int m)
{
    const Table &t = S.tab[cur];
    const int *keys = S.keys[cur];
    for (int j0 = blockIdx.x * CHUNK; j0 < m; j0 += gridDim.x * CHUNK) {
        int jend = min(j0 + CHUNK, m);
        load_part(p, t, keys, nseg, m, j0, jend, nullptr);
        int ls[ITEMS], key[ITEMS], cls[ITEMS];
        load_items(p, keys, j0, jend, ls, key, cls);
        for (int it = 0; it < ITEMS; it++)
            reserve(p, t, j0 + it * TPB + (int)threadIdx.x < jend, ls[it], cls[it]);
        __syncthreads();
        if (p.s0 == p.s1 && threadIdx.x < 3)
            atomicAdd(&t.cnt[p.s0 * 3 + threadIdx.x], p.blk[threadIdx.x]);
        __syncthreads();
    }
}

// Room in a counter for a warp's additions with one atomic: the lane's
// exclusive prefix plus the counter's old value (all lanes must call).
template <class T>
__device__ T warp_reserve(T *counter, T v)
{
    int lane = threadIdx.x & 31;
    T inc = v;
    for (int d = 1; d < 32; d <<= 1) {
        T y = __shfl_up_sync(0xffffffffu, inc, d);
        if (lane >= d)
            inc += y;
    }
    T total = __shfl_sync(0xffffffffu, inc, 31), base = 0;
    if (lane == 31 && total != 0)
        base = atomicAdd(counter, total);
    base = __shfl_sync(0xffffffffu, base, 31);
    return base + inc - v;
}

__device__ unsigned long long seg_word(int len) { return (1ull << 40) | (unsigned long long)len; }

// A new table's entry at `at` (its count << 40 | its element prefix).
__device__ void put_segment(const Table &nt, unsigned long long at, int start, int len)
{
    int idx = (int)(at >> 40);
    nt.pre[idx] = (int)(at & TOTAL_MASK);
    nt.start[idx] = start;
    nt.len[idx] = len;
    nt.cnt[idx * 3] = nt.cnt[idx * 3 + 1] = nt.cnt[idx * 3 + 2] = 0;
}

__device__ void put_small(const State &S, int idx, int start, int len)
{
    S.small_start[idx] = start;
    S.small_len[idx] = len;
}

// Per segment: the three parts' bases; the parts of more than S.tail
// elements into the new table, the other parts of >= 2 into the tail's list.
// Counters are reserved a warp at a time: one atomic a thread on the
// table's head was 5 ms of a 10^7 sort's 11 (a million segments a level).
__device__ void pass_carve(const State &S, int cur, int nseg, int block, int nblocks)
{
    const Table &t = S.tab[cur], &nt = S.tab[cur ^ 1];
    for (int b = block * TPB; b < nseg; b += nblocks * TPB) {
        int s = b + threadIdx.x, lt = 0, eq = 0, gt = 0, st = 0;
        if (s < nseg) {   // (the counts past L1: other blocks' atomics made them)
            lt = __ldcg(&t.cnt[s * 3]), eq = __ldcg(&t.cnt[s * 3 + 1]), gt = __ldcg(&t.cnt[s * 3 + 2]);
            st = t.start[s];
            t.cnt[s * 3] = st;
            t.cnt[s * 3 + 1] = st + lt;
            t.cnt[s * 3 + 2] = st + lt + eq;
        }
        bool big_lt = lt > S.tail, big_gt = gt > S.tail;
        bool small_lt = !big_lt && lt >= 2, small_gt = !big_gt && gt >= 2;
        if (s < nseg)
            t.len[s] = (big_lt ? 1 : 0) | (big_gt ? 4 : 0); // which parts recurse
        unsigned long long at = warp_reserve(nt.head, (big_lt ? seg_word(lt) : 0) + (big_gt ? seg_word(gt) : 0));
        if (big_lt) {
            put_segment(nt, at, st, lt);
            at += seg_word(lt);
        }
        if (big_gt)
            put_segment(nt, at, st + lt + eq, gt);
        int k = warp_reserve(S.nsmall, (int)small_lt + (int)small_gt);
        if (small_lt)
            put_small(S, k++, st, lt);
        if (small_gt)
            put_small(S, k, st + lt + eq, gt);
    }
}

__device__ void pass_scatter(Part &p, int *recurse, const State &S, int cur, int nseg, int m)
{
    const Table &t = S.tab[cur];
    const int *keys = S.keys[cur];
    int *next = S.keys[cur ^ 1];
    // the new table is complete (carve ran): index its chunks, a search each
    const Table &nt = S.tab[cur ^ 1];
    unsigned long long h = *(volatile unsigned long long *)nt.head;
    int nseg2 = (int)(h >> 40), m2 = (int)(h & TOTAL_MASK);
    int nchunks = (m2 + CHUNK - 1) / CHUNK; // (c * CHUNK overflows for a big grid's c)
    for (int c = blockIdx.x * TPB + threadIdx.x; c < nchunks; c += gridDim.x * TPB)
        nt.chunk_seg[c] = seg_search(nt.pre, 0, nseg2, c * CHUNK);
    for (int j0 = blockIdx.x * CHUNK; j0 < m; j0 += gridDim.x * CHUNK) {
        int jend = min(j0 + CHUNK, m);
        load_part(p, t, keys, nseg, m, j0, jend, recurse);
        int ls[ITEMS], key[ITEMS], cls[ITEMS], pos[ITEMS];
        load_items(p, keys, j0, jend, ls, key, cls);
        for (int it = 0; it < ITEMS; it++)
            pos[it] = reserve(p, t, j0 + it * TPB + (int)threadIdx.x < jend, ls[it], cls[it]);
        __syncthreads();
        bool one = p.s0 == p.s1;
        if (one && threadIdx.x < 3)
            p.gbase[threadIdx.x] = atomicAdd(&t.cnt[p.s0 * 3 + threadIdx.x], p.blk[threadIdx.x]);
        __syncthreads();
        for (int it = 0; it < ITEMS; it++) {
            if (j0 + it * TPB + (int)threadIdx.x >= jend)
                break;
            int c = cls[it], r = recurse[ls[it]], at = pos[it] + (one ? p.gbase[c] : 0);
            bool again = (c == 0 && (r & 1)) || (c == 2 && (r & 4));
            if (again) next[at] = key[it]; else S.out[at] = key[it];
        }
        __syncthreads();
    }
}

// The block-local tail: each part of at most S.tail (<= TAIL_MAX) elements
// sorted by one block (CUB's block radix sort, padded with INT_MAX).
constexpr int TAIL_ITEMS = 16, TAIL_MAX = TPB * TAIL_ITEMS;
typedef cub::BlockRadixSort<int, TPB, TAIL_ITEMS> TailSort;

__device__ void pass_tail(TailSort::TempStorage &tmp, const State &S)
{
    int nsmall = *(volatile int *)S.nsmall;
    for (int b = blockIdx.x; b < nsmall; b += gridDim.x) {
        int st = S.small_start[b], len = S.small_len[b], key[TAIL_ITEMS];
        for (int it = 0; it < TAIL_ITEMS; it++) {
            int i = it * TPB + threadIdx.x;
            key[it] = i < len ? S.out[st + i] : INT_MAX;
        }
        TailSort(tmp).SortBlockedToStriped(key);
        for (int it = 0; it < TAIL_ITEMS; it++) {
            int i = it * TPB + threadIdx.x;
            if (i < len)
                S.out[st + i] = key[it];
        }
        __syncthreads();
    }
}

__device__ void level_size(const State &S, int cur, int &nseg, int &m)
{
    unsigned long long h = *(volatile unsigned long long *)S.tab[cur].head;
    nseg = (int)(h >> 40);
    m = (int)(h & TOTAL_MASK);
}

__global__ void k_init(State S, int n)
{
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < (n + CHUNK - 1) / CHUNK; c += gridDim.x * blockDim.x)
        S.tab[0].chunk_seg[c] = 0;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *S.nsmall = 0;
        *S.tab[0].head = (1ull << 40) | (unsigned long long)n;
        S.tab[0].start[0] = 0;
        S.tab[0].len[0] = n;
        S.tab[0].pre[0] = 0;
        S.tab[0].cnt[0] = S.tab[0].cnt[1] = S.tab[0].cnt[2] = 0;
        *S.levels = 0;
    }
}

// The device-driven recursion: every pass of every level in one launch.
__global__ void __launch_bounds__(TPB, 4) k_levels(State S)
{
    __shared__ Part p;
    __shared__ int recurse[CHUNK + 1];
    cg::grid_group grid = cg::this_grid();
    stamp(S, 0, now_ns());
    int lev = 0;
    for (int cur = 0;; cur ^= 1, lev++) {
        int nseg, m;
        level_size(S, cur, nseg, m);
        if (nseg == 0)
            break;
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            *S.tab[cur ^ 1].head = 0;
            ++*S.levels;
        }
        stamp(S, 1 + 4 * lev, m);
        pass_count(p, S, cur, nseg, m);
        if (S.carve_last) {   // one grid.sync fewer a level
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence();
                p.last = atomicAdd(S.done, 1u) == gridDim.x - 1;
            }
            __syncthreads();
            if (p.last) {
                __threadfence();
                pass_carve(S, cur, nseg, 0, 1);
                if (threadIdx.x == 0)
                    *S.done = 0;
            }
            grid.sync();
            stamp(S, 2 + 4 * lev, now_ns());
        } else {
            grid.sync();
            stamp(S, 2 + 4 * lev, now_ns());
            pass_carve(S, cur, nseg, blockIdx.x, gridDim.x);
            grid.sync();
        }
        stamp(S, 3 + 4 * lev, now_ns());
        pass_scatter(p, recurse, S, cur, nseg, m);
        grid.sync();
        stamp(S, 4 + 4 * lev, now_ns());
    }
    static_assert(sizeof(TailSort::TempStorage) <= sizeof(Part), "the tail's storage is the level's");
    pass_tail(reinterpret_cast<TailSort::TempStorage &>(p), S);
    if (S.trace) {
        grid.sync();
        stamp(S, 1 + 4 * lev, now_ns());
    }
}

// The host-driven recursion's kernels: one pass each.
__global__ void k_count(State S, int cur, int nseg, int m)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *S.tab[cur ^ 1].head = 0;
    __shared__ Part p;
    pass_count(p, S, cur, nseg, m);
}
__global__ void k_tail(State S)
{
    __shared__ TailSort::TempStorage tmp;
    pass_tail(tmp, S);
}
__global__ void k_carve(State S, int cur, int nseg) { pass_carve(S, cur, nseg, blockIdx.x, gridDim.x); }
__global__ void k_scatter(State S, int cur, int nseg, int m)
{
    __shared__ Part p;
    __shared__ int recurse[CHUNK + 1];
    pass_scatter(p, recurse, S, cur, nseg, m);
}

static State make_state(int64_t n)
{
    State S;
    S.keys[0] = bench_alloc<int>(n);
    S.keys[1] = bench_alloc<int>(n);
    S.out = bench_alloc<int>(n);
    for (int k = 0; k < 2; k++) {
        int64_t cap = n / 2 + 2; // a recursing segment has >= 2 elements
        S.tab[k].start = bench_alloc<int>(cap);
        S.tab[k].len = bench_alloc<int>(cap);
        S.tab[k].pre = bench_alloc<int>(cap);
        S.tab[k].cnt = bench_alloc<int>(3 * cap);
        S.tab[k].chunk_seg = bench_alloc<int>(n / CHUNK + 2);
        S.tab[k].head = bench_alloc<unsigned long long>(1);
    }
    S.levels = bench_alloc<int>(1);
    S.small_start = bench_alloc<int>(n / 2 + 2);
    S.small_len = bench_alloc<int>(n / 2 + 2);
    S.nsmall = bench_alloc<int>(1);
    S.trace = nullptr;
    S.carve_last = 0;
    S.done = bench_alloc<unsigned>(1);
    CK(cudaMemset(S.done, 0, sizeof(unsigned)));
    return S;
}

// One traced run of the device-driven kernel: where a level's time goes.
template <class Prep>
static void trace_run(State &S, Prep prep, int n, int init_grid, int grid)
{
    const int cap = 4 * 200 + 2;
    S.trace = bench_alloc<unsigned long long>(cap);
    prep();
    k_init<<<init_grid, 256>>>(S, n);
    void *args[] = {&S};
    CK(cudaLaunchCooperativeKernel((void *)k_levels, grid, TPB, args, 0, 0));
    CK(cudaDeviceSynchronize());
    int lev = bench_get(S.levels, 0);
    std::vector<unsigned long long> tr(cap);
    CK(cudaMemcpy(tr.data(), S.trace, cap * 8, cudaMemcpyDeviceToHost));
    CK(cudaFree(S.trace));
    S.trace = nullptr;
    if (lev > 199)
        return;
    double pass[3] = {0, 0, 0}, big = 0;
    int nbig = 0;
    unsigned long long prev = tr[0];
    for (int l = 0; l < lev; l++) {
        unsigned long long m = tr[1 + 4 * l];
        for (int k = 0; k < 3; k++) {
            pass[k] += (tr[2 + 4 * l + k] - prev) / 1000.0;
            if (m > (unsigned long long)n / 2)
                big += (tr[2 + 4 * l + k] - prev) / 1000.0;
            prev = tr[2 + 4 * l + k];
        }
        nbig += m > (unsigned long long)n / 2;
    }
    double tail = (tr[1 + 4 * lev] - prev) / 1000.0;
    printf("    traced (us): count %.1f, carve %.1f, scatter %.1f, tail %.1f; %d levels over n/2 elements take %.1f; "
           "a level of <= 2048 elements: %.1f\n",
           pass[0], pass[1], pass[2], tail, nbig, big,
           [&] {
               for (int l = lev - 1; l >= 1; l--)
                   if (tr[1 + 4 * l] <= 2048)
                       return (tr[4 + 4 * l] - tr[4 * l]) / 1000.0;
               return 0.0;
           }());
}

static bool same(const int *a, const int *b, int64_t n)
{
    std::vector<int> x(n), y(n);
    CK(cudaMemcpy(x.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
    return memcmp(x.data(), y.data(), n * sizeof(int)) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s N...\n", argv[0]);
        return 2;
    }
    // QS_QUICK=1: one run of each driver with the tail, no warm-up (for
    // compute-sanitizer at large sizes)
    bool quick = getenv("QS_QUICK") && atoi(getenv("QS_QUICK"));
    int warm = quick ? 0 : 2, reps = quick ? 1 : 11;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_levels, TPB, 0));
    printf("%s, %d SMs, cooperative grid %d blocks of %d (%d a SM), %d elements a block's chunk\n",
           prop.name, prop.multiProcessorCount, per_sm * prop.multiProcessorCount, TPB, per_sm, CHUNK);
    for (int a = 1; a < argc; a++) {
        int64_t n = atoll(argv[a]);
        if (n < 2 || n > (1ll << 30)) {
            fprintf(stderr, "N must be in [2, 2^30]\n");
            return 2;
        }
        int *in = bench_alloc<int>(n), *ref = bench_alloc<int>(n);
        bench_fill(in, n, [] __device__(int64_t i) { return bench_hash((int32_t)i); });
        CachingAllocator alloc;
        double t_thrust = bench_time([&] { CK(cudaMemcpy(ref, in, n * 4, cudaMemcpyDeviceToDevice)); },
                                     [&] { thrust::sort(thrust::cuda::par(alloc), ref, ref + n); });
        State S = make_state(n);
        auto prep = [&] { CK(cudaMemcpy(S.keys[0], in, n * 4, cudaMemcpyDeviceToDevice)); };

        printf("n %lld: thrust::sort %.3f ms\n", (long long)n, t_thrust);
        int init_grid = (int)std::min<int64_t>(n / CHUNK / 256 + 1, 1024);
        for (int tail : {1, CHUNK, TAIL_MAX}) {
            if (quick && tail == 1)
                continue;
            S.tail = tail;
            char how[32];
            snprintf(how, sizeof how, tail == 1 ? "no tail" : "tail %d", tail);
            // the cooperative grid at 1, 2, 4 blocks a SM and at full
            // occupancy (grid.sync costs more with more blocks); with the
            // tail, also the carve by the count's last block, at full
            // occupancy
            std::vector<int> caps;
            for (int cap : {1, 2, 4})
                if (cap < per_sm && !quick)
                    caps.push_back(cap);
            caps.push_back(per_sm);
            for (int last = 0; last <= (tail > 1); last++)
                for (int cap : caps) {
                    if (last && cap != caps.back())
                        continue;
                    S.carve_last = last;
                    int grid = cap * prop.multiProcessorCount;
                    double t = bench_time(prep, [&] {
                        k_init<<<init_grid, 256>>>(S, (int)n);
                        void *args[] = {&S};
                        CK(cudaLaunchCooperativeKernel((void *)k_levels, grid, TPB, args, 0, 0));
                    }, warm, reps);
                    int lev = bench_get(S.levels, 0);
                    printf("  %-10s device-driven, %d passes, %4d blocks: %7.3f ms (%6.2fx thrust), %2d levels, "
                           "%6.2f us a level, %s\n", how, last ? 2 : 3, grid, t, t / t_thrust, lev, 1000 * t / lev,
                           same(S.out, ref, n) ? "equal" : "DIFFERS");
                    if (cap == caps.back())
                        trace_run(S, prep, (int)n, init_grid, grid);
                }
            S.carve_last = 0;
            int lev = 0;
            double t = bench_time(prep, [&] {
                k_init<<<init_grid, 256>>>(S, (int)n);
                int nseg = 1, m = (int)n;
                lev = 0;
                for (int cur = 0; nseg > 0; cur ^= 1, lev++) {
                    int gb = (int)std::min<int64_t>((m + CHUNK - 1) / CHUNK, 65535);
                    int gs = (nseg + TPB - 1) / TPB;
                    k_count<<<gb, TPB>>>(S, cur, nseg, m);
                    k_carve<<<gs, TPB>>>(S, cur, nseg);
                    k_scatter<<<gb, TPB>>>(S, cur, nseg, m);
                    unsigned long long h;
                    CK(cudaMemcpy(&h, S.tab[cur ^ 1].head, 8, cudaMemcpyDeviceToHost));
                    nseg = (int)(h >> 40);
                    m = (int)(h & TOTAL_MASK);
                }
                if (tail > 1) {
                    int ns = bench_get(S.nsmall, 0);
                    if (ns > 0)
                        k_tail<<<std::min(ns, 65535), TPB>>>(S);
                }
            }, warm, reps);
            printf("  %-10s host-driven (3 launches, a read-back a level): %7.3f ms (%6.2fx thrust), %2d levels, "
                   "%6.2f us a level, %s\n",
                   how, t, t / t_thrust, lev, 1000 * t / lev, same(S.out, ref, n) ? "equal" : "DIFFERS");
        }
        fflush(stdout);
    }
    return 0;
}
