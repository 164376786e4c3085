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
 * call (rt_cuda_bt.cu), which reports the error as always. */
#ifndef NESL_CUDA_BT_CUH
#define NESL_CUDA_BT_CUH

/* A block's status (NeslBtLaunch.status): the host sets -1 first. */
enum { NESL_BT_OK = 0, NESL_BT_ARENA = 1, NESL_BT_ERROR = 2, NESL_BT_DEEP = 3, NESL_BT_BIG = 4 };

#define NESL_BT_MAXP 40     /* parameters of a lifted function the tail takes */
#define NESL_BT_MAXR 16     /* result components */
#define NESL_BT_RANKS 16    /* rank words remembered (nesl_bt_cu_kept_rank) */
#define NESL_BT_SMEM 1024   /* dynamic shared memory: one collective's scratch */
#ifndef NESL_BT_MINB
#define NESL_BT_MINB 1      /* a tail kernel's blocks an SM at least (__launch_bounds__) */
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
    int64_t ival;             /* an int's value */
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
    int64_t ncalls, B;
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
    unsigned long long *prof;         /* NESL_BT_PROF builds: cycles by kind of operation (NESL_BT_NPROF), or NULL */
} NeslBtLaunch;

/* The tail's runtime state, one copy a thread (equal in all). */
typedef struct NeslBt {
    char *cur, *end;
    NeslDErr *derr;
    int *status;
    int depth, depth_max;
    const char *stack0;
    int stack_max;
    const NeslVec *rk_pos[NESL_BT_RANKS];
    const uint64_t *rk_words[NESL_BT_RANKS];
    int64_t rk_n[NESL_BT_RANKS];
    bool rk_only[NESL_BT_RANKS];      /* of a FILTER that left its positions to them */
    bool rk_lost;                     /* such words were forgotten */
    int rk_next;
    void **args;                      /* the sliced parameters (nesl_bt_begin) */
    const int *abort;
    int64_t ncalls;                   /* the block's calls */
#if NESL_BT_PROF
    long long prof[16];
#endif
} NeslBt;

/* NESL_BT_PROF=1 (a build for measuring): thread 0's cycles in each kind
 * of operation, summed over the blocks into NeslBtLaunch.prof. */
#ifndef NESL_BT_PROF
#define NESL_BT_PROF 0
#endif
enum { NESL_BTP_MAP, NESL_BTP_MAPSEG, NESL_BTP_MAPSD, NESL_BTP_REDUCE, NESL_BTP_SCAN, NESL_BTP_SEGFOLD, NESL_BTP_FILTER,
       NESL_BTP_MULTI, NESL_BTP_OFFS, NESL_BTP_SEGIDS, NESL_BTP_FILTERSD, NESL_BTP_SD, NESL_BTP_ALL, NESL_BT_NPROF };
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
    __device__ NeslBtTimer(NeslBt *rt, int k) : acc(&rt->prof[k]), t0(nesl_bt_clock()) { }
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
    static_assert(sizeof(T) <= NESL_BT_SMEM, "a broadcast fits the scratch");
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
    NeslVec *v = (NeslVec *)nesl_bt_alloc(rt, sizeof(NeslVec));
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
    for (int64_t i = threadIdx.x; i < bytes; i += blockDim.x) ((unsigned char *)v->data)[i] = 0;
    __syncthreads();
    return v;
}

/* Messages are the grid code's to print. */
static __device__ NeslVec *nesl_bt_string(NeslBt *, const char *, int64_t) { return NULL; }

