/* rt_cuda.cu — the GPU implementation of nesl_rt.h (doc/codegen.md, "The
 * CUDA back end"): frames of objects whose data lives in device memory, a
 * caching device allocator with the CPU runtime's size classes, segment
 * descriptors computed on the device, the device error record, launch
 * configuration, and the library kernels (stable ranks with
 * CUB's radix sort).  Built once by nvcc into libnesl_rt_cuda.a together
 * with the shared C files (rt_core.c: frames, errors, statistics, options;
 * rt_print.c, rt_math.c, ...); generated programs link against it. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cub/cub.cuh>
#include "rt_core.h"
#include "nesl_cuda.cuh"

#define NCLASSES (4 * 48)
#define MIN_EXP 8                     /* 256-byte blocks at least (aligned for any element type) */
#define NGRIDS 256
#define NSLOTS 1024                   /* error slots before a forced check */
#define RET_BYTES 256                 /* the result area before them (nesl_cu_ret) */

/* A device block and its size class (-1: none). */
typedef struct DBuf { void *p; int cls; } DBuf;
typedef struct FreeBlk { void *p; struct FreeBlk *next; } FreeBlk;

/* Host wrappers: the public struct first, then what the runtime keeps. */
typedef struct CuVec { NeslVec v; DBuf d; void *host; size_t host_cap; } CuVec;
/* ulen: the length of every segment of a dist_sd descriptor, else -1;
 * unfilled: a dist_sd whose lens and offs are not written yet (sd_fill);
 * offs32: the offsets as ints, made with offs by the one-block scan, and
 * handed to the first offsets (s) vector (then empty) */
typedef struct CuSd { NeslSd s; DBuf lens, offs, offs32, ids; int64_t total; int32_t *host_lens; int32_t ulen; bool unfilled; } CuSd;
typedef struct CuTmp { NeslObj obj; DBuf d; } CuTmp;

struct NeslRt {
    NeslCore core;
    FreeBlk *free_list[NCLASSES];
    size_t cached, cache_limit;
    /* Device error records, one slot per group of launches that may fail
     * (doc/codegen.md, "Deferred error checks"): launches write the slot
     * nesl_cu_derr gives, nesl_cu_raise moves on to the next slot without
     * waiting, and the slots are read at the next point where the host
     * waits for the device anyway (err_fetch ... err_check).  A record
     * also sets *hany, mapped host memory, so the slots are copied only
     * when one is set: H100, Black-Scholes 0.094 -> 0.088 ms and
     * mandelbrot 0.157 -> 0.154 without the copy after each form. */
    NeslDErr *derr;          /* device: NSLOTS records */
    NeslDErr *hderr;         /* pinned host memory: their copy */
    volatile int *hany;      /* mapped pinned host memory: some record is set */
    /* A kernel's small result for the host (a REDUCE's value, a FILTER's
     * count) lives in RET_BYTES of pinned memory for its copy: H100, a
     * one-block kernel's form 18.7 -> 14.9 us, against a pageable copy
     * (bench/cuda/form_overhead.cu).  The slots follow it in the same
     * allocations. */
    char *dret, *hret;       /* device and pinned host: RET_BYTES + the slots */
    bool ret_busy;           /* nesl_cu_ret gave out dret, not fetched yet */
    int slot;                /* the slot launches write now */
    bool slot_used;          /* nesl_cu_derr gave out derr + slot */
    int fetched;             /* slots whose copy err_fetch has queued */
    unsigned *counter;       /* device: zero between reductions */
    int nsm;
    cudaEvent_t ev_start, ev_stop;   /* nesl_timer_*, made at first use */
    bool ev_made;
    const void *grid_fn[NGRIDS];
    int grid_blocks[NGRIDS];
    int ngrids;
};

NeslCore *nesl_core(NeslRt *rt) { return &rt->core; }

/* Every slot empty, with the device address of the flag it sets. */
static cudaError_t slots_clear(NeslRt *rt)
{
    volatile int *dany = NULL;
    cudaError_t e = cudaHostGetDevicePointer((void **)&dany, (void *)rt->hany, 0);
    if (e != cudaSuccess) return e;
    memset(rt->hderr, 0, sizeof(NeslDErr) * NSLOTS);
    for (int k = 0; k < NSLOTS; k++) rt->hderr[k].any = dany;
    e = cudaMemcpy(rt->derr, rt->hderr, sizeof(NeslDErr) * NSLOTS, cudaMemcpyHostToDevice);
    *rt->hany = 0;
    return e;
}

/* After a runtime error a NESL program goes on with its next form: the
 * device error record and the reduction counter start clean. */
void nesl_tgt_reset(NeslRt *rt)
{
    cudaDeviceSynchronize();
    slots_clear(rt);
    cudaMemset(rt->counter, 0, sizeof(unsigned));
    rt->ret_busy = false;
    rt->slot = 0;
    rt->slot_used = false;
    rt->fetched = 0;
}

