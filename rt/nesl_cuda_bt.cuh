/* nesl_cuda_bt.cuh — the block-local tail (doc/codegen.md, "The
 * block-local tail"): a lifted recursive function's calls, once every one
 * is small, run a group of calls to a block, its whole recursion inside
 * that block, instead of ~30 launches a recursion level.
 *
 * The generator prints each function and kernel the lifted function
 * reaches a second time as __device__ code over NeslBt instead of NeslRt
 * (cudagen/gen_tail.c), its runtime calls renamed nesl_X -> nesl_bt_X:
 * this header defines those.  All 256 threads of the block run that host
 * code together, so every value it computes is the same in every thread
 * (uniform); each runtime call below is a collective of the block, its
 * SOAC a loop over the block's threads between barriers.  Memory is a
 * bump allocator over the block's arena in global memory; each thread
 * keeps its own copy of the pointer, equal in all (the same allocations in
 * the same order), and writes object headers with the same values as the
 * others.  Nothing is freed: the arena is the tail's.
 *
 * A tail never reports an error: where the grid code would report one (a
 * NESL runtime error, a broken promise of the compiler), or the arena, the
 * depth or the stack runs out, the block stores why in its status word and
 * its threads exit together; the host then runs the grid code for the same
 * call (rt_cuda_bt.cu), which reports the error as always.
 *
 * A tail kernel's block is NESL_BLOCK threads (rt_cuda_bt.cu launches it
 * so); the loops below stride by that constant rather than blockDim.x, so
 * that the compiler turns their divisions into shifts. */
#ifndef NESL_CUDA_BT_CUH
#define NESL_CUDA_BT_CUH

/* A block's status (NeslBtLaunch.status): the host sets -1 first. */
enum { NESL_BT_OK = 0, NESL_BT_ARENA = 1, NESL_BT_ERROR = 2, NESL_BT_DEEP = 3, NESL_BT_BIG = 4 };

#define NESL_BT_MAXP 40     /* parameters of a lifted function the tail takes */
#define NESL_BT_MAXR 16     /* result components */
#define NESL_BT_RANKS 16    /* rank words remembered (nesl_bt_cu_kept_rank) */
#define NESL_BT_SCRATCH 1024                 /* one collective's scratch */
#define NESL_BT_HEADERS_KB 24             /* object headers in shared memory (NESL_BT_HEADERS=KB) */
#define NESL_BT_USED_WORDS 3              /* NeslBtLaunch.used */
/* The device copies outside the recursion (gen_tail.c), inlined into it,
 * and a tail kernel's blocks an SM at least (__launch_bounds__; 1: the
 * registers to keep the inlined code out of local memory).  H100, session
 * 40 (bench/RESULTS.md): Barnes-Hut 10^4 1.55-1.75 -> 1.20 ms against
 * __noinline__ and 2 blocks; the leaves inlined alone gave 1.33. */
#ifndef NESL_BT_LEAF
#define NESL_BT_LEAF __forceinline__
#endif
#ifndef NESL_BT_MINB
#define NESL_BT_MINB 1
#endif

/* A parameter of the lifted function: an int (the call count n, or a
 * library function's site), a vector or a descriptor, and what its length
 * counts (LcuLiftShape: -1 the calls, k the elements of sd parameter k). */
enum { NESL_BT_PINT = 0, NESL_BT_PVEC = 1, NESL_BT_PSD = 2 };
typedef struct NeslBtParam {
    int kind, parent;
    int esize;                /* a vector's bytes an element */
    NeslBase base;
    int64_t len;              /* a vector's elements, a descriptor's segments */
    void *data;               /* a vector's data, a descriptor's lengths (device) */
    const int64_t *offs;      /* a descriptor's offsets, len + 1 (device) */
    int64_t ival;             /* an int's value; a descriptor's total (host) */
} NeslBtParam;

/* What block g left of result component k (out[g * nr + k]): a vector's
 * data and length, or a descriptor's lengths, segment count and total. */
typedef struct NeslBtOut {
    void *data;
    int64_t len, total;
} NeslBtOut;

/* One launch of a tail: block g takes the calls c whose start lies in
 * [g * B, (g + 1) * B) (the last block: from g * B on), start (c) being
 * the offsets of the first descriptor parameter over the calls (starts),
 * or c itself (starts NULL). */