static __device__ void *nesl_bt_cu_tmp(NeslBt *rt, size_t bytes, bool zero)
{
    unsigned char *p = (unsigned char *)nesl_bt_alloc(rt, (int64_t)bytes);
    if (zero) {
        for (size_t i = threadIdx.x; i < bytes; i += blockDim.x) p[i] = 0;
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
    NeslSd *s = (NeslSd *)nesl_bt_alloc(rt, sizeof(NeslSd));
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
 * error).  Every thread reads s->offs before the barrier of
 * __syncthreads_or and the scan writes it after: all take the same branch. */
static __device__ const int64_t *nesl_bt_sd_offs(NeslBt *rt, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_OFFS);
    if (!__syncthreads_or(s->offs == NULL)) return s->offs;
    int64_t n = s->nsegs;
    int64_t *o = (int64_t *)nesl_bt_alloc(rt, (n + 1) * 8);
    int64_t carry = 0;
    bool bad = false;
    for (int64_t c = 0; c < n; c += blockDim.x) {
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
    if (!__syncthreads_or(s->segids == NULL)) return s->segids;
    int64_t t = o[s->nsegs];
    int32_t *ids = (int32_t *)nesl_bt_alloc(rt, t * 4);
    int64_t per = (t + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per, hi = lo + per < t ? lo + per : t;
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
    for (int64_t g = threadIdx.x; g < s->nsegs; g += blockDim.x) ((int32_t *)v->data)[g] = (int32_t)o[g];
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

static __device__ NeslSd *nesl_bt_dist_sd(NeslBt *rt, int32_t n, int32_t l)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    if (n < 0 || l < 0 || (l > 0 && n > INT32_MAX / l)) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, n);
    for (int64_t g = threadIdx.x; g < n; g += blockDim.x) s->lens[g] = l;
    __syncthreads();
    return s;
}

/* sum_sd, zip_sd: a's and b's segment counts must agree. */
static __device__ NeslSd *nesl_bt_sum_sd(NeslBt *rt, NeslSd *a, NeslSd *b)
{
    NeslBtTimer tm_(rt, NESL_BTP_SD);
    if (a->nsegs != b->nsegs) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, a->nsegs);
    for (int64_t g = threadIdx.x; g < a->nsegs; g += blockDim.x) s->lens[g] = a->lens[g] + b->lens[g];
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
    NeslSd *s = nesl_bt_sd_new(rt, a->nsegs + b->nsegs);
    for (int64_t g = threadIdx.x; g < s->nsegs; g += blockDim.x) s->lens[g] = g < a->nsegs ? a->lens[g] : b->lens[g - a->nsegs];
    __syncthreads();
    return s;
}
static __device__ NeslSd *nesl_bt_zip_sd(NeslBt *rt, NeslSd *a, NeslSd *b)
{
    if (a->nsegs != b->nsegs) nesl_bt_fail(rt, NESL_BT_ERROR);
    NeslSd *s = nesl_bt_sd_new(rt, 2 * a->nsegs);
    for (int64_t g = threadIdx.x; g < s->nsegs; g += blockDim.x) s->lens[g] = (g & 1) ? b->lens[g >> 1] : a->lens[g >> 1];
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
    int j = rt->rk_next++ % NESL_BT_RANKS;
    rt->rk_lost |= rt->rk_pos[j] && rt->rk_only[j];
    rt->rk_pos[j] = pos;
    rt->rk_words[j] = w;
    rt->rk_n[j] = n;
    rt->rk_only[j] = only;
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
    for (int j = 0; j < NESL_BT_RANKS; j++)
        if (rt->rk_pos[j] == kept) {
            w = rt->rk_words[j];
            n = rt->rk_n[j];
        }
    if (w && n != o[s->nsegs]) nesl_bt_fail(rt, NESL_BT_ERROR);
    if (!w && rt->rk_lost) nesl_bt_fail(rt, NESL_BT_DEEP);   /* kept may be positions never stored */
    NeslSd *r = nesl_bt_sd_new(rt, s->nsegs);
    int64_t *ro = (int64_t *)nesl_bt_alloc(rt, (s->nsegs + 1) * 8);
    for (int64_t g = threadIdx.x; g <= s->nsegs; g += blockDim.x) ro[g] = nesl_bt_rank_below(w, n, kept, o[g]);
    __syncthreads();
    for (int64_t g = threadIdx.x; g < s->nsegs; g += blockDim.x) r->lens[g] = (int32_t)(ro[g + 1] - ro[g]);
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

/* ---- MAP ---- */
/* NESL_BT_ITEMS elements a thread pulled before any is stored: loads in
 * flight together, as nesl_k_map's (a block alone on its SM hides little
 * latency otherwise). */
#ifndef NESL_BT_ITEMS
#define NESL_BT_ITEMS 4
#endif
template <class P, class St> static __device__ __forceinline__ void nesl_bt_items(int64_t n, const P &pull, const St &store)
{
    typedef decltype(pull(0)) R;
    const int64_t T = blockDim.x, chunk = NESL_BT_ITEMS * T;
    for (int64_t lo = threadIdx.x; lo < n; lo += chunk) {
        if (lo + (NESL_BT_ITEMS - 1) * T < n) {
            R r[NESL_BT_ITEMS];
#pragma unroll
            for (int k = 0; k < NESL_BT_ITEMS; k++) r[k] = pull(lo + k * T);
#pragma unroll
            for (int k = 0; k < NESL_BT_ITEMS; k++) store(lo + k * T, r[k]);
        } else {
#pragma unroll 1
            for (int64_t i = lo; i < n; i += T) store(i, pull(i));
        }
    }
    __syncthreads();
}

template <class S> static __device__ void nesl_bt_cu_map(NeslBt *rt, const S &s, int64_t n)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAP);
    NeslDErr *e = rt->derr;
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    nesl_bt_items(n, [&](int64_t i) { return s.pull(i, e); }, [&](int64_t i, const R &r) { s.store(i, r); });
}
template <class S> static __device__ void nesl_bt_cu_map_each(NeslBt *rt, const S &s, int64_t n) { nesl_bt_cu_map(rt, s, n); }
template <class S> static __device__ void nesl_bt_cu_map_tiled(NeslBt *rt, const S &s, int64_t n, int64_t) { nesl_bt_cu_map(rt, s, n); }
template <class F> static __device__ void nesl_bt_cu_map_seg(NeslBt *rt, const F &f, int64_t n, NeslSd *s)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAPSEG);
    const int32_t *ids = nesl_bt_sd_segids(rt, s);
    NeslDErr *e = rt->derr;
    typedef decltype(f.pull(0, 0, (NeslDErr *)0)) R;
    nesl_bt_items(n, [&](int64_t i) { return f.pull(i, ids[i], e); }, [&](int64_t i, const R &r) { f.store(i, r); });
}
/* make_sd of v, a result of MAP f whose len (g, e) stores element g of
 * every result and returns its length. */