static void ck(NeslRt *rt, cudaError_t e, const char *what)
{
    if (e != cudaSuccess) nesl_fail(rt, "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

/* ---- deferred device errors ---- */
/* Before an operation that waits for the device: the slots written since
 * the last check are the ones err_check reads once the device is idle.
 * With with_result, queue the copy of the kernel result area (dret). */
static void err_fetch(NeslRt *rt, bool with_result)
{
    rt->fetched = rt->slot + (rt->slot_used ? 1 : 0);
    rt->slot = 0;
    rt->slot_used = false;
    if (with_result) ck(rt, cudaMemcpyAsync(rt->hret, rt->dret, RET_BYTES, cudaMemcpyDeviceToHost, 0), "copy to the host");
}

/* After it, with the device idle (its writes to mapped memory are then
 * visible): if a record was set, copy the slots; the earliest slot with
 * an error is the first failing launch group in program order, whatever
 * later groups (which ran on its results) recorded; report it as the
 * interpreter words it.  The report ends the form, and nesl_tgt_reset
 * clears the slots and the flag. */
static void err_check(NeslRt *rt)
{
    int n = rt->fetched;
    rt->fetched = 0;
    if (n == 0 || !*rt->hany) return;
    ck(rt, cudaMemcpy(rt->hderr, rt->derr, sizeof(NeslDErr) * (size_t)n, cudaMemcpyDeviceToHost), "copy to the host");
    for (int k = 0; k < n; k++) {
        NeslDErr *d = &rt->hderr[k];
        if (!d->set) continue;
        NeslErr *e = &rt->core.herr;
        /* the name: a string literal in device memory (the record keeps
         * its pointer), copied byte by byte so no read passes its end */
        char name[64] = "";
        for (int c = 0; d->name && c < 63; c++) {
            ck(rt, cudaMemcpy(name + c, d->name + c, 1, cudaMemcpyDeviceToHost), "an error record");
            if (!name[c]) break;
        }
        switch (d->code) {
        case NESL_E_DIV: case NESL_E_REM: nesl_err_rec(e, d->it, "integer division by zero"); break;
        case NESL_E_BREM: nesl_err_rec(e, d->it, "rem: integer division by zero"); break;
        case NESL_E_BMOD: nesl_err_rec(e, d->it, "mod: integer division by zero"); break;
        case NESL_E_ISQRT: nesl_err_rec(e, d->it, "isqrt: negative argument"); break;
        case NESL_E_INDEX: nesl_err_rec(e, d->it, "index %lld out of range for '%s' of length %lld", d->a, name, d->b); break;
        case NESL_E_TARGET: nesl_err_rec(e, d->it, "%s target index %lld out of range 0..%lld", name, d->a, d->b - 1); break;
        case NESL_E_GUARD: nesl_err_guard(e, d->it, (int32_t)d->a, (int32_t)d->b); break;
        case NESL_E_SDLEN: nesl_err_rec(e, d->it, "make_sd: negative segment length %lld", d->a); break;
        default: nesl_fail(rt, "a device error record with code %d", d->code);
        }
        nesl_err_report(e);
    }
}

/* A host error must not overtake a device error of an earlier launch:
 * rt_core.c checks the device before it reports one. */
void nesl_tgt_flush_errors(NeslRt *rt)
{
    if (nesl_cu_pending_errors(rt) == 0) return;
    err_fetch(rt, false);
    /* no ck: this runs on the way to an error report, which a CUDA error
     * (and its own message) may be; then the copies are not to be trusted */
    if (cudaStreamSynchronize(0) != cudaSuccess) rt->fetched = 0;
    err_check(rt);
}

/* ---- device blocks: size classes 2^e, 1.25, 1.5, 1.75 * 2^e, cached ---- */
static size_t class_size(int c)
{
    int e = c / 4, q = c % 4;
    return ((size_t)1 << e) + (size_t)q * ((size_t)1 << (e - 2));
}

static int size_class(size_t n)
{
    if (n <= (size_t)1 << MIN_EXP) return 4 * MIN_EXP;
    int e = MIN_EXP;
    while (e < 62 && ((size_t)1 << (e + 1)) < n) e++;
    for (int q = 1; q < 4; q++)
        if (class_size(4 * e + q) >= n) return 4 * e + q;
    return 4 * (e + 1);
}

static void flush_cache(NeslRt *rt)
{
    for (int k = 0; k < NCLASSES; k++)
        while (rt->free_list[k]) {
            FreeBlk *f = rt->free_list[k];
            rt->free_list[k] = f->next;
            cudaFree(f->p);
            free(f);
        }
    rt->cached = 0;
}

static DBuf dev_get(NeslRt *rt, size_t n)
{
    DBuf b = { NULL, -1 };
    if (n == 0) return b;
    int c = size_class(n);
    if (c >= NCLASSES) nesl_fail(rt, "out of memory (a block of %zu bytes)", n);
    b.cls = c;
    FreeBlk *f = rt->free_list[c];
    if (f) {
        rt->free_list[c] = f->next;
        rt->cached -= class_size(c);
        b.p = f->p;
        free(f);
        return b;
    }
    if (cudaMalloc(&b.p, class_size(c)) != cudaSuccess) {
        cudaGetLastError();   /* clear it */
        flush_cache(rt);
        if (cudaMalloc(&b.p, class_size(c)) != cudaSuccess) nesl_fail(rt, "out of memory (a block of %zu bytes)", n);
    }
    return b;
}

static void dev_put(NeslRt *rt, DBuf b)
{
    if (!b.p) return;
    size_t sz = class_size(b.cls);
    FreeBlk *f = (FreeBlk *)malloc(sizeof *f);
    if (!f || rt->cached + sz > rt->cache_limit) {
        free(f);
        cudaFree(b.p);
        return;
    }
    f->p = b.p;
    f->next = rt->free_list[b.cls];
    rt->free_list[b.cls] = f;
    rt->cached += sz;
}

/* ---- frames ---- */
static void *new_obj(NeslRt *rt, NeslObjKind k, size_t bytes)
{
    NeslObj *o = (NeslObj *)calloc(1, bytes);
    if (!o) nesl_fail(rt, "out of memory");
    o->kind = k;
    nesl_core_push(rt, o);
    return o;
}

void nesl_tgt_free_obj(NeslRt *rt, NeslObj *o)
{
    switch (o->kind) {
    case NESL_OBJ_VEC: {
        CuVec *v = (CuVec *)o;
        dev_put(rt, v->d);
        free(v->host);
        break;
    }
    case NESL_OBJ_SD: {
        CuSd *s = (CuSd *)o;
        dev_put(rt, s->lens);
        dev_put(rt, s->offs);
        dev_put(rt, s->offs32);
        dev_put(rt, s->ids);
        free(s->host_lens);
        break;
    }
    case NESL_OBJ_TMP: dev_put(rt, ((CuTmp *)o)->d); break;
    }
    free(o);
}

/* ---- objects ---- */
/* A vector object owning the device block d. */
static NeslVec *vec_adopt(NeslRt *rt, NeslBase b, int64_t len, DBuf d)
{
    CuVec *v = (CuVec *)new_obj(rt, NESL_OBJ_VEC, sizeof(CuVec));
    v->d = d;
    v->v.base = b;
    v->v.len = len;
    v->v.data = v->d.p;
    return &v->v;
}

NeslVec *nesl_vec_new(NeslRt *rt, NeslBase b, int64_t len)
{
    if (len < 0 || (uint64_t)len > ((uint64_t)1 << 40)) nesl_fail(rt, "out of memory (a vector of %lld elements)", (long long)len);
    return vec_adopt(rt, b, len, dev_get(rt, nesl_base_size(b) * (size_t)len));
}

NeslVec *nesl_vec_zero(NeslRt *rt, NeslBase b, int64_t len)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    if (len) ck(rt, cudaMemsetAsync(v->data, 0, nesl_base_size(b) * (size_t)len), "memset");
    return v;
}

/* A few bytes from the host, as a kernel parameter: a copy from pageable
 * memory waits for the device first (mandelbrot's [n] literal waited for
 * the two index vectors before it) */
#define SMALL_H2D 64
typedef struct SmallBytes { unsigned char b[SMALL_H2D]; } SmallBytes;

__global__ static void k_small_copy(unsigned char *dst, SmallBytes src, int n)
{
    if ((int)threadIdx.x < n) dst[threadIdx.x] = src.b[threadIdx.x];
}

NeslVec *nesl_vec_from_host(NeslRt *rt, NeslBase b, int64_t len, const void *data)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    size_t bytes = nesl_base_size(b) * (size_t)len;
    if (bytes > 0 && bytes <= SMALL_H2D) {
        SmallBytes s;
        memcpy(s.b, data, bytes);
        k_small_copy<<<1, SMALL_H2D>>>((unsigned char *)v->data, s, (int)bytes);
        nesl_cu_launched(rt, "copy to the device");
    } else if (bytes) {
        ck(rt, cudaMemcpy(v->data, data, bytes, cudaMemcpyHostToDevice), "copy to the device");
    }
    return v;
}

