/* rt_cuda_bt.cu — the host's side of the block-local tail (nesl_cuda_bt.cuh,
 * doc/codegen.md "The block-local tail"): whether a lifted call goes to the
 * tail, the launch over its groups of calls, and the results gathered
 * from the blocks' arenas into grid vectors.
 *
 * Settings (environment, read once):
 *   NESL_BT=B        the group size in elements (default 1024); 0: no tail
 *   NESL_BT_ARENA=MB a block's arena at least (default 16; 4 KB an element
 *                    of its group where that is more)
 *   NESL_BT_MEM=MB   all blocks' arenas at most (default: 1/8 of the device's)
 *   NESL_BT_STACK=KB the device stack a thread (default 16; the tail uses
 *                    all but 4 of it before it gives up)
 *   NESL_BT_LOG=1    a line on stderr per tail launch */
#include "rt_cuda_impl.h"

typedef struct BtState {
    int64_t B;
    size_t arena_bytes, mem_bytes;
    int stack_kb;
    int hdr_bytes;        /* NESL_BT_HEADERS: the headers' shared memory */
    bool log;
    bool stack_set;
    DBuf arena, meta;        /* the arenas; status, records and outputs */
    unsigned long long *prof, hprof[NESL_BT_PROF_WORDS + NESL_BT_USED_WORDS];   /* NESL_BT_LOG: the blocks' cycles and operations (NESL_BT_PROF builds), NeslBtLaunch.used */
    size_t arena_cap, meta_cap;
    char *host;              /* host copy of the outputs and the status words */
    size_t hcap;
    long runs, launches, tails, fails[8];   /* NESL_CU_PROFILE: calls considered, tails launched, done; failures by status */
    const void *big_k[8];    /* per tail kernel: its last launch had a call too large (big_n > 0) */
    int64_t big_n[8];
    int64_t resident[8];     /* per tail kernel: its blocks the device runs at once */
} BtState;

/* The slot of kernel k's last "too large" (a small table). */
static int bt_big_slot(BtState *st, const void *k)
{
    for (int i = 0; i < 8; i++)
        if (st->big_k[i] == k || !st->big_k[i]) {
            st->big_k[i] = k;
            return i;
        }
    return (int)(((uintptr_t)k >> 4) & 7);
}

static BtState *bt_state(NeslRt *rt)
{
    if (rt->bt) return rt->bt;
    BtState *st = (BtState *)calloc(1, sizeof *st);
    if (!st) nesl_fail(rt, "out of memory");
    rt->bt = st;
    const char *b = getenv("NESL_BT"), *ar = getenv("NESL_BT_ARENA"), *mem = getenv("NESL_BT_MEM");
    const char *sk = getenv("NESL_BT_STACK"), *lg = getenv("NESL_BT_LOG"), *hd = getenv("NESL_BT_HEADERS");
    st->B = b && *b ? atoll(b) : 1024;
    st->arena_bytes = (size_t)(ar && *ar ? atoll(ar) : 16) << 20;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) total_b = (size_t)32 << 30;
    st->mem_bytes = mem && *mem ? (size_t)atoll(mem) << 20 : total_b / 8;
    st->stack_kb = sk && *sk ? atoi(sk) : 16;
    st->log = lg && *lg && strcmp(lg, "0");
    /* The headers' shared memory: at least the rank table's, at most what
     * a block may have beside the scratch (227 KB on sm_90). */
    int64_t hkb = hd && *hd ? atoll(hd) : NESL_BT_HEADERS_KB;
    if (hkb < 4) hkb = 4;
    if (hkb > 200) hkb = 200;
    st->hdr_bytes = (int)(hkb << 10);
    if (st->B < 0) st->B = 0;
    if (st->stack_kb < 8) st->stack_kb = 8;
    return st;
}

/* At nesl_rt_free: with NESL_CU_PROFILE, what the tail did; then its
 * buffers go back. */
void nesl_bt_free(NeslRt *rt)
{
    BtState *st = rt->bt;
    if (!st) return;
    if (rt->prof)
        fprintf(stderr, "profile: block tail: %ld calls considered, %ld launched, %ld ran in it (%ld arena full, %ld errors, %ld too deep, %ld with a call too large)\n",
                st->runs, st->launches, st->tails, st->fails[NESL_BT_ARENA], st->fails[NESL_BT_ERROR], st->fails[NESL_BT_DEEP], st->fails[NESL_BT_BIG]);
    cudaFree(st->arena.p);   /* cudaFree(NULL) does nothing */
    cudaFree(st->meta.p);
    cudaFree(st->prof);
    free(st->host);
    free(st);
    rt->bt = NULL;
}