template <class F> static __device__ NeslSd *nesl_bt_cu_map_sd(NeslBt *rt, const F &f, const NeslVec *lens, int64_t total)
{
    NeslBtTimer tm_(rt, NESL_BTP_MAPSD);
    for (int64_t g = threadIdx.x; g < lens->len; g += blockDim.x) (void)f.len(g, rt->derr);
    __syncthreads();
    nesl_bt_cu_raise(rt);
    return nesl_bt_make_sd_total(rt, lens, total);
}
template <class M, class S> static __device__ NeslMapAnd<M, S> nesl_bt_map_and(const M &m, const S &s)
{
    NeslMapAnd<M, S> w;
    static_cast<S &>(w) = s;
    w.m = m;
    return w;
}

/* ---- ONCE ---- */
template <class S> static __device__ auto nesl_bt_cu_once(NeslBt *rt, const S &s) -> decltype(s.pull(0, (NeslDErr *)0))
{
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    R r = R();
    if (threadIdx.x == 0) r = s.pull(0, rt->derr);
    return nesl_bt_bcast(r);
}

/* ---- REDUCE and SCAN: a thread folds its stretch of consecutive
 * elements, the block combines the stretches in thread order (NESL_SEQ:
 * thread 0 alone, in index order); the identity once, at the start ---- */