NeslVec *nesl_string(NeslRt *rt, const char *s, int64_t len) { return nesl_vec_from_host(rt, NESL_CHAR, len, s); }

const void *nesl_vec_host(NeslRt *rt, const NeslVec *cv)
{
    CuVec *v = (CuVec *)cv;
    size_t bytes = nesl_base_size(v->v.base) * (size_t)v->v.len;
    if (v->host_cap < bytes || !v->host) {
        free(v->host);
        v->host = malloc(bytes ? bytes : 1);
        if (!v->host) nesl_fail(rt, "out of memory");
        v->host_cap = bytes;
    }
    err_fetch(rt, false);
    if (bytes) ck(rt, cudaMemcpy(v->host, v->v.data, bytes, cudaMemcpyDeviceToHost), "copy to the host");
    err_check(rt);
    return v->host;
}

void nesl_vec_get(NeslRt *rt, const NeslVec *v, int64_t i, void *out)
{
    nesl_cu_to_host(rt, out, (const char *)v->data + nesl_base_size(v->base) * (size_t)i, nesl_base_size(v->base));
}

static void sd_fill(NeslRt *rt, CuSd *s);

const int32_t *nesl_sd_host_lens(NeslRt *rt, const NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    sd_fill(rt, s);
    if (!s->host_lens) {
        s->host_lens = (int32_t *)malloc(sizeof(int32_t) * (size_t)(s->s.nsegs + 1));
        if (!s->host_lens) nesl_fail(rt, "out of memory");
        err_fetch(rt, false);
        if (s->s.nsegs)
            ck(rt, cudaMemcpy(s->host_lens, s->s.lens, sizeof(int32_t) * (size_t)s->s.nsegs, cudaMemcpyDeviceToHost), "copy to the host");
        err_check(rt);
    }
    return s->host_lens;
}