typedef struct NeslBtLaunch {
    int np, nr, G;
    NeslBtParam p[NESL_BT_MAXP];
    int rkind[NESL_BT_MAXR];         /* NESL_BT_PVEC or NESL_BT_PSD */
    int64_t ncalls, B;                /* B: a group's width in the starts */
    int64_t maxcall;                  /* a call's elements at most */
    const int64_t *starts;
    int64_t total;                    /* starts[ncalls] (host) */
    char *arena;                      /* G * arena_bytes */
    size_t arena_bytes;
    int *status;                      /* G */
    NeslBtOut *out;                   /* G * nr */
    NeslDErr *derr;                   /* G records, zeroed */
    int *abort;                       /* set by a block that found a call too large: the others stop (zeroed) */
    int depth_max;
    int stack_max;                    /* bytes of stack a tail may take */
    int hdr_bytes;                    /* object headers in shared memory, after the scratch */
    unsigned long long *prof;         /* NESL_BT_PROF builds: NESL_BT_PROF_WORDS sums, or NULL */
    unsigned long long *used;         /* NESL_BT_LOG: NESL_BT_USED_WORDS maxima over the blocks (the arena bytes, the header
                                         bytes in shared memory, the header bytes in the arena a block used); or NULL */
} NeslBtLaunch;

/* NESL_BT_PROF=1 (a build for measuring): thread 0's cycles in each kind
 * of operation, then the count of operations of each kind, summed over
 * the blocks into NeslBtLaunch.prof. */
#ifndef NESL_BT_PROF
#define NESL_BT_PROF 0
#endif
enum { NESL_BTP_MAP, NESL_BTP_MAPSEG, NESL_BTP_MAPSD, NESL_BTP_REDUCE, NESL_BTP_SCAN, NESL_BTP_SEGFOLD, NESL_BTP_FILTER,
       NESL_BTP_MULTI, NESL_BTP_OFFS, NESL_BTP_SEGIDS, NESL_BTP_FILTERSD, NESL_BTP_SD, NESL_BTP_ALL, NESL_BT_NPROF };
#define NESL_BT_PROF_WORDS (2 * NESL_BT_NPROF)

/* The FILTERs' rank words remembered (nesl_bt_cu_kept_rank), one table a
 * block in shared memory: a thread's own copy took 400 of NeslBt's ~550
 * bytes of local memory, 100 KB a block beside the recursion's frames. */
typedef struct NeslBtRanks {
    const NeslVec *pos[NESL_BT_RANKS];
    const uint64_t *words[NESL_BT_RANKS];
    int64_t n[NESL_BT_RANKS];
    bool only[NESL_BT_RANKS];         /* of a FILTER that left its positions to them */
} NeslBtRanks;

/* The tail's runtime state, one copy a thread (equal in all). */
typedef struct NeslBt {
    char *cur, *end;
    char *hcur, *hend;                /* object headers: shared memory while it lasts */
    int64_t hspill;                   /* header bytes taken from the arena since */
    NeslDErr *derr;
    int *status;
    int depth, depth_max;
    const char *stack0;
    int stack_max;
    bool rk_lost;                     /* words of a FILTER that left its positions to them were forgotten */
    int rk_next;
    void **args;                      /* the sliced parameters (nesl_bt_begin) */
    const int *abort;
    int64_t ncalls;                   /* the block's calls */
#if NESL_BT_PROF
    long long prof[NESL_BT_PROF_WORDS];
#endif
} NeslBt;

static __device__ __forceinline__ long long nesl_bt_clock(void)
{
#ifdef __CUDA_ARCH__
    return clock64();
#else
    return 0;
#endif
}
struct NeslBtTimer {
#if NESL_BT_PROF
    long long *acc, t0;
    __device__ NeslBtTimer(NeslBt *rt, int k) : acc(&rt->prof[k]), t0(nesl_bt_clock()) { rt->prof[NESL_BT_NPROF + k]++; }
    __device__ ~NeslBtTimer() { *acc += nesl_bt_clock() - t0; }
#else
    __device__ NeslBtTimer(NeslBt *, int) { }
#endif
};

NESL_C_BEGIN
/* ---- the host's side (rt_cuda_bt.cu) ----
 * The generated dispatcher of a lifted function fills a launch with
 * nesl_bt_open, nesl_bt_param_* and nesl_bt_result, then nesl_bt_run runs
 * kernel k (its tail kernel, taking the launch by value) over the groups
 * and, where every block finished, builds the results in out (NeslVec * or
 * NeslSd * each) and returns true; false: the grid code runs the call (the
 * tail is off, a call is too large, or a block failed). */
bool nesl_bt_open(NeslRt *rt, NeslBtLaunch *L, int np, int nr);
void nesl_bt_param_int(NeslBtLaunch *L, int i, int64_t v);
void nesl_bt_param_vec(NeslRt *rt, NeslBtLaunch *L, int i, int parent, NeslVec *v);
void nesl_bt_param_sd(NeslRt *rt, NeslBtLaunch *L, int i, int parent, NeslSd *s);
void nesl_bt_result(NeslBtLaunch *L, int k, int kind);
bool nesl_bt_run(NeslRt *rt, NeslBtLaunch *L, const void *k, NeslBase *rbase, void **out);
NESL_C_END