template <int MODE, class S, class R> static __device__ R nesl_bt_cu_reduce(NeslBt *rt, const S &s, int64_t n, const R &ident)
{
    NeslBtTimer tm_(rt, NESL_BTP_REDUCE);
    if (n <= 0) return ident;
    NeslDErr *e = rt->derr;
    R r = ident;
    if constexpr (MODE == NESL_SEQ) {
        if (threadIdx.x == 0)
            for (int64_t i = 0; i < n; i++) r = s.op(r, s.pull(i, e), i, e);
    } else {
        int64_t per = (n + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per, hi = lo + per < n ? lo + per : n;
        NeslOpt<R> x;
        x.ok = 0;
        for (int64_t i = lo; i < hi; i++) {
            R v = s.pull(i, e);
            x.v = x.ok ? s.op(x.v, v, i, e) : v;
            x.ok = 1;
        }
        NeslOpC<S, R> c = { &s, e };
        x = nesl_block_reduce(x, c);
        if (threadIdx.x == 0 && x.ok) r = s.op(ident, x.v, 0, e);
    }
    return nesl_bt_bcast(r);
}

template <int MODE, class S, class R> static __device__ void nesl_bt_cu_scan(NeslBt *rt, const S &s, int64_t n, const R &ident)
{
    NeslBtTimer tm_(rt, NESL_BTP_SCAN);
    if (n <= 0) return;
    NeslDErr *e = rt->derr;
    if constexpr (MODE == NESL_SEQ) {
        if (threadIdx.x == 0) {
            R acc = ident;
            for (int64_t i = 0; i < n; i++) {
                R x = s.pull(i, e);
                s.store(i, acc);
                acc = s.op(acc, x, i, e);
            }
        }
    } else {
        int64_t per = (n + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per, hi = lo + per < n ? lo + per : n;
        NeslOpt<R> x;
        x.ok = 0;
        for (int64_t i = lo; i < hi; i++) {
            R v = s.pull(i, e);
            x.v = x.ok ? s.op(x.v, v, i, e) : v;
            x.ok = 1;
        }
        NeslOpC<S, R> c = { &s, e };
        NeslOpt<R> ex, agg;
        nesl_block_scan(x, c, &ex, &agg);
        R acc = ex.ok ? s.op(ident, ex.v, 0, e) : ident;
        for (int64_t i = lo; i < hi; i++) {
            R v = s.pull(i, e);
            s.store(i, acc);
            acc = s.op(acc, v, i, e);
        }
    }
    __syncthreads();
}

/* ---- SEG_REDUCE, SEG_SCAN over segments offs[0..nsegs]: short segments
 * (or NESL_SEQ) a thread each, in order; a few long ones the block each in
 * turn; the rest a warp each, whose lanes fold consecutive stretches
 * combined in lane order ---- */
template <class R, class S> static __device__ NeslOpt<R> nesl_bt_warp_scan(NeslOpt<R> x, const S &s, NeslDErr *e)
{
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {   /* inclusive, lower lanes on the left */
        R y = nesl_shfl(x.v, d, 1);
        int yok = __shfl_up_sync(0xffffffffu, x.ok, d);
        if (lane >= d && yok) {
            x.v = x.ok ? s.op(y, x.v, 0, e) : y;
            x.ok = 1;
        }
    }
    return x;
}

template <int MODE, class S, class R>
static __device__ void nesl_bt_cu_seg_fold(NeslBt *rt, const S &s, int64_t n, int64_t nsegs, const int64_t *offs, const R &ident, bool scan)
{
    NeslBtTimer tm_(rt, NESL_BTP_SEGFOLD);
    NeslDErr *e = rt->derr;
    if (nsegs <= 0) return;
    if (MODE == NESL_SEQ || (nsegs >= 256 && n <= 16 * nsegs)) {
        for (int64_t g = threadIdx.x; g < nsegs; g += blockDim.x) {
            R acc = ident;
            for (int64_t i = offs[g]; i < offs[g + 1]; i++) {
                R x = s.pull(i, e);
                if (scan) s.store(i, acc);
                acc = s.op(acc, x, i, e);
            }
            if (!scan) s.store(g, acc);
        }
    } else if (nsegs <= 2 * NESL_WARPS && n >= 64 * nsegs) {   /* few long segments: the block takes each in turn */
        NeslOpC<S, R> c = { &s, e };
        for (int64_t g = 0; g < nsegs; g++) {
            int64_t a = offs[g], len = offs[g + 1] - a, per = (len + blockDim.x - 1) / blockDim.x;
            int64_t lo = a + threadIdx.x * per, hi = lo + per < a + len ? lo + per : a + len;
            NeslOpt<R> x;
            x.ok = 0;
            for (int64_t i = lo; i < hi; i++) {
                R v = s.pull(i, e);
                x.v = x.ok ? s.op(x.v, v, i, e) : v;
                x.ok = 1;
            }
            if (scan) {
                NeslOpt<R> ex, agg;
                nesl_block_scan(x, c, &ex, &agg);
                R acc = ex.ok ? s.op(ident, ex.v, 0, e) : ident;
                for (int64_t i = lo; i < hi; i++) {
                    R v = s.pull(i, e);
                    s.store(i, acc);
                    acc = s.op(acc, v, i, e);
                }
            } else {
                x = nesl_block_reduce(x, c);
                if (threadIdx.x == 0) s.store(g, x.ok ? s.op(ident, x.v, 0, e) : ident);
            }
        }
    } else {
        int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        for (int64_t g = w; g < nsegs; g += NESL_WARPS) {
            int64_t a = offs[g], len = offs[g + 1] - a, per = (len + 31) / 32;
            int64_t lo = a + lane * per, hi = lo + per < a + len ? lo + per : a + len;
            NeslOpt<R> x;
            x.ok = 0;
            for (int64_t i = lo; i < hi; i++) {
                R v = s.pull(i, e);
                x.v = x.ok ? s.op(x.v, v, i, e) : v;
                x.ok = 1;
            }
            NeslOpt<R> inc = nesl_bt_warp_scan(x, s, e);
            if (scan) {
                NeslOpt<R> ex;
                ex.v = nesl_shfl(inc.v, 1, 1);
                ex.ok = __shfl_up_sync(0xffffffffu, inc.ok, 1);
                if (lane == 0) ex.ok = 0;
                R acc = ex.ok ? s.op(ident, ex.v, 0, e) : ident;
                for (int64_t i = lo; i < hi; i++) {
                    R v = s.pull(i, e);
                    s.store(i, acc);
                    acc = s.op(acc, v, i, e);
                }
            } else {
                R tot = nesl_shfl_idx(inc.v, 31);
                int tok = __shfl_sync(0xffffffffu, inc.ok, 31);
                if (lane == 0) s.store(g, tok ? s.op(ident, tot, 0, e) : ident);
            }
        }
    }
    __syncthreads();
}

/* SEG_FILTER's new lengths from the exclusive kept counts pre[0..total]. */
static __device__ void nesl_bt_cu_seg_lens(NeslBt *, const int32_t *pre, const int64_t *offs, int64_t nsegs, int32_t *lt, int32_t *lf)
{
    for (int64_t g = threadIdx.x; g < nsegs; g += blockDim.x) {
        int32_t k = pre[offs[g + 1]] - pre[offs[g]];
        lt[g] = k;
        if (lf) lf[g] = (int32_t)(offs[g + 1] - offs[g]) - k;
    }
    __syncthreads();
}

/* ---- PERMUTE, SEG_PERMUTE: the largest iteration writing a target
 * wins (the last write, as in the interpreter); targets nobody writes get
 * 0 ---- */
template <class S>
static __device__ void nesl_bt_cu_permute(NeslBt *rt, const S &s, int64_t n, bool pull_first, const int64_t *offs, const int32_t *segids,
                                          const int32_t *lens)
{
    if (n <= 0) return;
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    NeslDErr *e = rt->derr;
    const char *what = offs ? "SEG_PERMUTE" : "PERMUTE";
    long long *win = (long long *)nesl_bt_alloc(rt, n * 8);
    for (int64_t d = threadIdx.x; d < n; d += blockDim.x) win[d] = -1;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (pull_first) (void)s.pull(i, e);
        int32_t t = s.index(i, e);
        int64_t len = n, base = 0;
        if (offs) {
            int32_t g = segids[i];
            len = lens[g];
            base = offs[g];
        }
        if (nesl_ck_target(e, i, what, t, len)) atomicMax(win + base + t, (long long)i);
    }
    nesl_bt_cu_raise(rt);
    for (int64_t d = threadIdx.x; d < n; d += blockDim.x) s.store(d, win[d] >= 0 ? s.pull(win[d], e) : R());
    __syncthreads();
}

/* ---- FILTER, PARTITION: chunks of a block's elements, one a thread;
 * each chunk's kept ones in order after those of the chunks before ---- */
/* A chunk of ROWS rows of the block's threads (row k: elements c + k * T
 * + t): the kept rank in the chunk of this thread's element of each row
 * (before), its warp's ballot (mask) and the kept before the warp in the
 * chunk (wbefore, for the rank words); the chunk's count is returned. */
template <int ROWS> static __device__ unsigned nesl_bt_rows(const bool (&keep)[ROWS], unsigned (&before)[ROWS], unsigned (&mask)[ROWS],
                                                            unsigned (&wbefore)[ROWS])
{
    static_assert(ROWS * NESL_WARPS * 4 <= NESL_BT_SMEM, "the counts fit the scratch");
    unsigned *wc = (unsigned *)nesl_bt_smem();
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        mask[k] = __ballot_sync(0xffffffffu, keep[k]);
        if (lane == 0) wc[k * NESL_WARPS + w] = (unsigned)__popc(mask[k]);
    }
    __syncthreads();
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        unsigned wb = 0, row = 0;
        for (int j = 0; j < NESL_WARPS; j++) {
            unsigned x = wc[k * NESL_WARPS + j];
            if (j < w) wb += x;
            row += x;
        }
        wbefore[k] = acc + wb;
        before[k] = acc + wb + (unsigned)__popc(mask[k] & ((1u << lane) - 1u));
        acc += row;
    }
    __syncthreads();
    return acc;
}