double nesl_wall(NeslRt *rt)
{
    err_fetch(rt, false);
    /* A form that ends by fetching its result leaves the stream idle; the
     * query says so without a device synchronization (about 2 us on the
     * H100).  Only the legacy default stream is used, so an idle stream 0
     * is an idle device. */
    if (cudaStreamQuery(0) != cudaSuccess)
        ck(rt, cudaDeviceSynchronize(), "a kernel");
    err_check(rt);
    return nesl_clock();
}

void nesl_timer_start(NeslRt *rt)
{
    if (!rt->ev_made) {
        ck(rt, cudaEventCreate(&rt->ev_start), "an event");
        ck(rt, cudaEventCreate(&rt->ev_stop), "an event");
        rt->ev_made = true;
    }
    rt->core.timer_wall0 = nesl_wall(rt);   /* idle, and earlier errors checked */
    ck(rt, cudaEventRecord(rt->ev_start, 0), "an event");
}

double nesl_timer_stop(NeslRt *rt, double *wall_ms)
{
    err_fetch(rt, false);   /* the copy of pending error records is the form's work */
    ck(rt, cudaEventRecord(rt->ev_stop, 0), "an event");
    ck(rt, cudaEventSynchronize(rt->ev_stop), "a kernel");
    err_check(rt);
    if (wall_ms) *wall_ms = (nesl_clock() - rt->core.timer_wall0) * 1e3;
    float ms = 0;
    ck(rt, cudaEventElapsedTime(&ms, rt->ev_start, rt->ev_stop), "an event");
    return ms;
}

void *nesl_cu_tmp(NeslRt *rt, size_t bytes, bool zero)
{
    CuTmp *t = (CuTmp *)new_obj(rt, NESL_OBJ_TMP, sizeof(CuTmp));
    t->d = dev_get(rt, bytes);
    if (zero && bytes) ck(rt, cudaMemsetAsync(t->d.p, 0, bytes), "memset");
    return t->d.p;
}

void *nesl_tmp(NeslRt *rt, size_t bytes) { return nesl_cu_tmp(rt, bytes, false); }
void *nesl_tmp_zero(NeslRt *rt, size_t bytes) { return nesl_cu_tmp(rt, bytes, true); }

void *nesl_cu_ret(NeslRt *rt, size_t bytes)
{
    if (bytes > RET_BYTES || rt->ret_busy) return nesl_cu_tmp(rt, bytes, false);
    rt->ret_busy = true;
    return rt->dret;
}

void nesl_cu_to_host(NeslRt *rt, void *dst, const void *src, size_t bytes)
{
    if (rt->ret_busy && src == rt->dret) {   /* the result area, already pinned */
        err_fetch(rt, true);
        ck(rt, cudaStreamSynchronize(0), "a kernel");
        memcpy(dst, rt->hret, bytes);
        rt->ret_busy = false;
        err_check(rt);
        return;
    }
    err_fetch(rt, false);
    if (bytes <= RET_BYTES) {   /* through pinned memory: 2 us less than a pageable copy (form_overhead.cu) */
        ck(rt, cudaMemcpyAsync(rt->hret, src, bytes, cudaMemcpyDeviceToHost, 0), "copy to the host");
        ck(rt, cudaStreamSynchronize(0), "a kernel");
        memcpy(dst, rt->hret, bytes);
    } else {
        ck(rt, cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "a kernel");
    }
    err_check(rt);
}

NeslSd *nesl_sd_new(NeslRt *rt, int64_t nsegs)
{
    CuSd *s = (CuSd *)new_obj(rt, NESL_OBJ_SD, sizeof(CuSd));
    s->lens = dev_get(rt, sizeof(int32_t) * (size_t)nsegs);
    s->offs.cls = s->offs32.cls = s->ids.cls = -1;
    s->total = -1;
    s->ulen = -1;
    s->s.nsegs = nsegs;
    s->s.lens = (int32_t *)s->lens.p;
    return &s->s;
}

/* ---- segment descriptors on the device ---- */
/* Length g of n (0 past the end); a negative length is make_sd's error,
 * recorded for the deferred check (e: NULL where the lengths were checked
 * before). */
static __device__ int32_t sd_len(const int32_t *lens, int64_t g, int64_t n, NeslDErr *e)
{
    int32_t l = g < n ? lens[g] : 0;
    if (l < 0 && e) nesl_derr_rec(e, g, NESL_E_SDLEN, l, 0, 0);
    return l;
}

/* The lengths shifted by one for the scan into offsets. */
__global__ static void k_lens64(const int32_t *lens, int64_t n, int64_t *offs, NeslDErr *e)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride)
        offs[g] = g == 0 ? 0 : sd_len(lens, g - 1, n, e);
}

/* The offsets of at most SD_SMALL segments in one launch of one block (no
 * shifted copy, no scan kernels): most descriptors are that small, and
 * quicksort makes a dozen per recursion level. */
#define SD_SMALL_ITEMS 16
#define SD_SMALL (NESL_BLOCK * SD_SMALL_ITEMS)
__global__ static void k_sd_offs_small(const int32_t *lens, int64_t n, int64_t *offs, int32_t *offs32, NeslDErr *e)
{
    typedef cub::BlockScan<int64_t, NESL_BLOCK> Scan;
    __shared__ typename Scan::TempStorage tmp;
    int64_t v[SD_SMALL_ITEMS], total;
    int64_t g0 = (int64_t)threadIdx.x * SD_SMALL_ITEMS;
#pragma unroll
    for (int k = 0; k < SD_SMALL_ITEMS; k++) v[k] = sd_len(lens, g0 + k, n, e);
    Scan(tmp).ExclusiveSum(v, v, total);
#pragma unroll
    for (int k = 0; k < SD_SMALL_ITEMS; k++)
        if (g0 + k < n) {
            offs[g0 + k] = v[k];
            offs32[g0 + k] = (int32_t)v[k];
        }
    if (threadIdx.x == 0) offs[n] = total;
}

