/* rt_cuda.cu — the GPU implementation of nesl_rt.h (doc/codegen.md, "The
 * CUDA back end"): frames of objects whose data lives in device memory, a
 * caching device allocator with the CPU runtime's size classes, the device
 * error records, launch configuration and the runtime object; segment
 * descriptors are in rt_cuda_sd.cu, the library kernels (stable ranks with
 * CUB's radix sort) in rt_cuda_rank.cu.  Built once by nvcc into libnesl_rt_cuda.a together
 * with the shared C files (rt_core.c: frames, errors, statistics, options;
 * rt_print.c, rt_math.c, ...); generated programs link against it. */
#include "rt_cuda_impl.h"

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
    rt->timing = rt->wait_idle = false;
}

void cu_ck(NeslRt *rt, cudaError_t e, const char *what)
{
    if (e != cudaSuccess) nesl_fail(rt, "CUDA error in %s: %s", what, cudaGetErrorString(e));
}

/* NESL_CU_PROFILE: entry `name` of a table of at most max names (found
 * or added; -1 when full). */
static int cu_tally(const char **names, int *n, int max, const char *name)
{
    int k = 0;
    while (k < *n && strcmp(names[k], name)) k++;
    if (k == *n && k < max) names[(*n)++] = name;
    return k < max ? k : -1;
}

/* The stream's synchronization, counted for NESL_CU_PROFILE with its
 * reason `why` (what the host needs from the device). */
static void cu_sync(NeslRt *rt, const char *why)
{
    double t0 = rt->prof ? nesl_clock() : 0;
    cu_ck(rt, cudaStreamSynchronize(0), "a kernel");
    cu_sd_settle(rt);
    rt->n_waits++;
    if (rt->prof) {
        rt->t_last = nesl_clock();
        rt->wait_s += rt->t_last - t0;
        int k = cu_tally(rt->why_name, &rt->nwhys, 16, why);
        if (k >= 0) rt->why_n[k]++;
    }
}

/* ---- deferred device errors ---- */
/* Before an operation that waits for the device: the slots written since
 * the last check are the ones err_check reads once the device is idle. */
void cu_err_fetch(NeslRt *rt)
{
    rt->fetched = rt->slot + (rt->slot_used ? 1 : 0);
    rt->slot = 0;
    rt->slot_used = false;
}

/* After it, with the device idle (its writes to mapped memory are then
 * visible): if a record was set, copy the slots; the earliest slot with
 * an error is the first failing launch group in program order, whatever
 * later groups (which ran on its results) recorded; report it as the
 * interpreter words it.  The report ends the form, and nesl_tgt_reset
 * clears the slots and the flag. */
void cu_err_check(NeslRt *rt)
{
    int n = rt->fetched;
    rt->fetched = 0;
    if (n == 0 || !*rt->hany) {
        if (rt->tot_bad) cu_tot_report(rt);
        return;
    }
    cu_ck(rt, cudaMemcpy(rt->hderr, rt->derr, sizeof(NeslDErr) * (size_t)n, cudaMemcpyDeviceToHost), "copy to the host");
    for (int k = 0; k < n; k++) {
        NeslDErr *d = &rt->hderr[k];
        if (!d->set) continue;
        NeslErr *e = &rt->core.herr;
        /* the name: a string literal in device memory (the record keeps
         * its pointer), copied byte by byte so no read passes its end */
        char name[64] = "";
        for (int c = 0; d->name && c < 63; c++) {
            cu_ck(rt, cudaMemcpy(name + c, d->name + c, 1, cudaMemcpyDeviceToHost), "an error record");
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
        case NESL_E_KEPT_ORDER: nesl_filter_sd_unsorted(rt, d->it, d->a);   /* the compiler's broken promise: exits 3 */
        default: nesl_fail(rt, "a device error record with code %d", d->code);
        }
        nesl_err_report(e);
    }
    if (rt->tot_bad) cu_tot_report(rt);
}

/* A host error must not overtake a device error of an earlier launch:
 * rt_core.c checks the device before it reports one. */