/* The rank word of the warp's 32 positions from i - lane (lane 0 writes it). */
static __device__ __forceinline__ void nesl_bt_rank_store(uint64_t *rank, int64_t i, int64_t n, int64_t before, unsigned mask)
{
    if (rank && (threadIdx.x & 31) == 0 && i < n) rank[i >> 5] = (uint64_t)before << 32 | mask;
}

template <bool PART, bool COUNTS = false, class S>
static __device__ int64_t nesl_bt_cu_filter(NeslBt *rt, const S &s, int64_t n, int32_t *pre, uint64_t *rank = NULL)
{
    NeslBtTimer tm_(rt, NESL_BTP_FILTER);
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    enum { IT = NESL_BT_ITEMS };
    NeslDErr *e = rt->derr;
    const int64_t T = blockDim.x;
    int64_t base = 0;
    for (int64_t c = 0; c < n; c += IT * T) {
        R x[IT];
        bool keep[IT];
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            keep[k] = false;
            x[k] = R();
            if (i < n) x[k] = s.pull(i, e);
        }
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            if (i < n) keep[k] = s.pred(x[k], i, e);
        }
        unsigned before[IT], mask[IT], wb[IT];
        unsigned total = nesl_bt_rows<IT>(keep, before, mask, wb);
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = c + k * T + threadIdx.x;
            if (i < n) {
                int64_t kk = base + before[k];
                if (keep[k]) s.store(kk, x[k]);
                else if constexpr (PART) s.store_f(i - kk, x[k]);
                if constexpr (COUNTS) pre[i] = (int32_t)kk;
            }
            nesl_bt_rank_store(rank, i, n, base + wb[k], mask[k]);
        }
        base += total;
    }
    if (COUNTS && threadIdx.x == 0) pre[n > 0 ? n : 0] = (int32_t)base;
    __syncthreads();
    return base;
}
template <bool PART, class S> static __device__ NeslCount nesl_bt_cu_filter_later(NeslBt *rt, const S &s, int64_t n, uint64_t *rank = NULL)
{
    return NeslCount{ 0, (long)nesl_bt_cu_filter<PART>(rt, s, n, NULL, rank) };
}
template <bool PART, class S> static __device__ void nesl_bt_cu_filter_kept(NeslBt *rt, const S &s, int64_t n, int64_t given, uint64_t *rank = NULL)
{
    if (nesl_bt_cu_filter<PART>(rt, s, n, NULL, rank) != given) nesl_bt_fail(rt, NESL_BT_ERROR);
}
static __device__ int64_t nesl_bt_cu_count(NeslBt *, NeslCount c, const char *) { return c.slot < 0 ? 0 : c.waits; }