/* The segment of element i: the last g in [lo, hi) with o[g - base] <= i,
 * given o[lo - base] <= i < o[hi - base] (or hi the last segment + 1), so
 * a nonempty segment.  base: o holds the offsets from segment base on. */
static __device__ int64_t segid_search(const int64_t *o, int64_t base, int64_t lo, int64_t hi, int64_t i)
{
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (o[mid - base] <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The same search by a whole warp: each round its 32 lanes probe 32 evenly
 * spaced offsets, so 1e6 segments take 4 rounds of dependent loads where
 * one thread's binary search takes 20. */
static __device__ int64_t segid_search_warp(const int64_t *offs, int64_t lo, int64_t hi, int64_t i)
{
    int lane = threadIdx.x & 31;
    while (hi - lo > 32) {
        int64_t step = (hi - lo + 31) / 32;
        int64_t p = lo + step * lane;   /* lane 0: lo, where offs[lo] <= i */
        unsigned le = __ballot_sync(0xffffffffu, p < hi && offs[p] <= i);   /* a prefix of the lanes */
        lo += step * (31 - __clz(le));
        hi = lo + step < hi ? lo + step : hi;
    }
    unsigned le = __ballot_sync(0xffffffffu, lo + lane < hi && offs[lo + lane] <= i);
    return lo + (31 - __clz(le));
}

/* The ids of SEGID_RUN consecutive elements from i0 (a multiple of
 * SEGID_RUN), the first in segment g: one load per element that stays in
 * its segment, two when it moves to the next one (short segments: spmv's
 * rows, quicksort's partitions), a search from there past that. */
#define SEGID_RUN 8   /* two int4 stores */
static __device__ void segid_run(const int64_t *o, int64_t base, int64_t hi, int64_t g, int64_t i0, int64_t total, int32_t *ids)
{
    int32_t v[SEGID_RUN];
#pragma unroll
    for (int k = 0; k < SEGID_RUN; k++) {
        if (k > 0 && g + 1 < hi && o[g + 1 - base] <= i0 + k) {
            g++;
            if (g + 1 < hi && o[g + 1 - base] <= i0 + k) g = segid_search(o, base, g + 1, hi, i0 + k);
        }
        v[k] = (int32_t)g;
    }
    if (i0 + SEGID_RUN <= total) {   /* ids is 256-byte aligned and i0 a multiple of 8 */
        int4 *d = (int4 *)(ids + i0);
        d[0] = make_int4(v[0], v[1], v[2], v[3]);
        d[1] = make_int4(v[4], v[5], v[6], v[7]);
    } else {
        for (int k = 0; k < SEGID_RUN && i0 + k < total; k++) ids[i0 + k] = v[k];
    }
}

/* A block takes a tile of SEGID_TILE elements: two searches over all the
 * offsets find its first and last segment, and when those segments' offsets
 * fit in shared memory, every thread searches them there.  A search per
 * thread over all the offsets cost quicksort's descriptors (up to n/2
 * segments, ~19 dependent global loads each) 13 us a launch on the H100;
 * mandelbrot's 4e6 elements in 2000 segments took 51 us with a search per
 * element, 14 with a search per run. */
#define SEGID_TILE (NESL_BLOCK * SEGID_RUN)
__global__ static void k_segids(const int64_t *offs, int64_t nsegs, int64_t total, int32_t *ids)
{
    __shared__ int64_t so[SEGID_TILE];
    __shared__ int64_t gs, ge;
    for (int64_t t0 = (int64_t)blockIdx.x * SEGID_TILE; t0 < total; t0 += (int64_t)gridDim.x * SEGID_TILE) {
        int64_t t1 = (t0 + SEGID_TILE < total ? t0 + SEGID_TILE : total) - 1;
        int w = threadIdx.x >> 5;
        if (w < 2) {   /* two warps in parallel */
            int64_t g = segid_search_warp(offs, 0, nsegs, w == 0 ? t0 : t1);
            if ((threadIdx.x & 31) == 0) *(w == 0 ? &gs : &ge) = g;
        }
        __syncthreads();
        int64_t a = gs, b = ge + 1, m = b - a;   /* the tile's segments: [a, b) */
        bool shared = m <= SEGID_TILE;   /* else many empty segments: search the offsets in global memory */
        if (shared)
            for (int64_t k = threadIdx.x; k < m; k += blockDim.x) so[k] = offs[a + k];
        __syncthreads();
        int64_t i0 = t0 + (int64_t)threadIdx.x * SEGID_RUN;
        if (i0 <= t1) {
            const int64_t *o = shared ? so : offs;
            int64_t base = shared ? a : 0;
            segid_run(o, base, b, segid_search(o, base, a, b, i0), i0, total, ids);
        }
        __syncthreads();   /* so, gs and ge are the next tile's */
    }
}

static int64_t grid_for(NeslRt *rt, const void *k, int64_t n)
{
    return nesl_cu_grid(rt, k, (n + NESL_BLOCK - 1) / NESL_BLOCK);
}

/* dist_sd's descriptor: every length l, offsets g * l. */
__global__ static void k_dist_sd(int32_t l, int64_t n, int32_t *lens, int64_t *offs)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride) {
        if (g < n) lens[g] = l;
        offs[g] = g * l;
    }
}