/* ---- failing: the block's status, then all its threads exit ---- */
static __device__ __noinline__ void nesl_bt_fail(NeslBt *rt, int code)
{
    if (threadIdx.x == 0) {
        *rt->status = code;
        __threadfence();
    }
    asm volatile("exit;");
    __builtin_unreachable();
}

/* The block's scratch for one collective at a time. */
static __device__ __forceinline__ void *nesl_bt_smem(void)
{
    extern __shared__ __align__(16) unsigned char nesl_bt_smem_buf[];
    return nesl_bt_smem_buf;
}

/* The block's rank-word table: after the scratch, before the headers. */
#define NESL_BT_RANKS_BYTES ((sizeof(NeslBtRanks) + 15) & ~(size_t)15)
static __device__ __forceinline__ NeslBtRanks *nesl_bt_ranks(void)
{
    return (NeslBtRanks *)((char *)nesl_bt_smem() + NESL_BT_SCRATCH);
}

/* An object header (a vector's, a descriptor's): the host code reads
 * them all the time, from shared memory ~20 times sooner than from the
 * L2 (every thread writes it, so the L1 holds no copy). */
static __device__ void *nesl_bt_alloc(NeslBt *rt, int64_t bytes);
static __device__ void *nesl_bt_header(NeslBt *rt, int64_t bytes)
{
    if (rt->hend - rt->hcur >= bytes) {
        void *p = rt->hcur;
        rt->hcur += (bytes + 15) & ~(int64_t)15;
        return p;
    }
    rt->hspill += bytes;
    return nesl_bt_alloc(rt, bytes);
}

static __device__ void *nesl_bt_alloc(NeslBt *rt, int64_t bytes)
{
    if (bytes < 0) nesl_bt_fail(rt, NESL_BT_ERROR);
    int64_t b = (bytes + 15) & ~(int64_t)15;
    if (b > rt->end - rt->cur) nesl_bt_fail(rt, NESL_BT_ARENA);
    void *p = rt->cur;
    rt->cur += b;
    return p;
}

/* A value thread 0 computed, in every thread. */
template <class T> static __device__ T nesl_bt_bcast(const T &v)
{
    T *box = (T *)nesl_bt_smem();
    static_assert(sizeof(T) <= NESL_BT_SCRATCH, "a broadcast fits the scratch");
    if (threadIdx.x == 0) *box = v;
    __syncthreads();
    T r = *box;
    __syncthreads();
    return r;
}

/* Exclusive prefix over the block of one int64 a thread (thread order),
 * and the block's total in every thread. */
static __device__ int64_t nesl_bt_scan_i64(int64_t x, int64_t *total)
{
    int64_t *ws = (int64_t *)nesl_bt_smem();
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int64_t inc = x;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int64_t y = __shfl_up_sync(0xffffffffu, inc, d);
        if (lane >= d) inc += y;
    }
    if (lane == 31) ws[w] = inc;
    __syncthreads();
    int64_t before = 0, all = 0;
    for (int j = 0; j < NESL_WARPS; j++) {
        if (j < w) before += ws[j];
        all += ws[j];
    }
    __syncthreads();
    *total = all;
    return before + inc - x;
}

/* ---- objects ---- */
static __device__ NeslVec *nesl_bt_vec_view(NeslBt *rt, NeslBase b, int64_t len, void *data)
{
    NeslVec *v = (NeslVec *)nesl_bt_header(rt, sizeof(NeslVec));
    v->obj.kind = NESL_OBJ_VEC;
    v->base = b;
    v->len = len;
    v->data = data;
    return v;
}

static __device__ size_t nesl_bt_base_size(NeslBase b)
{
    switch (b) {
    case NESL_BOOL: case NESL_CHAR: case NESL_UNIT: return 1;
    case NESL_INT: case NESL_F32: return 4;
    case NESL_FLOAT: return 8;
    }
    return 8;
}

static __device__ NeslVec *nesl_bt_vec_new(NeslBt *rt, NeslBase b, int64_t len)
{
    if (len < 0) nesl_bt_fail(rt, NESL_BT_ERROR);
    void *d = nesl_bt_alloc(rt, len * (int64_t)nesl_bt_base_size(b));
    return nesl_bt_vec_view(rt, b, len, d);
}

static __device__ NeslVec *nesl_bt_vec_zero(NeslBt *rt, NeslBase b, int64_t len)
{
    NeslVec *v = nesl_bt_vec_new(rt, b, len);
    int64_t bytes = len * (int64_t)nesl_bt_base_size(b);
    for (int64_t i = threadIdx.x; i < bytes; i += NESL_BLOCK) ((unsigned char *)v->data)[i] = 0;
    __syncthreads();
    return v;
}