void nesl_tgt_flush_errors(NeslRt *rt)
{
    if (nesl_cu_pending_errors(rt) == 0) return;
    cu_err_fetch(rt);
    /* no ck: this runs on the way to an error report, which a CUDA error
     * (and its own message) may be; then the copies are not to be trusted */
    if (cudaStreamSynchronize(0) != cudaSuccess) rt->fetched = 0;
    cu_err_check(rt);
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

DBuf cu_dev_get(NeslRt *rt, size_t n)
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

void cu_dev_put(NeslRt *rt, DBuf b)
{
    if (!b.p) return;
    if (b.refs) {
        if (--*b.refs > 0) return;
        free(b.refs);
    }
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

/* Device data is never written once made, so objects may hold one block:
 * the last to go returns it. */
DBuf cu_dev_share(NeslRt *rt, DBuf *b)
{
    if (b->p && !b->refs) {
        b->refs = (int *)malloc(sizeof *b->refs);
        if (!b->refs) nesl_fail(rt, "out of memory");
        *b->refs = 1;
    }
    if (b->refs) ++*b->refs;
    return *b;
}

/* ---- frames ---- */
void *cu_new_obj(NeslRt *rt, NeslObjKind k, size_t bytes)
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
        cu_dev_put(rt, v->d);
        cu_dev_put(rt, v->rank);
        free(v->host);
        break;
    }
    case NESL_OBJ_SD: {
        CuSd *s = (CuSd *)o;
        cu_sd_unpend(rt, s);
        cu_dev_put(rt, s->lens);
        cu_dev_put(rt, s->offs);
        cu_dev_put(rt, s->offs32);
        cu_dev_put(rt, s->ids);
        free(s->host_lens);
        break;
    }
    case NESL_OBJ_TMP: cu_dev_put(rt, ((CuTmp *)o)->d); break;
    }
    free(o);
}

/* ---- objects ---- */
/* A vector object owning the device block d. */
NeslVec *cu_vec_adopt(NeslRt *rt, NeslBase b, int64_t len, DBuf d)
{
    CuVec *v = (CuVec *)cu_new_obj(rt, NESL_OBJ_VEC, sizeof(CuVec));
    v->d = d;
    v->v.base = b;
    v->v.len = len;
    v->v.data = v->d.p;
    return &v->v;
}

NeslVec *nesl_vec_new(NeslRt *rt, NeslBase b, int64_t len)
{
    if (len < 0 || (uint64_t)len > ((uint64_t)1 << 40)) nesl_fail(rt, "out of memory (a vector of %lld elements)", (long long)len);
    return cu_vec_adopt(rt, b, len, cu_dev_get(rt, nesl_base_size(b) * (size_t)len));
}

uint64_t *nesl_cu_kept_rank(NeslRt *rt, NeslVec *pos, int64_t n)
{
    if (!pos || n <= 0) return NULL;
    CuVec *v = (CuVec *)pos;
    cu_dev_put(rt, v->rank);
    v->rank = cu_dev_get(rt, sizeof(uint64_t) * (size_t)((n + 31) / 32));
    v->rank_n = n;
    return (uint64_t *)v->rank.p;
}

uint64_t *nesl_cu_kept_rank_only(NeslRt *rt, NeslVec *pos, int64_t n)
{
    uint64_t *r = nesl_cu_kept_rank(rt, pos, n);
    if (r) ((CuVec *)pos)->unwritten = true;
    return r;
}

NeslVec *nesl_vec_zero(NeslRt *rt, NeslBase b, int64_t len)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    if (len) cu_queue(rt, cudaMemsetAsync(v->data, 0, nesl_base_size(b) * (size_t)len), "memset");
    return v;
}

/* A few bytes from the host, as a kernel parameter: a copy from pageable
 * memory waits for the device first (mandelbrot's [n] literal waited for
 * the two index vectors before it) */
#define SMALL_H2D 64
typedef struct SmallBytes { unsigned char b[SMALL_H2D]; } SmallBytes;

__global__ static void k_small_copy(unsigned char *dst, SmallBytes src, int n)
{
    NESL_PDL_WAIT();
    if ((int)threadIdx.x < n) dst[threadIdx.x] = src.b[threadIdx.x];
}