__global__ static void k_segids_uniform(int32_t l, int64_t total, int32_t *ids)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride)
        ids[i] = nesl_div_in((int32_t)i, l);
}

/* The offsets, as an exclusive scan of the lengths on the device; the
 * host does not wait for it (the total is read when asked for). */
static void sd_scan(NeslRt *rt, CuSd *s, bool check)
{
    int64_t n = s->s.nsegs;
    s->offs = dev_get(rt, sizeof(int64_t) * (size_t)(n + 1));
    int64_t *o = (int64_t *)s->offs.p;
    NeslDErr *e = NULL;
    if (check) {   /* a slot of its own: the launches before may fail too */
        nesl_cu_raise(rt);
        e = nesl_cu_derr(rt);
    }
    if (n <= SD_SMALL) {
        s->offs32 = dev_get(rt, sizeof(int32_t) * (size_t)n);
        k_sd_offs_small<<<1, NESL_BLOCK>>>(s->s.lens, n, o, (int32_t *)s->offs32.p, e);
        nesl_cu_launched(rt, "segment offsets");
        if (check) nesl_cu_raise(rt);
        return;
    }
    k_lens64<<<(unsigned)grid_for(rt, (const void *)k_lens64, n + 1), NESL_BLOCK>>>(s->s.lens, n, o, e);
    nesl_cu_launched(rt, "segment offsets");
    if (check) nesl_cu_raise(rt);
    size_t bytes = 0;
    cub::DeviceScan::InclusiveSum(NULL, bytes, o + 1, o + 1, (int)n);
    size_t mark = nesl_mark(rt);
    void *tmp = nesl_cu_tmp(rt, bytes, false);
    cub::DeviceScan::InclusiveSum(tmp, bytes, o + 1, o + 1, (int)n);
    nesl_cu_launched(rt, "segment offsets");
    nesl_release(rt, mark, 0);
}

const int64_t *nesl_sd_offs(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    sd_fill(rt, s);
    if (!s->offs.p) sd_scan(rt, s, false);
    return (const int64_t *)s->offs.p;
}

const int32_t *nesl_sd_lens(NeslRt *rt, NeslSd *cs)
{
    sd_fill(rt, (CuSd *)cs);
    return cs->lens;
}

int64_t nesl_sd_total(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    if (s->total < 0) nesl_cu_to_host(rt, &s->total, nesl_sd_offs(rt, cs) + s->s.nsegs, sizeof(int64_t));
    return s->total;
}

const int32_t *nesl_sd_segids(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    if (!s->ids.p) {
        nesl_sd_total(rt, cs);
        s->ids = dev_get(rt, sizeof(int32_t) * (size_t)s->total);
        if (s->total > 0 && s->ulen > 0) {   /* arithmetic: a dist_sd stays unfilled */
            k_segids_uniform<<<(unsigned)grid_for(rt, (const void *)k_segids_uniform, s->total), NESL_BLOCK>>>(s->ulen, s->total, (int32_t *)s->ids.p);
            nesl_cu_launched(rt, "segment ids");
        } else if (s->total > 0) {
            const int64_t *o = nesl_sd_offs(rt, cs);
            k_segids<<<(unsigned)nesl_cu_grid(rt, (const void *)k_segids, (s->total + SEGID_TILE - 1) / SEGID_TILE), NESL_BLOCK>>>(o, s->s.nsegs, s->total, (int32_t *)s->ids.p);
            nesl_cu_launched(rt, "segment ids");
        }
    }
    return (const int32_t *)s->ids.p;
}

/* ---- CPU builtins ---- */
/* Without a wait for the device: reading the lengths on the host to check
 * them cost a copy of every length and a synchronization per descriptor
 * (quicksort makes a dozen per recursion level, with up to n/2 segments);
 * the scan checks them instead, for the deferred error check. */
NeslSd *nesl_make_sd(NeslRt *rt, const NeslVec *lens)
{
    CuSd *s = (CuSd *)nesl_sd_new(rt, lens->len);
    if (lens->len)
        ck(rt, cudaMemcpyAsync(s->lens.p, lens->data, sizeof(int32_t) * (size_t)lens->len, cudaMemcpyDeviceToDevice, 0), "copy");
    sd_scan(rt, s, true);
    return &s->s;
}

/* Its lengths and offsets are written when first read (sd_fill): a
 * uniform descriptor's readers in generated code compute them (doc/
 * flattening.md), so mandelbrot's timed form launched a kernel for
 * lengths that only printing reads. */
NeslSd *nesl_dist_sd(NeslRt *rt, int32_t n, int32_t l)
{
    nesl_dist_sd_check(rt, n, l);
    CuSd *s = (CuSd *)nesl_sd_new(rt, n);
    s->total = (int64_t)n * l;
    s->ulen = l;
    s->unfilled = true;
    return &s->s;
}