/* Messages are the grid code's to print. */
static __device__ NeslVec *nesl_bt_string(NeslBt *, const char *, int64_t) { return NULL; }

static __device__ void *nesl_bt_cu_tmp(NeslBt *rt, size_t bytes, bool zero)
{
    unsigned char *p = (unsigned char *)nesl_bt_alloc(rt, (int64_t)bytes);
    if (zero) {
        for (size_t i = threadIdx.x; i < bytes; i += NESL_BLOCK) p[i] = 0;
        __syncthreads();
    }
    return p;
}
static __device__ void *nesl_bt_tmp(NeslBt *rt, size_t bytes) { return nesl_bt_cu_tmp(rt, bytes, false); }
static __device__ void *nesl_bt_tmp_zero(NeslBt *rt, size_t bytes) { return nesl_bt_cu_tmp(rt, bytes, true); }

static __device__ size_t nesl_bt_mark(NeslBt *) { return 0; }
template <class... A> static __device__ void nesl_bt_release(NeslBt *, size_t, int, A...) { }

static __device__ void nesl_bt_enter(NeslBt *rt, const char *)
{
    /* another block found a call larger than a group: the launch is lost
     * (the barrier makes the decision the whole block's) */
    if (__syncthreads_or(*(const volatile int *)rt->abort != 0)) nesl_bt_fail(rt, NESL_BT_BIG);
    char probe;
    long long used = rt->stack0 - &probe;
    if (used < 0) used = -used;
    if (++rt->depth > rt->depth_max || used > rt->stack_max) nesl_bt_fail(rt, NESL_BT_DEEP);
}
static __device__ void nesl_bt_leave(NeslBt *rt) { rt->depth--; }

/* ---- checks: each fails the block where the grid code reports ---- */
static __device__ void nesl_bt_check(NeslBt *rt, bool failed, int32_t, const NeslVec *)
{
    if (failed) nesl_bt_fail(rt, NESL_BT_ERROR);
}
static __device__ int64_t nesl_bt_size(NeslBt *rt, NeslSoac, int32_t n)
{
    if (n < 0) nesl_bt_fail(rt, NESL_BT_ERROR);
    return n;
}
static __device__ void nesl_bt_same_len(NeslBt *rt, int64_t len, int64_t size, const char *)
{
    if (len != size) nesl_bt_fail(rt, NESL_BT_ERROR);
}
static __device__ void nesl_bt_cu_index_short(NeslBt *rt, int64_t n, int64_t len, const char *)
{
    if (n > len) nesl_bt_fail(rt, NESL_BT_ERROR);
}
/* After a SOAC: an error its thunks recorded (every thread reads the
 * record after the barrier). */
static __device__ void nesl_bt_cu_raise(NeslBt *rt)
{
    if (__syncthreads_or(rt->derr->set != 0)) nesl_bt_fail(rt, NESL_BT_ERROR);
}

static __device__ void nesl_bt_vec_get(NeslBt *rt, const NeslVec *v, int64_t i, void *out)
{
    if (i < 0 || i >= v->len) nesl_bt_fail(rt, NESL_BT_ERROR);
    size_t es = nesl_bt_base_size(v->base);
    memcpy(out, (const char *)v->data + (size_t)i * es, es);
}

/* ---- segment descriptors ---- */
static __device__ NeslSd *nesl_bt_sd_with(NeslBt *rt, int64_t nsegs, int32_t *lens)
{
    NeslSd *s = (NeslSd *)nesl_bt_header(rt, sizeof(NeslSd));
    s->obj.kind = NESL_OBJ_SD;
    s->nsegs = nsegs;
    s->lens = lens;
    s->offs = NULL;
    s->segids = NULL;
    return s;
}
static __device__ NeslSd *nesl_bt_sd_new(NeslBt *rt, int64_t nsegs)
{
    if (nsegs < 0) nesl_bt_fail(rt, NESL_BT_ERROR);
    return nesl_bt_sd_with(rt, nsegs, (int32_t *)nesl_bt_alloc(rt, nsegs * 4));
}
static __device__ const int32_t *nesl_bt_sd_lens(NeslBt *, NeslSd *s) { return s->lens; }

/* The offsets, made by the first reader (a negative length is make_sd's
 * error).  No barrier where they exist: every thread writes a header's
 * offs and segids itself, the same pointer, after the barriers of the code
 * that makes them (which every thread runs), so all threads read the same
 * value and take the same branch.  The barrier before making them is for
 * the lengths: their writer may have ended without one. */