bool nesl_bt_open(NeslRt *rt, NeslBtLaunch *L, int np, int nr)
{
    BtState *st = bt_state(rt);
    if (st->B <= 0 || np > NESL_BT_MAXP || nr > NESL_BT_MAXR || np < 1) return false;
    memset(L, 0, sizeof *L);
    L->np = np;
    L->nr = nr;
    L->B = st->B;
    return true;
}

void nesl_bt_param_int(NeslBtLaunch *L, int i, int64_t v)
{
    L->p[i].kind = NESL_BT_PINT;
    L->p[i].parent = -2;
    L->p[i].ival = v;
    if (i == 0) L->ncalls = v;
}

void nesl_bt_param_vec(NeslRt *rt, NeslBtLaunch *L, int i, int parent, NeslVec *v)
{
    cu_vec_positions(rt, v);   /* a FILTER's positions left to its rank words */
    NeslBtParam *p = &L->p[i];
    p->kind = NESL_BT_PVEC;
    p->parent = parent;
    p->base = v->base;
    p->esize = (int)nesl_base_size(v->base);
    p->len = v->len;
    p->data = v->data;
}

void nesl_bt_param_sd(NeslRt *rt, NeslBtLaunch *L, int i, int parent, NeslSd *s)
{
    NeslBtParam *p = &L->p[i];
    p->kind = NESL_BT_PSD;
    p->parent = parent;
    p->len = s->nsegs;
    p->data = (void *)nesl_sd_lens(rt, s);
    p->offs = nesl_sd_offs(rt, s);
    p->ival = nesl_sd_total(rt, s);   /* its elements: the count of the parameters under it */
    if (parent < 0 && !L->starts) {   /* the calls' sizes: its segments */
        L->starts = p->offs;
        L->total = p->ival;
    }
}

void nesl_bt_result(NeslBtLaunch *L, int k, int kind) { L->rkind[k] = kind; }

/* Where the results go: component k's data and element size, and a
 * descriptor's total. */
typedef struct NeslBtGatherDst {
    void *p[NESL_BT_MAXR];
    int esize[NESL_BT_MAXR];
    int64_t total[NESL_BT_MAXR];
} NeslBtGatherDst;

/* Block (g, k) copies block g's piece of result k to dst[k] after the
 * pieces of the blocks before it. */
__global__ static void k_bt_gather(const NeslBtOut *out, int G, int nr, NeslBtGatherDst d)
{
    NESL_PDL_WAIT();
    int g = blockIdx.x, k = blockIdx.y;
    int64_t at = 0;
    for (int j = 0; j < g; j++) at += out[(size_t)j * nr + k].len;
    const NeslBtOut &o = out[(size_t)g * nr + k];
    int es = d.esize[k];
    char *dst = (char *)d.p[k] + at * es;
    const char *src = (const char *)o.data;
    int64_t n = o.len;
    switch (es) {
    case 8: for (int64_t i = threadIdx.x; i < n; i += blockDim.x) ((int64_t *)dst)[i] = ((const int64_t *)src)[i]; break;
    case 4: for (int64_t i = threadIdx.x; i < n; i += blockDim.x) ((int32_t *)dst)[i] = ((const int32_t *)src)[i]; break;
    default: for (int64_t i = threadIdx.x; i < n * es; i += blockDim.x) dst[i] = src[i]; break;
    }
}

/* A device block of at least n bytes in *b (its old contents lost);
 * false where the device has no room (the tail is then off). */
static bool bt_reserve(DBuf *b, size_t *cap, size_t n)
{
    if (*cap >= n) return true;
    if (b->p) cudaFree(b->p);
    b->p = NULL;
    *cap = 0;
    if (cudaMalloc(&b->p, n) != cudaSuccess) {
        (void)cudaGetLastError();
        b->p = NULL;
        return false;
    }
    *cap = n;
    return true;
}

/* The tail off for the rest of the run: the device refused its memory,
 * its stack or its kernel (never an error of the program's). */
static bool bt_off(BtState *st, const char *why)
{
    (void)cudaGetLastError();
    if (st->log) fprintf(stderr, "nesl_bt: off (%s)\n", why);
    st->B = 0;
    return false;
}