static void sd_fill(NeslRt *rt, CuSd *s)
{
    if (!s->unfilled) return;
    s->unfilled = false;
    int64_t n = s->s.nsegs;
    s->offs = dev_get(rt, sizeof(int64_t) * (size_t)(n + 1));
    k_dist_sd<<<(unsigned)grid_for(rt, (const void *)k_dist_sd, n + 1), NESL_BLOCK>>>(s->ulen, n, s->s.lens, (int64_t *)s->offs.p);
    nesl_cu_launched(rt, "segment descriptor");
}

NeslVec *nesl_lengths(NeslRt *rt, const NeslSd *s)
{
    sd_fill(rt, (CuSd *)s);
    NeslVec *v = nesl_vec_new(rt, NESL_INT, s->nsegs);
    if (s->nsegs) ck(rt, cudaMemcpy(v->data, s->lens, sizeof(int32_t) * (size_t)s->nsegs, cudaMemcpyDeviceToDevice), "copy");
    return v;
}

__global__ static void k_to_int(const int64_t *o, int64_t n, int32_t *d)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += stride) d[g] = (int32_t)o[g];
}

NeslVec *nesl_offsets(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    const int64_t *o = nesl_sd_offs(rt, cs);
    if (s->offs32.p) {   /* no launch: quicksort asks for a dozen offsets per level */
        NeslVec *v = vec_adopt(rt, NESL_INT, cs->nsegs, s->offs32);
        s->offs32 = (DBuf){ NULL, -1 };
        return v;
    }
    NeslVec *v = nesl_vec_new(rt, NESL_INT, cs->nsegs);
    if (cs->nsegs > 0) {
        k_to_int<<<(unsigned)grid_for(rt, (const void *)k_to_int, cs->nsegs), NESL_BLOCK>>>(o, cs->nsegs, (int32_t *)v->data);
        nesl_cu_launched(rt, "offsets");
    }
    return v;
}

NeslVec *nesl_segids(NeslRt *rt, NeslSd *s)
{
    const int32_t *ids = nesl_sd_segids(rt, s);
    int64_t t = nesl_sd_total(rt, s);
    NeslVec *v = nesl_vec_new(rt, NESL_INT, t);
    if (t) ck(rt, cudaMemcpy(v->data, ids, sizeof(int32_t) * (size_t)t, cudaMemcpyDeviceToDevice), "copy");
    return v;
}

NeslDErr *nesl_cu_derr(NeslRt *rt)
{
    rt->slot_used = true;
    return rt->derr + rt->slot;
}

unsigned *nesl_cu_counter(NeslRt *rt) { return rt->counter; }

void nesl_cu_raise(NeslRt *rt)
{
    if (!rt->slot_used) return;
    rt->slot_used = false;
    if (++rt->slot == NSLOTS) nesl_cu_check_errors(rt);
}

void nesl_cu_check_errors(NeslRt *rt)
{
    err_fetch(rt, false);
    ck(rt, cudaStreamSynchronize(0), "a kernel");
    err_check(rt);
}

int nesl_cu_pending_errors(NeslRt *rt) { return rt->slot + (rt->slot_used ? 1 : 0); }

int64_t nesl_cu_grid(NeslRt *rt, const void *kernel, int64_t most) { return nesl_cu_grid_threads(rt, kernel, NESL_BLOCK, most); }

int64_t nesl_cu_grid_threads(NeslRt *rt, const void *kernel, int threads, int64_t most)
{
    int nb = -1;
    for (int i = 0; i < rt->ngrids; i++)
        if (rt->grid_fn[i] == kernel) nb = rt->grid_blocks[i];
    if (nb < 0) {
        ck(rt, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, threads, 0), "the occupancy query");
        if (nb < 1) nb = 1;
        if (rt->ngrids < NGRIDS) {
            rt->grid_fn[rt->ngrids] = kernel;
            rt->grid_blocks[rt->ngrids++] = nb;
        }
    }
    int64_t g = (int64_t)nb * rt->nsm;
    if (g > most) g = most;
    return g < 1 ? 1 : g;
}

void nesl_cu_launched(NeslRt *rt, const char *what) { ck(rt, cudaGetLastError(), what); }

/* ---- ranks: stable radix sorts (CUB).  Float keys: NaNs made one
 * positive NaN and -0.0 made +0.0 first, so that they compare as in the
 * interpreter (NaN above every number, all NaNs equal, -0.0 == 0.0).
 * Segmented: a second stable sort by segment id. ---- */
__global__ static void k_iota(int64_t n, int32_t *idx)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) idx[i] = (int32_t)i;
}

/* K: double, or float (-ffloat32); qnan: the one positive quiet NaN of K. */
template <class K> __global__ static void k_canon(const K *x, int64_t n, K *y, K qnan)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        K v = x[i];
        y[i] = isnan(v) ? qnan : v == (K)0 ? (K)0 : v;
    }
}

__global__ static void k_gather_ids(const int32_t *ids, const int32_t *idx, int64_t n, int32_t *out)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = ids[idx[i]];
}

__global__ static void k_ranks(const int32_t *idx, const int32_t *ids, const int64_t *offs, int64_t n, int32_t *rank)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
        rank[idx[k]] = (int32_t)(ids ? k - offs[ids[idx[k]]] : k);
}