static __device__ const int64_t *nesl_bt_sd_offs(NeslBt *rt, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_OFFS);
    if (s->offs) return s->offs;
    __syncthreads();
    int64_t n = s->nsegs;
    int64_t *o = (int64_t *)nesl_bt_alloc(rt, (n + 1) * 8);
    int64_t carry = 0;
    bool bad = false;
    for (int64_t c = 0; c < n; c += NESL_BLOCK) {
        int64_t g = c + threadIdx.x, l = g < n ? s->lens[g] : 0, tot;
        bad |= l < 0;
        int64_t ex = nesl_bt_scan_i64(l, &tot);
        if (g < n) o[g] = carry + ex;
        carry += tot;
    }
    if (threadIdx.x == 0) o[n] = carry;
    if (__syncthreads_or(bad)) nesl_bt_fail(rt, NESL_BT_ERROR);
    s->offs = o;
    return o;
}
static __device__ int64_t nesl_bt_sd_total(NeslBt *rt, NeslSd *s) { return nesl_bt_sd_offs(rt, s)[s->nsegs]; }

/* The segment of element i: the last g with o[g] <= i (o ascending, o[0] = 0). */
static __device__ int32_t nesl_bt_segid(const int64_t *o, int64_t nsegs, int64_t i)
{
    int64_t lo = 0, hi = nsegs;   /* o[lo] <= i < o[hi] */
    while (hi - lo > 1) {
        int64_t m = (lo + hi) >> 1;
        if (o[m] <= i) lo = m;
        else hi = m;
    }
    return (int32_t)lo;
}
static __device__ const int32_t *nesl_bt_sd_segids(NeslBt *rt, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_SEGIDS);
    const int64_t *o = nesl_bt_sd_offs(rt, s);
    if (s->segids) return s->segids;   /* as offs: the same in every thread */
    int64_t t = o[s->nsegs];
    int32_t *ids = (int32_t *)nesl_bt_alloc(rt, t * 4);
    int64_t per = (t + NESL_BLOCK - 1) / NESL_BLOCK, lo = threadIdx.x * per, hi = lo + per < t ? lo + per : t;
    if (lo < hi) {   /* thread t's run: one search, then a walk */
        int64_t g = nesl_bt_segid(o, s->nsegs, lo);
        for (int64_t i = lo; i < hi; i++) {
            while (o[g + 1] <= i) g++;
            ids[i] = (int32_t)g;
        }
    }
    __syncthreads();
    s->segids = ids;
    return ids;
}
static __device__ NeslVec *nesl_bt_lengths(NeslBt *rt, const NeslSd *s) { return nesl_bt_vec_view(rt, NESL_INT, s->nsegs, s->lens); }
static __device__ NeslVec *nesl_bt_offsets(NeslBt *rt, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    const int64_t *o = nesl_bt_sd_offs(rt, s);
    NeslVec *v = nesl_bt_vec_new(rt, NESL_INT, s->nsegs);
    for (int64_t g = threadIdx.x; g < s->nsegs; g += NESL_BLOCK) ((int32_t *)v->data)[g] = (int32_t)o[g];
    __syncthreads();
    return v;
}
static __device__ NeslVec *nesl_bt_segids(NeslBt *rt, NeslSd *s)
{
    const int32_t *ids = nesl_bt_sd_segids(rt, s);
    return nesl_bt_vec_view(rt, NESL_INT, s->offs[s->nsegs], (void *)ids);
}

static __device__ NeslSd *nesl_bt_make_sd_total(NeslBt *rt, const NeslVec *lens, int64_t total)
{
    NeslSd *s = nesl_bt_sd_with(rt, lens->len, (int32_t *)lens->data);
    int64_t t = nesl_bt_sd_total(rt, s);
    if (total >= 0 && t != total) nesl_bt_fail(rt, NESL_BT_ERROR);
    return s;
}
static __device__ NeslSd *nesl_bt_make_sd(NeslBt *rt, const NeslVec *lens) { return nesl_bt_make_sd_total(rt, lens, -1); }
static __device__ void nesl_bt_make_sd_group(NeslBt *rt, int k, const NeslVec *const *lens, const int64_t *totals, NeslSd **out)
{
    for (int j = 0; j < k; j++) out[j] = nesl_bt_make_sd_total(rt, lens[j], totals[j]);
}

/* The descriptors below write their offsets with their lengths where
 * those of their operands are known (no scan later). */
static __device__ int64_t *nesl_bt_offs_new(NeslBt *rt, NeslSd *s)
{
    s->offs = (int64_t *)nesl_bt_alloc(rt, (s->nsegs + 1) * 8);
    return s->offs;
}

static __device__ NeslSd *nesl_bt_dist_sd(NeslBt *rt, int32_t n, int32_t l)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    if (n < 0 || l < 0 || (l > 0 && n > INT32_MAX / l)) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, n);
    int64_t *o = nesl_bt_offs_new(rt, s);
    for (int64_t g = threadIdx.x; g <= n; g += NESL_BLOCK) {
        if (g < n) s->lens[g] = l;
        o[g] = g * l;
    }
    __syncthreads();
    return s;
}