NeslVec *nesl_vec_from_host(NeslRt *rt, NeslBase b, int64_t len, const void *data)
{
    NeslVec *v = nesl_vec_new(rt, b, len);
    size_t bytes = nesl_base_size(b) * (size_t)len;
    if (bytes > 0 && bytes <= SMALL_H2D) {
        SmallBytes s;
        memcpy(s.b, data, bytes);
        nesl_cu_launch(rt, k_small_copy, 1, SMALL_H2D, (unsigned char *)v->data, s, (int)bytes);
        nesl_cu_launched(rt, "copy to the device");
    } else if (bytes) {
        cu_queue(rt, cudaMemcpy(v->data, data, bytes, cudaMemcpyHostToDevice), "copy to the device");
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
    cu_err_fetch(rt);
    if (bytes) cu_queue(rt, cudaMemcpy(v->host, v->v.data, bytes, cudaMemcpyDeviceToHost), "copy to the host");
    cu_err_check(rt);
    return v->host;
}

void nesl_vec_get(NeslRt *rt, const NeslVec *v, int64_t i, void *out)
{
    nesl_cu_to_host(rt, out, (const char *)v->data + nesl_base_size(v->base) * (size_t)i, nesl_base_size(v->base), "an element");
}

double nesl_wall(NeslRt *rt)
{
    cu_err_fetch(rt);
    /* A form that ends by fetching its result leaves the stream idle; the
     * query says so without a device synchronization (about 2 us on the
     * H100).  Only the legacy default stream is used, so an idle stream 0
     * is an idle device. */
    if (cudaStreamQuery(0) != cudaSuccess)
        cu_ck(rt, cudaDeviceSynchronize(), "a kernel");
    cu_err_check(rt);
    return nesl_clock();
}

void nesl_timer_start(NeslRt *rt)
{
    if (!rt->ev_made) {
        cu_ck(rt, cudaEventCreate(&rt->ev_start), "an event");
        cu_ck(rt, cudaEventCreate(&rt->ev_stop), "an event");
        cu_ck(rt, cudaEventCreate(&rt->ev_wait), "an event");
        rt->ev_made = true;
    }
    rt->core.timer_wall0 = nesl_wall(rt);   /* idle, and earlier errors checked */
    cu_ck(rt, cudaEventRecord(rt->ev_start, 0), "an event");
    rt->timing = true;
    rt->wait_idle = false;
}

double nesl_timer_stop(NeslRt *rt, double *wall_ms)
{
    /* idle: the form's last device work was a result the host waited for */
    bool idle = rt->wait_idle;
    rt->timing = rt->wait_idle = false;
    cu_err_fetch(rt);   /* the copy of pending error records is the form's work */
    if (!idle) {
        cu_ck(rt, cudaEventRecord(rt->ev_stop, 0), "an event");
        cu_ck(rt, cudaEventSynchronize(rt->ev_stop), "a kernel");
    }
    cu_err_check(rt);
    double now = nesl_clock();
    if (wall_ms) *wall_ms = (now - rt->core.timer_wall0) * 1e3;
    float ms = 0;
    cu_ck(rt, cudaEventElapsedTime(&ms, rt->ev_start, idle ? rt->ev_wait : rt->ev_stop), "an event");
    return idle ? ms + (now - rt->wait_end) * 1e3 : ms;
}

void *nesl_cu_tmp(NeslRt *rt, size_t bytes, bool zero)
{
    CuTmp *t = (CuTmp *)cu_new_obj(rt, NESL_OBJ_TMP, sizeof(CuTmp));
    t->d = cu_dev_get(rt, bytes);
    if (zero && bytes) cu_queue(rt, cudaMemsetAsync(t->d.p, 0, bytes), "memset");
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

void nesl_cu_to_host(NeslRt *rt, void *dst, const void *src, size_t bytes, const char *why)
{
    if (rt->ret_busy && src == rt->dret) {   /* the result area, written in host memory */
        cu_err_fetch(rt);
        cu_wait(rt, why);
        memcpy(dst, rt->hret, bytes);
        rt->ret_busy = false;
        cu_err_check(rt);
        return;
    }
    cu_err_fetch(rt);
    if (bytes <= RET_BYTES) {   /* through pinned memory: 2 us less than a pageable copy (form_overhead.cu) */
        cu_queue(rt, cudaMemcpyAsync(rt->hsmall, src, bytes, cudaMemcpyDeviceToHost, 0), "copy to the host");
        cu_wait(rt, why);
        memcpy(dst, rt->hsmall, bytes);
    } else {
        cu_queue(rt, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, 0), "a kernel");
        cu_sync(rt, why);
    }
    cu_err_check(rt);
}

/* A slot of the mapped counts (a ring).  The generated code reads a
 * group's counts right after its launches and groups at most
 * NESL_COUNT_GROUP FILTERs, so a slot comes round again only after its
 * count was read, and then its kernel has finished. */
long long *nesl_cu_count_slot(NeslRt *rt, NeslCount *c)
{
    c->slot = rt->cnt_next;
    c->waits = rt->n_waits;
    rt->cnt_next = (rt->cnt_next + 1) % CNT_SLOTS;
    return rt->dcnt + c->slot;
}

int64_t nesl_cu_count(NeslRt *rt, NeslCount c, const char *why)
{
    if (c.slot < 0) return 0;
    if (rt->n_waits == c.waits) {   /* the device may still be writing it */
        cu_err_fetch(rt);
        cu_wait(rt, why);
        cu_err_check(rt);
    }
    return rt->hcnt[c.slot];
}

NeslDErr *nesl_cu_derr(NeslRt *rt)
{
    rt->slot_used = true;
    return rt->derr + rt->slot;
}

unsigned *nesl_cu_counter(NeslRt *rt) { return rt->counter; }

int nesl_cu_pdl_arch(NeslRt *rt) { return rt->pdl_arch; }

/* Blocks whose words carry the epoch of the launch that wrote them, so
 * that a later launch reads them as unwritten without a memset: zeroed
 * only when made (a larger block) and when the epochs run out.  One
 * stream: a launch never overlaps the one before. */
static void epoch_zero(NeslRt *rt, DBuf *b)
{
    if (b->p) cu_queue(rt, cudaMemsetAsync(b->p, 0, class_size(b->cls), 0), "memset");
}

static void *epoch_block(NeslRt *rt, DBuf *b, size_t bytes)
{
    if (!b->p || class_size(b->cls) < bytes) {
        cu_dev_put(rt, *b);
        *b = cu_dev_get(rt, bytes);
        epoch_zero(rt, b);
    }
    return b->p;
}

/* Look-back states: 2^30 epochs (a status word's upper 30 bits). */
#ifndef LB_EPOCHS
#define LB_EPOCHS (1u << 30)   /* tests build 4 */
#endif
void *nesl_cu_lb_states(NeslRt *rt, bool packed, int64_t n, unsigned *epoch)
{
    void *p = epoch_block(rt, packed ? &rt->lb_words : &rt->lb_flags, (packed ? 8 : sizeof(int)) * (size_t)(n > 0 ? n : 1));
    if (rt->lb_epoch + 1 == LB_EPOCHS) {   /* both: the other's states hold epochs too */
        epoch_zero(rt, &rt->lb_words);
        epoch_zero(rt, &rt->lb_flags);
        rt->lb_epoch = 0;
    }
    *epoch = ++rt->lb_epoch;
    return p;
}

/* PERMUTE's winners: NESL_PERM_EPOCHS epochs (the bits above an
 * iteration's 41); the stress build's LB_EPOCHS wraps these too. */
#define PERM_EPOCHS (LB_EPOCHS < NESL_PERM_EPOCHS ? LB_EPOCHS : NESL_PERM_EPOCHS)
unsigned long long *nesl_cu_perm_win(NeslRt *rt, int64_t n, unsigned *epoch)
{
    void *p = epoch_block(rt, &rt->perm_win, 8 * (size_t)(n > 0 ? n : 1));
    if (rt->perm_epoch + 1 == PERM_EPOCHS) {
        epoch_zero(rt, &rt->perm_win);
        rt->perm_epoch = 0;
    }
    *epoch = ++rt->perm_epoch;
    return (unsigned long long *)p;
}

__global__ static void k_index_short(NeslDErr *e, int64_t len, const char *name)
{
    NESL_PDL_WAIT();
    nesl_ck_index(e, len, len, len, name);
}

/* The name goes to device memory, where the record's names are (a string
 * literal of device code elsewhere); never freed: the error ends the run. */
void nesl_cu_index_short(NeslRt *rt, int64_t n, int64_t len, const char *name)
{
    if (n <= len) return;
    size_t bytes = strlen(name) + 1;
    char *d = NULL;
    cu_ck(rt, cudaMalloc((void **)&d, bytes), "an error record");
    cu_ck(rt, cudaMemcpy(d, name, bytes, cudaMemcpyHostToDevice), "an error record");
    nesl_cu_launch(rt, k_index_short, 1, 1, nesl_cu_derr(rt), len, (const char *)d);
    nesl_cu_launched(rt, "an index check");
}

void nesl_cu_raise(NeslRt *rt)
{
    if (!rt->slot_used) return;
    rt->slot_used = false;
    if (++rt->slot == NSLOTS) cu_check_errors(rt, "error slots full");
}

void cu_check_errors(NeslRt *rt, const char *why)
{
    cu_err_fetch(rt);
    cu_sync(rt, why);
    cu_err_check(rt);
}

void nesl_cu_check_errors(NeslRt *rt) { cu_check_errors(rt, "an error check"); }

int nesl_cu_pending_errors(NeslRt *rt) { return rt->slot + (rt->slot_used ? 1 : 0); }

int64_t nesl_cu_grid(NeslRt *rt, const void *kernel, int64_t most) { return nesl_cu_grid_threads(rt, kernel, NESL_BLOCK, most); }

int64_t nesl_cu_grid_threads(NeslRt *rt, const void *kernel, int threads, int64_t most)
{
    int nb = -1;
    for (int i = 0; i < rt->ngrids; i++)
        if (rt->grid_fn[i] == kernel) nb = rt->grid_blocks[i];
    if (nb < 0) {
        cu_ck(rt, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, threads, 0), "the occupancy query");
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

double nesl_cu_prof_t0(NeslRt *rt) { return rt->prof ? nesl_clock() : 0; }

void nesl_cu_prof_launch(NeslRt *rt, double t0)
{
    rt->n_launch++;
    rt->launch_s += nesl_clock() - t0;
}

void nesl_cu_launched(NeslRt *rt, const char *what) { cu_queue(rt, cudaGetLastError(), what); }

void cu_queue(NeslRt *rt, cudaError_t e, const char *what)
{
    cu_ck(rt, e, what);
    rt->wait_idle = false;
    rt->n_queued++;
    if (rt->prof) {
        int k = cu_tally(rt->kind_name, &rt->nkinds, 32, what);
        double t = nesl_clock();
        if (k >= 0) rt->kind_n[k]++, rt->kind_s[k] += t - rt->t_last;
        rt->t_last = t;
    }
}

void cu_wait(NeslRt *rt, const char *why)
{
    if (rt->timing) cu_ck(rt, cudaEventRecord(rt->ev_wait, 0), "an event");
    cu_sync(rt, why);
    if (rt->timing) {
        rt->wait_idle = true;
        rt->wait_end = nesl_clock();
    }
}

/* ---- the runtime object ---- */
NeslRt *nesl_rt_new(int argc, char **argv, int nsites, const char *const *sites)
{
    NeslRt *rt = (NeslRt *)calloc(1, sizeof *rt);
    if (!rt) { fputs("RUNTIME ERROR: out of memory\n", stderr); exit(1); }
    nesl_core_init(rt, &rt->core, argc, argv, nsites, sites);
    int dev = 0;
    cudaDeviceProp prop;
    cu_ck(rt, cudaGetDevice(&dev), "finding a GPU");
    cu_ck(rt, cudaGetDeviceProperties(&prop, dev), "finding a GPU");
    rt->nsm = prop.multiProcessorCount;
    const char *pdl = getenv("NESL_CU_PDL");
    rt->pdl_arch = prop.major >= 9 && !(pdl && !strcmp(pdl, "0")) ? prop.major * 100 + prop.minor * 10 : 0;
    const char *prof = getenv("NESL_CU_PROFILE");
    rt->prof = prof && *prof && strcmp(prof, "0");
    rt->t_start = rt->t_last = nesl_clock();
    rt->cache_limit = prop.totalGlobalMem / 2;
    cu_ck(rt, cudaHostAlloc((void **)&rt->hret, RET_BYTES, cudaHostAllocMapped), "allocation");
    cu_ck(rt, cudaHostGetDevicePointer((void **)&rt->dret, rt->hret, 0), "allocation");
    cu_ck(rt, cudaMallocHost((void **)&rt->hsmall, RET_BYTES), "allocation");
    cu_ck(rt, cudaHostAlloc((void **)&rt->htot, sizeof(int64_t) * TOT_SLOTS, cudaHostAllocMapped), "allocation");
    cu_ck(rt, cudaHostGetDevicePointer((void **)&rt->dtot, rt->htot, 0), "allocation");
    cu_ck(rt, cudaHostAlloc((void **)&rt->hcnt, sizeof(long long) * CNT_SLOTS, cudaHostAllocMapped), "allocation");
    cu_ck(rt, cudaHostGetDevicePointer((void **)&rt->dcnt, rt->hcnt, 0), "allocation");
    cu_ck(rt, cudaMalloc((void **)&rt->derr, sizeof(NeslDErr) * NSLOTS), "allocation");
    cu_ck(rt, cudaMallocHost((void **)&rt->hderr, sizeof(NeslDErr) * NSLOTS), "allocation");
    cu_ck(rt, cudaHostAlloc((void **)&rt->hany, sizeof(int), cudaHostAllocMapped), "allocation");
    cu_ck(rt, slots_clear(rt), "allocation");
    cu_ck(rt, cudaMalloc((void **)&rt->counter, sizeof(unsigned)), "allocation");
    cu_ck(rt, cudaMemset(rt->counter, 0, sizeof(unsigned)), "memset");
    return rt;
}

int nesl_rt_free(NeslRt *rt)
{
    cu_check_errors(rt, "the end");
    if (rt->core.stats) nesl_print_stats(rt);
    if (rt->prof) {
        fprintf(stderr, "profile: %ld device operations queued, %ld host waits (%.3f ms waiting), %.3f ms since start\n",
                rt->n_queued, rt->n_waits, rt->wait_s * 1e3, (nesl_clock() - rt->t_start) * 1e3);
        fprintf(stderr, "profile: %ld kernel launches, %.3f ms of the host's time in the launch calls\n", rt->n_launch, rt->launch_s * 1e3);
    }
    for (int k = 0; rt->prof && k < rt->nkinds; k++) fprintf(stderr, "profile: %8ld %-20s %8.3f ms since the previous operation\n", rt->kind_n[k], rt->kind_name[k], rt->kind_s[k] * 1e3);
    for (int k = 0; rt->prof && k < rt->nwhys; k++) fprintf(stderr, "profile: %8ld waits for %s\n", rt->why_n[k], rt->why_name[k]);
    fflush(stdout);
    nesl_release(rt, 0, 0);
    nesl_bt_free(rt);
    cu_dev_put(rt, rt->lb_words);
    cu_dev_put(rt, rt->lb_flags);
    cu_dev_put(rt, rt->perm_win);
    flush_cache(rt);
    if (rt->ev_made) {
        cudaEventDestroy(rt->ev_start);
        cudaEventDestroy(rt->ev_stop);
        cudaEventDestroy(rt->ev_wait);
    }
    cudaFreeHost(rt->hret);
    cudaFreeHost(rt->hsmall);
    cudaFreeHost(rt->htot);
    cudaFreeHost(rt->hcnt);
    cudaFree(rt->derr);
    cudaFreeHost(rt->hderr);
    cudaFreeHost((void *)rt->hany);
    cudaFree(rt->counter);
    free(rt->core.objs);
    free(rt->core.kst);
    free(rt);
    return 0;
}