template <class K> static void sort_pairs(NeslRt *rt, bool down, const K *kin, K *kout, const int32_t *vin, int32_t *vout, int64_t n)
{
    size_t bytes = 0;
    if (down) cub::DeviceRadixSort::SortPairsDescending(NULL, bytes, kin, kout, vin, vout, (int)n);
    else cub::DeviceRadixSort::SortPairs(NULL, bytes, kin, kout, vin, vout, (int)n);
    void *tmp = nesl_cu_tmp(rt, bytes, false);
    if (down) cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, kin, kout, vin, vout, (int)n);
    else cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, vin, vout, (int)n);
    nesl_cu_launched(rt, "rank");
}

NeslVec *nesl_rank(NeslRt *rt, NeslSd *sd, const NeslVec *v, bool down)
{
    if (sd && nesl_sd_total(rt, sd) != v->len)
        nesl_fail(rt, "seg_rank: the segment descriptor covers %lld elements but the vector has %lld",
                  (long long)nesl_sd_total(rt, sd), (long long)v->len);
    int64_t n = v->len;
    NeslVec *r = nesl_vec_new(rt, NESL_INT, n);
    if (n == 0) return r;
    size_t mark = nesl_mark(rt);
    int32_t *idx = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
    int32_t *idx2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
    unsigned grid = (unsigned)grid_for(rt, (const void *)k_iota, n);
    k_iota<<<grid, NESL_BLOCK>>>(n, idx);
    if (v->base == NESL_FLOAT) {
        double *k = (double *)nesl_cu_tmp(rt, sizeof(double) * (size_t)n, false);
        double *k2 = (double *)nesl_cu_tmp(rt, sizeof(double) * (size_t)n, false);
        k_canon<double><<<grid, NESL_BLOCK>>>((const double *)v->data, n, k, (double)NAN);
        sort_pairs<double>(rt, down, k, k2, idx, idx2, n);
    } else if (v->base == NESL_F32) {
        float *k = (float *)nesl_cu_tmp(rt, sizeof(float) * (size_t)n, false);
        float *k2 = (float *)nesl_cu_tmp(rt, sizeof(float) * (size_t)n, false);
        k_canon<float><<<grid, NESL_BLOCK>>>((const float *)v->data, n, k, NAN);
        sort_pairs<float>(rt, down, k, k2, idx, idx2, n);
    } else {
        int32_t *k2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        sort_pairs<int32_t>(rt, down, (const int32_t *)v->data, k2, idx, idx2, n);
    }
    const int32_t *ids = NULL;
    const int64_t *offs = NULL;
    int32_t *fin = idx2;
    if (sd) {
        ids = nesl_sd_segids(rt, sd);
        offs = nesl_sd_offs(rt, sd);
        int32_t *g = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        int32_t *g2 = (int32_t *)nesl_cu_tmp(rt, sizeof(int32_t) * (size_t)n, false);
        k_gather_ids<<<grid, NESL_BLOCK>>>(ids, idx2, n, g);
        sort_pairs<int32_t>(rt, false, g, g2, idx2, idx, n);
        fin = idx;
    }
    k_ranks<<<grid, NESL_BLOCK>>>(fin, ids, offs, n, (int32_t *)r->data);
    nesl_cu_launched(rt, "rank");
    nesl_release(rt, mark, 0);
    return r;
}

/* ---- the runtime object ---- */
NeslRt *nesl_rt_new(int argc, char **argv, int nsites, const char *const *sites)
{
    NeslRt *rt = (NeslRt *)calloc(1, sizeof *rt);
    if (!rt) { fputs("RUNTIME ERROR: out of memory\n", stderr); exit(1); }
    nesl_core_init(rt, &rt->core, argc, argv, nsites, sites);
    int dev = 0;
    cudaDeviceProp prop;
    ck(rt, cudaGetDevice(&dev), "finding a GPU");
    ck(rt, cudaGetDeviceProperties(&prop, dev), "finding a GPU");
    rt->nsm = prop.multiProcessorCount;
    rt->cache_limit = prop.totalGlobalMem / 2;
    ck(rt, cudaMalloc((void **)&rt->dret, RET_BYTES + sizeof(NeslDErr) * NSLOTS), "allocation");
    ck(rt, cudaMallocHost((void **)&rt->hret, RET_BYTES + sizeof(NeslDErr) * NSLOTS), "allocation");
    rt->derr = (NeslDErr *)(rt->dret + RET_BYTES);
    rt->hderr = (NeslDErr *)(rt->hret + RET_BYTES);
    ck(rt, cudaHostAlloc((void **)&rt->hany, sizeof(int), cudaHostAllocMapped), "allocation");
    ck(rt, slots_clear(rt), "allocation");
    ck(rt, cudaMalloc((void **)&rt->counter, sizeof(unsigned)), "allocation");
    ck(rt, cudaMemset(rt->counter, 0, sizeof(unsigned)), "memset");
    return rt;
}

int nesl_rt_free(NeslRt *rt)
{
    nesl_cu_check_errors(rt);
    if (rt->core.stats) nesl_print_stats(rt);
    fflush(stdout);
    nesl_release(rt, 0, 0);
    flush_cache(rt);
    if (rt->ev_made) {
        cudaEventDestroy(rt->ev_start);
        cudaEventDestroy(rt->ev_stop);
    }
    cudaFree(rt->dret);
    cudaFreeHost(rt->hret);
    cudaFreeHost((void *)rt->hany);
    cudaFree(rt->counter);
    free(rt->core.objs);
    free(rt->core.kst);
    free(rt);
    return 0;
}