/* sum_sd, zip_sd: a's and b's segment counts must agree. */
static __device__ NeslSd *nesl_bt_sum_sd(NeslBt *rt, NeslSd *a, NeslSd *b)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    if (a->nsegs != b->nsegs) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, a->nsegs);
    const int64_t *oa = a->offs, *ob = b->offs;
    int64_t *o = oa && ob ? nesl_bt_offs_new(rt, s) : NULL;
    for (int64_t g = threadIdx.x; g <= a->nsegs; g += NESL_BLOCK) {
        if (g < a->nsegs) s->lens[g] = a->lens[g] + b->lens[g];
        if (o) o[g] = oa[g] + ob[g];
    }
    __syncthreads();
    return s;
}
static __device__ void nesl_bt_sum_sd2(NeslBt *rt, NeslSd *a, NeslSd *b, NeslSd *c, NeslSd **s1, NeslSd **s2)
{
    *s1 = nesl_bt_sum_sd(rt, a, b);
    *s2 = nesl_bt_sum_sd(rt, *s1, c);
}
static __device__ NeslSd *nesl_bt_cat_sd(NeslBt *rt, NeslSd *a, NeslSd *b)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    int64_t na = a->nsegs;
    NeslSd *s = nesl_bt_sd_new(rt, na + b->nsegs);
    const int64_t *oa = a->offs, *ob = b->offs;
    int64_t *o = oa && ob ? nesl_bt_offs_new(rt, s) : NULL;
    for (int64_t g = threadIdx.x; g <= s->nsegs; g += NESL_BLOCK) {
        if (g < s->nsegs) s->lens[g] = g < na ? a->lens[g] : b->lens[g - na];
        if (o) o[g] = g < na ? oa[g] : oa[na] + ob[g - na];
    }
    __syncthreads();
    return s;
}
static __device__ NeslSd *nesl_bt_zip_sd(NeslBt *rt, NeslSd *a, NeslSd *b)
{
    if (a->nsegs != b->nsegs) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, 2 * a->nsegs);
    const int64_t *oa = a->offs, *ob = b->offs;
    int64_t *o = oa && ob ? nesl_bt_offs_new(rt, s) : NULL;
    for (int64_t g = threadIdx.x; g <= s->nsegs; g += NESL_BLOCK) {
        if (g < s->nsegs) s->lens[g] = (g & 1) ? b->lens[g >> 1] : a->lens[g >> 1];
        if (o) o[g] = (g & 1) ? oa[(g >> 1) + 1] + ob[g >> 1] : oa[g >> 1] + ob[g >> 1];
    }
    __syncthreads();
    return s;
}

/* ---- a FILTER's rank words (nesl_cuda.cuh, nesl_cu_kept_rank): word w,
 * the count kept before position 32w (high half) and the kept mask of
 * positions 32w..32w+31 (low half); remembered here by the kept vector,
 * so that filter_sd finds them ---- */
static __device__ uint64_t *nesl_bt_kept_words(NeslBt *rt, NeslVec *pos, int64_t n, bool only)
{
    if (!pos || n <= 0) return NULL;
    uint64_t *w = (uint64_t *)nesl_bt_alloc(rt, ((n + 31) / 32) * 8);
    NeslBtRanks *rk = nesl_bt_ranks();
    int j = rt->rk_next++ % NESL_BT_RANKS;
    rt->rk_lost |= rk->pos[j] && rk->only[j];
    __syncthreads();   /* every thread has read the old entry before any writes the new one */
    rk->pos[j] = pos;  /* every thread writes the same values, so each reads them back */
    rk->words[j] = w;
    rk->n[j] = n;
    rk->only[j] = only;
    return w;
}
static __device__ uint64_t *nesl_bt_cu_kept_rank(NeslBt *rt, NeslVec *pos, int64_t n) { return nesl_bt_kept_words(rt, pos, n, false); }
static __device__ uint64_t *nesl_bt_cu_kept_rank_only(NeslBt *rt, NeslVec *pos, int64_t n) { return nesl_bt_kept_words(rt, pos, n, true); }

/* How many kept positions lie below p (0 <= p <= n, the FILTER's size). */
static __device__ int64_t nesl_bt_rank_below(const uint64_t *w, int64_t n, const NeslVec *kept, int64_t p)
{
    if (w) {
        if (p >= n) return kept->len;
        uint64_t x = w[p >> 5];
        return (int64_t)(x >> 32) + __popc((unsigned)x & ((1u << (p & 31)) - 1u));
    }
    const int32_t *k = (const int32_t *)kept->data;
    int64_t lo = 0, hi = kept->len;   /* the first index with k[i] >= p */
    while (lo < hi) {
        int64_t m = (lo + hi) >> 1;
        if (k[m] < p) lo = m + 1;
        else hi = m;
    }
    return lo;
}