bool nesl_bt_run(NeslRt *rt, NeslBtLaunch *L, const void *kernel, NeslBase *rbase, void **res)
{
    BtState *st = bt_state(rt);
    int64_t n = L->ncalls, T = L->starts ? L->total : n;
    st->runs++;
    for (int i = 1; i < L->np; i++) {   /* the shape holds (the flattener's promise), or nothing is sliced */
        const NeslBtParam *p = &L->p[i];
        int64_t want = p->parent == -1 ? n : p->parent >= 0 ? L->p[p->parent].ival : p->len;
        if (p->kind != NESL_BT_PINT && p->len != want) return false;
    }
    if (n <= 0 || T > st->B * n) return false;   /* the average call is larger than a group */
    /* After a launch that found a call too large, the next call of the
     * function (a level down) goes to the grid: each such launch costs a
     * wait.  (Waiting for the calls to double missed quicksort's levels
     * past its widest, where the calls become fewer.) */
    int bs = bt_big_slot(st, kernel);
    if (st->big_n[bs] > 0) {
        st->big_n[bs] = 0;
        return false;
    }
    /* More than 48 KB of dynamic shared memory: the kernel must ask (each
     * launch: a slot may hold another kernel's). */
    size_t smem = NESL_BT_SCRATCH + (size_t)st->hdr_bytes;
    if (smem > (48 << 10) && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess)
        return bt_off(st, "no shared memory for the headers");
    /* Groups of B elements, but no more than the device runs at once: a
     * second wave of blocks costs as much as the first (a block's time is
     * its levels' latency), so larger groups fill one wave instead. */
    if (!st->resident[bs]) {
        int nb = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, NESL_BLOCK, smem) != cudaSuccess || nb < 1) nb = 1;
        st->resident[bs] = (int64_t)nb * rt->nsm;
    }
    int64_t width = st->B, G = T > 0 ? (T + width - 1) / width : 1;
    if (G > st->resident[bs]) {
        width = (T + st->resident[bs] - 1) / st->resident[bs];
        G = (T + width - 1) / width;
    }
    L->B = width;
    L->maxcall = st->B;
    /* Barnes-Hut used ~2 KB of arena an element (NESL_BT_LOG): 4 KB an
     * element of the group, NESL_BT_ARENA at least. */
    size_t arena = (size_t)width * 4096 > st->arena_bytes ? (size_t)width * 4096 : st->arena_bytes;
    if ((size_t)G * arena > st->mem_bytes) return false;
    L->G = (int)G;
    if (!st->stack_set) {
        size_t have = 0;
        cudaDeviceGetLimit(&have, cudaLimitStackSize);
        size_t want = (size_t)st->stack_kb << 10;
        st->stack_set = true;
        if (have < want && cudaDeviceSetLimit(cudaLimitStackSize, want) != cudaSuccess) return bt_off(st, "no stack");
    }
    L->depth_max = 200;
    L->hdr_bytes = st->hdr_bytes;
    L->stack_max = (st->stack_kb - 4) << 10;
    L->arena_bytes = arena;
    if (!bt_reserve(&st->arena, &st->arena_cap, (size_t)G * arena)) return bt_off(st, "no memory for the arenas");
    size_t ob = sizeof(NeslBtOut) * (size_t)G * (size_t)L->nr, sb = sizeof(int) * (size_t)G, eb = sizeof(NeslDErr) * (size_t)G;
    size_t ob16 = (ob + 15) & ~(size_t)15, sb16 = (sb + 15) & ~(size_t)15, eb16 = (eb + 15) & ~(size_t)15;
    if (!bt_reserve(&st->meta, &st->meta_cap, ob16 + sb16 + eb16 + 16)) return bt_off(st, "no memory");
    L->arena = (char *)st->arena.p;
    L->out = (NeslBtOut *)st->meta.p;
    L->status = (int *)((char *)st->meta.p + ob16);
    L->derr = (NeslDErr *)((char *)st->meta.p + ob16 + sb16);
    cu_queue(rt, cudaMemsetAsync(L->status, 0xff, sb, 0), "memset");
    L->abort = (int *)((char *)st->meta.p + ob16 + sb16 + eb16);
    cu_queue(rt, cudaMemsetAsync(L->derr, 0, eb16 + 16, 0), "memset");   /* the records and abort */
    if (st->log) {
        if (!st->prof && cudaMalloc((void **)&st->prof, sizeof st->hprof) != cudaSuccess) return bt_off(st, "no memory");
        cu_queue(rt, cudaMemsetAsync(st->prof, 0, sizeof st->hprof, 0), "memset");
        L->prof = st->prof;
        L->used = st->prof + NESL_BT_PROF_WORDS;   /* NESL_BT_USED_WORDS */
    }
    void *args[1] = { L };
    double t0 = nesl_cu_prof_t0(rt);
    if (cudaLaunchKernel(kernel, dim3((unsigned)G), dim3(NESL_BLOCK), args, smem, 0) != cudaSuccess) return bt_off(st, "the kernel did not launch");
    cu_queue(rt, cudaSuccess, "block tail");
    st->launches++;
    if (t0 != 0) nesl_cu_prof_launch(rt, t0);
    if (st->hcap < ob16 + sb) {
        free(st->host);
        st->hcap = ob16 + sb;
        st->host = (char *)malloc(st->hcap);
        if (!st->host) nesl_fail(rt, "out of memory");
    }
    nesl_cu_to_host(rt, st->host, st->meta.p, ob16 + sb, "a block tail's results");   /* outputs, then status words */
    const NeslBtOut *hout = (const NeslBtOut *)st->host;
    const int *hstatus = (const int *)(st->host + ob16);
    int why = NESL_BT_OK;
    for (int64_t g = 0; g < G; g++)   /* the first failure, a call too large before all */
        if (hstatus[g] != NESL_BT_OK && (why == NESL_BT_OK || hstatus[g] == NESL_BT_BIG)) why = hstatus[g];
    if (st->log)
        fprintf(stderr, "nesl_bt: %lld calls of %lld elements in %lld groups: %s\n", (long long)n, (long long)T, (long long)G,
                why == NESL_BT_OK ? "done" : why == NESL_BT_ARENA ? "arena full" : why == NESL_BT_ERROR ? "an error (the grid reports it)"
                : why == NESL_BT_DEEP ? "too deep" : why == NESL_BT_BIG ? "a call larger than a group" : "not finished");
    st->fails[why >= 0 && why < 8 ? why : 7]++;
    if (st->log) {
        static const char *const kinds[NESL_BT_NPROF] = { "map", "map_seg", "map_sd", "reduce", "scan", "seg_fold", "filter",
                                                          "filter_multi", "sd_offs", "segids", "filter_sd", "sd", "all" };
        nesl_cu_to_host(rt, st->hprof, st->prof, sizeof st->hprof, "a block tail's profile");
        fprintf(stderr, "nesl_bt: groups of %lld elements (calls of %lld at most), %llu arena bytes at most; headers: %llu of %d bytes of shared memory, %llu bytes in the arena at most\n",
                (long long)L->B, (long long)L->maxcall, st->hprof[NESL_BT_PROF_WORDS], st->hprof[NESL_BT_PROF_WORDS + 1], st->hdr_bytes,
                st->hprof[NESL_BT_PROF_WORDS + 2]);
        if (st->hprof[NESL_BTP_ALL]) {   /* a block's cycles (its operations) by kind; an operation's include those it calls */
            fprintf(stderr, "nesl_bt: cycles a block:");
            for (int k = 0; k < NESL_BT_NPROF; k++)
                fprintf(stderr, " %s %.0f (%.1f)", kinds[k], (double)st->hprof[k] / (double)G, (double)st->hprof[NESL_BT_NPROF + k] / (double)G);
            fputc('\n', stderr);
        }
    }
    if (why == NESL_BT_BIG) {
        st->big_k[bs] = kernel;
        st->big_n[bs] = n;
    }
    if (why != NESL_BT_OK) return false;
    st->big_n[bs] = 0;
    st->tails++;
    if (L->nr == 0) return true;
    NeslBtGatherDst d;
    memset(&d, 0, sizeof d);
    for (int k = 0; k < L->nr; k++) {
        int64_t len = 0, total = 0;
        for (int64_t g = 0; g < G; g++) {
            len += hout[g * L->nr + k].len;
            total += hout[g * L->nr + k].total;
        }
        NeslVec *v = nesl_vec_new(rt, L->rkind[k] == NESL_BT_PSD ? NESL_INT : rbase[k], len);
        d.p[k] = v->data;
        d.esize[k] = (int)nesl_base_size(v->base);
        res[k] = v;
        d.total[k] = total;
    }
    nesl_cu_launch(rt, k_bt_gather, dim3((unsigned)G, (unsigned)L->nr), dim3(NESL_BLOCK), (const NeslBtOut *)L->out, (int)G, L->nr, d);
    nesl_cu_launched(rt, "block tail");
    for (int k = 0; k < L->nr; k++)
        if (L->rkind[k] == NESL_BT_PSD) res[k] = nesl_make_sd_total(rt, (NeslVec *)res[k], (int32_t)d.total[k]);
    return true;
}