static __device__ NeslFilterOut nesl_bt_filter_out(NeslCount *count, uint64_t *rank, int64_t have, const char *name)
{
    return NeslFilterOut{ count, rank, have, name };
}

/* K FILTERs of one pull: each element pulled once. */
template <int K, class S, class... C> static __device__ void nesl_bt_cu_filter_multi_later(NeslBt *rt, const S &s, int64_t n, bool, C... outs)
{
    NeslBtTimer tm_(rt, NESL_BTP_MULTI);
    static_assert(sizeof...(C) == K, "an output a FILTER");
    typedef decltype(s.pull(0, (NeslDErr *)0)) R;
    enum { IT = NESL_BT_ITEMS };
    NeslDErr *e = rt->derr;
    const int64_t T = blockDim.x;
    NeslFilterOut os[K] = { outs... };
    for (int c = 0; c < K; c++)
        if (os[c].name && n > os[c].have) nesl_bt_fail(rt, NESL_BT_ERROR);
    int64_t base[K];
    for (int c = 0; c < K; c++) base[c] = 0;
    for (int64_t ch = 0; ch < n; ch += IT * T) {
        R x[IT];
#pragma unroll
        for (int k = 0; k < IT; k++) {
            int64_t i = ch + k * T + threadIdx.x;
            x[k] = R();
            if (i < n) x[k] = s.pull(i, e);
        }
#pragma unroll
        for (int c = 0; c < K; c++) {
            bool keep[IT];
#pragma unroll
            for (int k = 0; k < IT; k++) {
                int64_t i = ch + k * T + threadIdx.x;
                keep[k] = i < n && s.pred(c, x[k], i, e);
            }
            unsigned before[IT], mask[IT], wb[IT];
            unsigned total = nesl_bt_rows<IT>(keep, before, mask, wb);
#pragma unroll
            for (int k = 0; k < IT; k++) {
                int64_t i = ch + k * T + threadIdx.x;
                if (keep[k]) s.store(c, base[c] + before[k], x[k]);
                nesl_bt_rank_store(os[c].rank, i, n, base[c] + wb[k], mask[k]);
            }
            base[c] += total;
        }
    }
    __syncthreads();
    for (int c = 0; c < K; c++) *os[c].count = NeslCount{ 0, (long)base[c] };
}

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
    for (int k = 0; k < 16; k++) rt->prof[k] = 0;
    rt->prof[NESL_BTP_ALL] = -nesl_bt_clock();
#endif
    for (int j = 0; j < NESL_BT_RANKS; j++) rt->rk_pos[j] = NULL;
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
    for (int64_t c = c0 + threadIdx.x; c < c1 && L.starts; c += blockDim.x) big |= L.starts[c + 1] - L.starts[c] > L.B;
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
        for (int k = 0; k < NESL_BT_NPROF; k++) atomicAdd(L.prof + k, (unsigned long long)rt->prof[k]);
#else
    (void)L;
#endif
    if (threadIdx.x == 0) {
        __threadfence();
        *rt->status = NESL_BT_OK;
    }
}

#endif