/* filter_sd (s, kept): segment g's positions of kept.  Without rank
 * words the positions must have been stored: a FILTER that left them to
 * its words (gen_uses.c) has them here. */
static __device__ NeslSd *nesl_bt_filter_sd(NeslBt *rt, NeslSd *s, const NeslVec *kept)
{
    NeslBtTimer tm_(rt, NESL_BTP_FILTERSD);
    const int64_t *o = nesl_bt_sd_offs(rt, s);
    const uint64_t *w = NULL;
    int64_t n = 0;
    const NeslBtRanks *rk = nesl_bt_ranks();
    for (int j = 0; j < NESL_BT_RANKS; j++)
        if (rk->pos[j] == kept) {
            w = rk->words[j];
            n = rk->n[j];
        }
    if (w && n != o[s->nsegs]) nesl_bt_fail(rt, NESL_BT_ERROR);
    if (!w && rt->rk_lost) nesl_bt_fail(rt, NESL_BT_DEEP);   /* kept may be positions never stored */
    NeslSd *r = nesl_bt_sd_new(rt, s->nsegs);
    int64_t *ro = (int64_t *)nesl_bt_alloc(rt, (s->nsegs + 1) * 8);
    for (int64_t g = threadIdx.x; g <= s->nsegs; g += NESL_BLOCK) ro[g] = nesl_bt_rank_below(w, n, kept, o[g]);
    __syncthreads();
    for (int64_t g = threadIdx.x; g < s->nsegs; g += NESL_BLOCK) r->lens[g] = (int32_t)(ro[g + 1] - ro[g]);
    __syncthreads();
    if (ro[s->nsegs] != kept->len) nesl_bt_fail(rt, NESL_BT_ERROR);   /* a position outside s, or not ascending */
    r->offs = ro;
    return r;
}
static __device__ void nesl_bt_filter_sd_group_zip(NeslBt *rt, NeslSd *s, int k, const NeslVec *const *kept, NeslSd **out, int za, int zb,
                                                   NeslSd **zip)
{
    for (int j = 0; j < k; j++) out[j] = nesl_bt_filter_sd(rt, s, kept[j]);
    if (za >= 0) *zip = nesl_bt_zip_sd(rt, out[za], out[zb]);
}
static __device__ void nesl_bt_filter_sd_group(NeslBt *rt, NeslSd *s, int k, const NeslVec *const *kept, NeslSd **out)
{
    nesl_bt_filter_sd_group_zip(rt, s, k, kept, out, -1, -1, NULL);
}

#include "nesl_cuda_bt_soac.cuh"

/* ---- the tail kernel's frame (cudagen/gen_tail.c emits the kernel) ---- */
/* Block g's calls [c0, c1) and its arguments, sliced out of the
 * launch's: an argument counted in the calls takes [c0, c1), one counted
 * in descriptor k's elements the range of k's offsets over k's range.
 * A call larger than B fails the block (NESL_BT_BIG: the grid runs the
 * call). */
static __device__ void nesl_bt_begin(NeslBt *rt, const NeslBtLaunch &L, const char *stack0)
{
    int g = blockIdx.x;
    rt->cur = L.arena + (size_t)g * L.arena_bytes;
    rt->end = rt->cur + L.arena_bytes;
    rt->hcur = (char *)nesl_bt_smem() + NESL_BT_SCRATCH + NESL_BT_RANKS_BYTES;
    rt->hend = (char *)nesl_bt_smem() + NESL_BT_SCRATCH + L.hdr_bytes;
    rt->hspill = 0;
    rt->derr = L.derr + g;
    rt->status = L.status + g;
    rt->depth = 0;
    rt->depth_max = L.depth_max;
    rt->stack0 = stack0;
    rt->stack_max = L.stack_max;
    rt->abort = L.abort;
    rt->rk_next = 0;
    rt->rk_lost = false;
#if NESL_BT_PROF
    for (int k = 0; k < NESL_BT_PROF_WORDS; k++) rt->prof[k] = 0;
    rt->prof[NESL_BTP_ALL] = -nesl_bt_clock();
#endif
    for (int j = 0; j < NESL_BT_RANKS; j++) nesl_bt_ranks()->pos[j] = NULL;   /* every thread, before the barrier below */
    int64_t *lo = (int64_t *)nesl_bt_alloc(rt, 16 * NESL_BT_MAXP), *hi = lo + NESL_BT_MAXP;
    if (threadIdx.x == 0) {
        /* the calls c with g * B <= start (c) < (g + 1) * B */
        int64_t c[2];
        for (int k = 0; k < 2; k++) {
            int64_t x = (int64_t)(g + k) * L.B, a = 0, b = L.ncalls;   /* the first c with start (c) >= x */
            if (k == 1 && g == L.G - 1) a = b;
            while (a < b) {
                int64_t m = (a + b) >> 1;
                if ((L.starts ? L.starts[m] : m) < x) a = m + 1;
                else b = m;
            }
            c[k] = a;
        }
        for (int i = 0; i < L.np; i++) {
            const NeslBtParam &p = L.p[i];
            if (p.parent < 0) {
                lo[i] = c[0];
                hi[i] = c[1];
            } else {
                lo[i] = L.p[p.parent].offs[lo[p.parent]];
                hi[i] = L.p[p.parent].offs[hi[p.parent]];
            }
        }
    }
    __syncthreads();
    int64_t c0 = lo[0], c1 = hi[0];   /* parameter 0 is the count */
    rt->ncalls = c1 - c0;
    if (c0 == c1) {   /* no call starts in the group: empty results (a lifted function takes n > 0) */
        if (threadIdx.x == 0) {
            for (int k = 0; k < L.nr; k++) L.out[(size_t)g * L.nr + k] = NeslBtOut{ NULL, 0, 0 };
            __threadfence();
            *rt->status = NESL_BT_OK;
        }
        asm volatile("exit;");
    }
    bool big = false;
    for (int64_t c = c0 + threadIdx.x; c < c1 && L.starts; c += NESL_BLOCK) big |= L.starts[c + 1] - L.starts[c] > L.maxcall;
    if (__syncthreads_or(big)) {
        if (threadIdx.x == 0) atomicExch(L.abort, 1);
        nesl_bt_fail(rt, NESL_BT_BIG);
    }
    rt->args = (void **)nesl_bt_alloc(rt, 8 * NESL_BT_MAXP);
    for (int i = 0; i < L.np; i++) {
        const NeslBtParam &p = L.p[i];
        int64_t a = lo[i], b = hi[i];
        switch (p.kind) {
        case NESL_BT_PINT: rt->args[i] = NULL; break;
        case NESL_BT_PVEC: rt->args[i] = nesl_bt_vec_view(rt, p.base, b - a, (char *)p.data + a * p.esize); break;
        case NESL_BT_PSD: rt->args[i] = nesl_bt_sd_with(rt, b - a, (int32_t *)p.data + a); break;
        }
    }
}
/* Int parameter i: parameter 0 is the count (the block's calls). */
static __device__ int64_t nesl_bt_arg_int(NeslBt *rt, const NeslBtLaunch &L, int i) { return i == 0 ? rt->ncalls : L.p[i].ival; }
static __device__ NeslVec *nesl_bt_arg_vec(NeslBt *rt, int i) { return (NeslVec *)rt->args[i]; }
static __device__ NeslSd *nesl_bt_arg_sd(NeslBt *rt, int i) { return (NeslSd *)rt->args[i]; }

/* Result component k: its data (lengths), length (segments) and total. */
static __device__ void nesl_bt_put_vec(NeslBt *, const NeslBtLaunch &L, int k, const NeslVec *v)
{
    if (threadIdx.x == 0) L.out[(size_t)blockIdx.x * L.nr + k] = NeslBtOut{ v->data, v->len, v->len };
}
static __device__ void nesl_bt_put_sd(NeslBt *rt, const NeslBtLaunch &L, int k, NeslSd *s)
{
    int64_t t = nesl_bt_sd_total(rt, s);
    if (threadIdx.x == 0) L.out[(size_t)blockIdx.x * L.nr + k] = NeslBtOut{ s->lens, s->nsegs, t };
}
static __device__ void nesl_bt_end(NeslBt *rt, const NeslBtLaunch &L)
{
    nesl_bt_cu_raise(rt);
#if NESL_BT_PROF
    rt->prof[NESL_BTP_ALL] += nesl_bt_clock();
    if (threadIdx.x == 0 && L.prof)
        for (int k = 0; k < NESL_BT_PROF_WORDS; k++) atomicAdd(L.prof + k, (unsigned long long)rt->prof[k]);
#else
    (void)L;
#endif
    if (threadIdx.x == 0) {
        if (L.used) {
            atomicMax(L.used, (unsigned long long)(rt->cur - (L.arena + (size_t)blockIdx.x * L.arena_bytes)));
            atomicMax(L.used + 1, (unsigned long long)(rt->hcur - ((char *)nesl_bt_smem() + NESL_BT_SCRATCH)));
            atomicMax(L.used + 2, (unsigned long long)rt->hspill);
        }
        __threadfence();
        *rt->status = NESL_BT_OK;
    }
}

#endif
