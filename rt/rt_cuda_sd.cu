/* rt_cuda_sd.cu — segment descriptors on the device (rt_cuda_impl.h):
 * lengths, offsets by a scan that checks them (one block up to 4096
 * segments), segment ids by a tiled search, dist_sd's uniform descriptor
 * written only when read, and the CPU builtins over them. */
#include "rt_cuda_impl.h"

static void sd_fill(NeslRt *rt, CuSd *s);

const int32_t *nesl_sd_host_lens(NeslRt *rt, const NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    sd_fill(rt, s);
    if (!s->host_lens) {
        s->host_lens = (int32_t *)malloc(sizeof(int32_t) * (size_t)(s->s.nsegs + 1));
        if (!s->host_lens) nesl_fail(rt, "out of memory");
        cu_err_fetch(rt);
        if (s->s.nsegs) cu_queue(rt, cudaMemcpy(s->host_lens, s->s.lens, sizeof(int32_t) * (size_t)s->s.nsegs, cudaMemcpyDeviceToHost), "copy to the host");
        cu_err_check(rt);
    }
    return s->host_lens;
}

/* A descriptor of nsegs segments whose lengths are the block lens. */
static CuSd *sd_with(NeslRt *rt, int64_t nsegs, DBuf lens)
{
    CuSd *s = (CuSd *)cu_new_obj(rt, NESL_OBJ_SD, sizeof(CuSd));
    s->lens = lens;
    s->offs.cls = s->offs32.cls = s->ids.cls = -1;
    s->tot_slot = -1;
    s->total = -1;
    s->ulen = -1;
    s->s.nsegs = nsegs;
    s->s.lens = (int32_t *)s->lens.p;
    return s;
}

NeslSd *nesl_sd_new(NeslRt *rt, int64_t nsegs) { return &sd_with(rt, nsegs, cu_dev_get(rt, sizeof(int32_t) * (size_t)nsegs))->s; }

/* ---- segment descriptors on the device ---- */
/* Segment ids written (nesl_k_seg_tiles). */
struct SegidsStore {
    int32_t *ids;
    template <int RUN> __device__ void tile(int64_t t0, int m, const int32_t *sid) const
    {
        for (int j = threadIdx.x; j < m; j += NESL_BLOCK) ids[t0 + j] = sid[j];
    }
};

int64_t cu_grid_for(NeslRt *rt, const void *k, int64_t n)
{
    return nesl_cu_grid(rt, k, (n + NESL_BLOCK - 1) / NESL_BLOCK);
}

/* dist_sd's descriptor: every length l, offsets g * l. */
__global__ static void k_dist_sd(int32_t l, int64_t n, int32_t *lens, int64_t *offs)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride) {
        if (g < n) lens[g] = l;
        offs[g] = g * l;
    }
}

__global__ static void k_segids_uniform(int32_t l, int64_t total, int32_t *ids)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride)
        ids[i] = nesl_div_in((int32_t)i, l);
}

/* s's slot for its total, s on the pending list (a wait first if every
 * slot is taken; it leaves the error slots to the next check). */
static int64_t *sd_pend(NeslRt *rt, CuSd *s)
{
    if (rt->tot_next == TOT_SLOTS) cu_wait(rt, "total slots full");   /* settles them all */
    s->tot_slot = rt->tot_next++;
    s->pend_prev = NULL;
    s->pend_next = rt->pending;
    if (rt->pending) rt->pending->pend_prev = s;
    rt->pending = s;
    return rt->dtot + s->tot_slot;
}

/* The next settle checks slot against given (entries never outnumber
 * the slots: each has one of its own, all free again after the settle). */
static void verify_later(NeslRt *rt, int slot, int64_t given, TotKind kind)
{
    rt->verify_slot[rt->nverify] = slot;
    rt->verify_total[rt->nverify] = given;
    rt->verify_kind[rt->nverify++] = kind;
}

/* A descriptor released before its total settled: one given to make_sd is
 * still checked at the settle (its slot is not reused before). */
void cu_sd_unpend(NeslRt *rt, CuSd *s)
{
    if (s->tot_slot < 0) return;
    if (s->total >= 0) verify_later(rt, s->tot_slot, s->total, TOT_SD);
    if (s->pend_prev) s->pend_prev->pend_next = s->pend_next;
    else rt->pending = s->pend_next;
    if (s->pend_next) s->pend_next->pend_prev = s->pend_prev;
    s->tot_slot = -1;
}

/* make_sd (lens, total), or a FILTER whose count was given: the sum or
 * count t the device found against the one given (the first difference
 * is reported, at the next error check). */
static void sd_verify(NeslRt *rt, int64_t t, int64_t given, TotKind kind)
{
    if (given < 0 || given == t || rt->tot_bad) return;
    rt->tot_bad = true;
    rt->tot_sum = t;
    rt->tot_given = given;
    rt->tot_kind = kind;
}

void cu_tot_report(NeslRt *rt)
{
    rt->tot_bad = false;   /* the reports below check the device first, which comes back here */
    switch (rt->tot_kind) {
    case TOT_SD: nesl_sd_total_differs(rt, rt->tot_sum, rt->tot_given); break;
    case TOT_FILTER: nesl_kept_differs(rt, "FILTER", rt->tot_sum, rt->tot_given); break;
    case TOT_PARTITION: nesl_kept_differs(rt, "PARTITION", rt->tot_sum, rt->tot_given); break;
    }
    fprintf(stderr, "nesslc: internal error: a total of kind %d\n", (int)rt->tot_kind);   /* (the reports exit) */
    exit(3);
}

/* The device idle: every pending descriptor's total, and every count
 * given a slot, is in its slot. */
void cu_sd_settle(NeslRt *rt)
{
    for (CuSd *s = rt->pending; s; s = s->pend_next) {
        int64_t t = rt->htot[s->tot_slot];
        sd_verify(rt, t, s->total, TOT_SD);
        s->total = t;
        s->tot_slot = -1;
    }
    for (int k = 0; k < rt->nverify; k++) sd_verify(rt, rt->htot[rt->verify_slot[k]], rt->verify_total[k], rt->verify_kind[k]);
    rt->nverify = 0;
    rt->pending = NULL;
    rt->tot_next = 0;
}

/* The filter kernel writes its count through a long long * (nesl_cu_
 * filter_launch), the descriptor scans theirs through an int64_t *: one
 * slot serves both. */
static_assert(sizeof(long long) == sizeof(int64_t) && alignof(long long) == alignof(int64_t),
              "a count slot is a total slot");

long long *nesl_cu_kept_slot(NeslRt *rt, bool part, int64_t given)
{
    if (rt->tot_next == TOT_SLOTS) cu_wait(rt, "total slots full");   /* settles them all */
    int slot = rt->tot_next++;
    rt->htot[slot] = given;   /* what the settle finds if the launch fails (a runtime error): no report */
    verify_later(rt, slot, given, part ? TOT_PARTITION : TOT_FILTER);
    return (long long *)(rt->dtot + slot);
}

/* The scan's outputs and error record for s, its total pending (the
 * host does not wait for it: the total is read when asked for). */
static void sd_open(NeslRt *rt, CuSd *s, bool check, NeslSdScan *sc)
{
    int64_t n = s->s.nsegs;
    s->offs = cu_dev_get(rt, sizeof(int64_t) * (size_t)(n + 1));
    s->offs32 = cu_dev_get(rt, sizeof(int32_t) * (size_t)n);
    NeslDErr *e = NULL;
    if (check) {   /* a slot of its own: the launches before may fail too */
        nesl_cu_raise(rt);   /* (may wait, and settle pending totals) */
        e = nesl_cu_derr(rt);
    }
    *sc = NeslSdScan{ n, (int64_t *)s->offs.p, (int32_t *)s->offs32.p, sd_pend(rt, s), e };
}

/* The offsets, as an exclusive scan of the lengths on the device. */
static void sd_scan(NeslRt *rt, CuSd *s, bool check)
{
    NeslSdScan sc;
    sd_open(rt, s, check, &sc);
    nesl_cu_sd_scan(rt, NeslSdVecLens{ s->s.lens }, sc);
    if (check) nesl_cu_raise(rt);
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
    if (s->total < 0) {
        nesl_sd_offs(rt, cs);   /* scanned: the total is in its slot, or settled */
        if (s->total < 0) {
            cu_err_fetch(rt);
            cu_wait(rt, "a descriptor total");   /* settles it */
            cu_err_check(rt);
        }
    }
    return s->total;
}

const int32_t *nesl_sd_segids(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    if (!s->ids.p) {
        nesl_sd_total(rt, cs);
        s->ids = cu_dev_get(rt, sizeof(int32_t) * (size_t)s->total);
        if (s->total > 0 && s->ulen > 0) {   /* arithmetic: a dist_sd stays unfilled */
            nesl_cu_launch(rt, k_segids_uniform, (unsigned)cu_grid_for(rt, (const void *)k_segids_uniform, s->total), NESL_BLOCK, s->ulen, s->total, (int32_t *)s->ids.p);
            nesl_cu_launched(rt, "segment ids");
        } else if (s->total > 0) {
            const int64_t *o = nesl_sd_offs(rt, cs);
            nesl_seg_tiles_launch(rt, "segment ids", o, s->s.nsegs, s->total, SegidsStore{ (int32_t *)s->ids.p });
        }
    }
    return (const int32_t *)s->ids.p;
}

int64_t nesl_sd_seg_plan(NeslRt *rt, NeslSd *cs, const int64_t **offs, int64_t *nsegs, int32_t *ulen)
{
    CuSd *s = (CuSd *)cs;
    int64_t total = nesl_sd_total(rt, cs);
    *nsegs = cs->nsegs;
    *ulen = s->ulen > 0 ? s->ulen : 0;   /* arithmetic: a dist_sd stays unfilled */
    *offs = *ulen ? NULL : nesl_sd_offs(rt, cs);
    return total;
}

/* ---- CPU builtins ---- */
/* Without a wait for the device: reading the lengths on the host to check
 * them cost a copy of every length and a synchronization per descriptor
 * (quicksort makes a dozen per recursion level, with up to n/2 segments);
 * the scan checks them instead, for the deferred error check. */
NeslSd *nesl_make_sd_open(NeslRt *rt, const NeslVec *lens, NeslSdScan *sc)
{
    CuSd *s = sd_with(rt, lens->len, cu_dev_share(rt, &((CuVec *)lens)->d));   /* the vector's block */
    sd_open(rt, s, true, sc);
    return &s->s;
}

/* The total known: total (s) and segment ids wait for no scan; the scan's
 * total is compared with it when a wait settles it (cu_sd_settle). */
void nesl_make_sd_close(NeslRt *rt, NeslSd *cs, int64_t total)
{
    CuSd *s = (CuSd *)cs;
    nesl_cu_raise(rt);
    if (total < 0) return;
    if (s->total < 0) s->total = total;
    else if (s->total != total) nesl_sd_total_differs(rt, s->total, total);
}

NeslSd *nesl_make_sd_total(NeslRt *rt, const NeslVec *lens, int32_t total)
{
    NeslSdScan sc;
    NeslSd *s = nesl_make_sd_open(rt, lens, &sc);
    nesl_cu_sd_scan(rt, NeslSdVecLens{ s->lens }, sc);
    nesl_make_sd_close(rt, s, total);
    return s;
}

NeslSd *nesl_make_sd(NeslRt *rt, const NeslVec *lens) { return nesl_make_sd_total(rt, lens, -1); }

/* K make_sd's of vectors of one length in one scan.  The first takes the
 * error slot, after the launches before are raised; the others need none
 * of their own, since nothing is launched between.  The K total slots are
 * taken before the scan is queued, so a wait for free slots comes first:
 * one between two sd_opens would settle the group's totals before its
 * scan ran (a group never has more than TOT_SLOTS). */
template <int K> static void sd_group(NeslRt *rt, const NeslVec *const *lens, const int64_t *totals, NeslSd **out)
{
    NeslSdGroup<K> p;
    if (rt->tot_next + K > TOT_SLOTS) cu_wait(rt, "total slots full");   /* settles them all */
    for (int j = 0; j < K; j++) {
        CuSd *s = sd_with(rt, lens[j]->len, cu_dev_share(rt, &((CuVec *)lens[j])->d));
        sd_open(rt, s, j == 0, &p.sc[j]);
        p.lens[j] = s->s.lens;
        out[j] = &s->s;
    }
    nesl_cu_sd_scan_p(rt, p);
    for (int j = 0; j < K; j++) nesl_make_sd_close(rt, out[j], totals[j]);
}

void nesl_make_sd_group(NeslRt *rt, int k, const NeslVec *const *lens, const int64_t *totals, NeslSd **out)
{
    for (int i = 0, m; i < k; i += m) {
        for (m = 1; i + m < k && m < NESL_SD_GROUP_MAX && m < TOT_SLOTS && lens[i + m]->len == lens[i]->len; m++) { }
        switch (m) {
        case 1: out[i] = nesl_make_sd_total(rt, lens[i], (int32_t)totals[i]); break;
        case 2: sd_group<2>(rt, lens + i, totals + i, out + i); break;
        case 3: sd_group<3>(rt, lens + i, totals + i, out + i); break;
        case 4: sd_group<4>(rt, lens + i, totals + i, out + i); break;
        }
    }
}

/* sum_sd's, cat_sd's and zip_sd's lengths and offsets from their parts'
 * (one element-wise pass where make_sd scanned: a lifted ++ made two such
 * descriptors a quicksort level, the lifted if's merge one).  Element g <=
 * n of the offsets; offsets[n] is the total, into its slot when the host
 * does not know it.  A part that is a dist_sd not yet filled is read as
 * its uniform length (SdPart): no k_dist_sd launch for it (Barnes-Hut's
 * lifted ++ of [node] and a split's halves, three a level). */
struct SdPart {
    const int32_t *l;
    const int64_t *o;
    int32_t u;   /* uniform: every length, when l is NULL */
    __device__ int32_t len(int64_t g) const { return l ? l[g] : u; }
    __device__ int64_t off(int64_t g) const { return l ? o[g] : g * u; }
};

/* Where a derived descriptor's lengths and offsets go: offset g <= n,
 * length g < n, the total (offset n) into its slot when pending. */
struct SdOut {
    int32_t *l, *o32;
    int64_t *o, *tot;
    __device__ void put(int64_t g, int64_t n, int64_t off, int32_t len) const
    {
        o[g] = off;
        if (g < n) {
            l[g] = len;
            o32[g] = (int32_t)off;
        } else if (tot) *tot = off;
    }
};

static SdPart sd_part(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    if (s->unfilled) return SdPart{ NULL, NULL, s->ulen };
    return SdPart{ (const int32_t *)cs->lens, nesl_sd_offs(rt, cs), 0 };
}

__global__ static void k_sum_sd(SdPart a, SdPart b, int64_t n, SdOut out)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride)
        out.put(g, n, a.off(g) + b.off(g), g < n ? a.len(g) + b.len(g) : 0);
}

__global__ static void k_cat_sd(SdPart a, int64_t na, SdPart b, int64_t nb, SdOut out)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x, n = na + nb;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride)
        out.put(g, n, g < na ? a.off(g) : a.off(na) + b.off(g - na), g < na ? a.len(g) : g < n ? b.len(g - na) : 0);
}

__global__ static void k_zip_sd(SdPart a, SdPart b, int64_t n, SdOut out)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= 2 * n; g += stride) {
        int64_t k = g >> 1;
        out.put(g, 2 * n, (g & 1 ? a.off(k + 1) : a.off(k)) + b.off(k), g == 2 * n ? 0 : g & 1 ? b.len(k) : a.len(k));
    }
}

/* A descriptor of n segments with its offsets' blocks (sd_with_offsets);
 * sd_derived's total is ta + tb where both are known, else pending in a
 * slot the kernel writes. */
static CuSd *sd_with_offsets(NeslRt *rt, int64_t n)
{
    CuSd *s = (CuSd *)nesl_sd_new(rt, n);
    s->offs = cu_dev_get(rt, sizeof(int64_t) * (size_t)(n + 1));
    s->offs32 = cu_dev_get(rt, sizeof(int32_t) * (size_t)(n ? n : 1));
    return s;
}

static SdOut sd_out(CuSd *s, int64_t *tot)
{
    return SdOut{ s->s.lens, (int32_t *)s->offs32.p, (int64_t *)s->offs.p, tot };
}

static CuSd *sd_derived(NeslRt *rt, int64_t n, CuSd *a, CuSd *b, int64_t **tot)
{
    CuSd *s = sd_with_offsets(rt, n);
    *tot = NULL;
    if (a->total >= 0 && b->total >= 0) s->total = a->total + b->total;
    else *tot = sd_pend(rt, s);
    return s;
}

/* sum_sd (op) or zip_sd of a and b, which have as many segments: its
 * nout segments from kernel k (one thread an offset, nout + 1 of them). */
typedef void (*SdPairKernel)(SdPart, SdPart, int64_t, SdOut);

static NeslSd *sd_pairwise(NeslRt *rt, const char *op, SdPairKernel k, NeslSd *ca, NeslSd *cb, int64_t nout)
{
    if (ca->nsegs != cb->nsegs) nesl_sd_parts_differ(rt, op, ca->nsegs, cb->nsegs);
    int64_t *tot;
    CuSd *s = sd_derived(rt, nout, (CuSd *)ca, (CuSd *)cb, &tot);
    nesl_cu_launch(rt, k, (unsigned)cu_grid_for(rt, (const void *)k, nout + 1), NESL_BLOCK, sd_part(rt, ca), sd_part(rt, cb), ca->nsegs,
                   sd_out(s, tot));
    nesl_cu_launched(rt, "segment descriptor");
    return &s->s;
}

NeslSd *nesl_sum_sd(NeslRt *rt, NeslSd *ca, NeslSd *cb) { return sd_pairwise(rt, "sum_sd", k_sum_sd, ca, cb, ca->nsegs); }

__global__ static void k_sum_sd2(SdPart a, SdPart b, SdPart c, int64_t n, SdOut s1, SdOut s2)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g <= n; g += stride) {
        int64_t off1 = a.off(g) + b.off(g);
        s1.put(g, n, off1, g < n ? a.len(g) + b.len(g) : 0);
        s2.put(g, n, off1 + c.off(g), g < n ? a.len(g) + b.len(g) + c.len(g) : 0);
    }
}

void nesl_sum_sd2(NeslRt *rt, NeslSd *ca, NeslSd *cb, NeslSd *cc, NeslSd **s1, NeslSd **s2)
{
    if (ca->nsegs != cb->nsegs) nesl_sd_parts_differ(rt, "sum_sd", ca->nsegs, cb->nsegs);
    if (ca->nsegs != cc->nsegs) nesl_sd_parts_differ(rt, "sum_sd", ca->nsegs, cc->nsegs);
    int64_t n = ca->nsegs, *t1, *t2;
    CuSd *r1 = sd_derived(rt, n, (CuSd *)ca, (CuSd *)cb, &t1), *r2 = sd_derived(rt, n, r1, (CuSd *)cc, &t2);
    nesl_cu_launch(rt, k_sum_sd2, (unsigned)cu_grid_for(rt, (const void *)k_sum_sd2, n + 1), NESL_BLOCK, sd_part(rt, ca), sd_part(rt, cb),
                   sd_part(rt, cc), n, sd_out(r1, t1), sd_out(r2, t2));
    nesl_cu_launched(rt, "segment descriptor");
    *s1 = &r1->s;
    *s2 = &r2->s;
}
NeslSd *nesl_zip_sd(NeslRt *rt, NeslSd *ca, NeslSd *cb) { return sd_pairwise(rt, "zip_sd", k_zip_sd, ca, cb, 2 * ca->nsegs); }

NeslSd *nesl_cat_sd(NeslRt *rt, NeslSd *ca, NeslSd *cb)
{
    int64_t na = ca->nsegs, nb = cb->nsegs, *tot;
    CuSd *s = sd_derived(rt, na + nb, (CuSd *)ca, (CuSd *)cb, &tot);
    nesl_cu_launch(rt, k_cat_sd, (unsigned)cu_grid_for(rt, (const void *)k_cat_sd, na + nb + 1), NESL_BLOCK, sd_part(rt, ca), na, sd_part(rt, cb), nb,
                   sd_out(s, tot));
    nesl_cu_launched(rt, "segment descriptor");
    return &s->s;
}

/* filter_sd by merge path.  Segment k's offset is the rank of its start
 * so[k] among the kept positions (those below it).  The starts so[0..n)
 * and the kept positions kept[0..m) are merged, a start before a kept
 * position equal to it: a start's rank is the number of kept positions
 * taken before it.  Each thread merges FSD_ITEMS items of the n + m, from
 * where one binary search along its diagonal puts it; so a group costs
 * (n + m) / FSD_ITEMS searches, where it cost two a segment (its start
 * and the next, binary searches over the whole kept vector: 13.7 us a
 * quicksort level for three filters, latency-bound).  A length is the
 * next start's rank minus the start's: the thread that takes the next
 * start too knows it, the last start of a thread's range searches the
 * next one's rank from where the thread stopped.  blockIdx.y is the
 * group's filter. */
enum { FSD_ITEMS = 8 };

/* The first of kept[lo..m) that is >= x (m: none). */
static __device__ __forceinline__ int64_t kept_rank(const int32_t *kept, int64_t lo, int64_t m, int64_t x)
{
    int64_t hi = m;
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        if (kept[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The outputs of filter_sd (s, kept[j]), j < k, by value; rank[j]:
 * kept[j]'s rank words (k_filter_sd_rank). */
struct FilterSdGroup {
    int k;
    const int32_t *kept[NESL_SD_GROUP_MAX];
    const uint64_t *rank[NESL_SD_GROUP_MAX];
    int64_t m[NESL_SD_GROUP_MAX];
    SdOut out[NESL_SD_GROUP_MAX];
    int za, zb;   /* zip_sd (out[za], out[zb]) into z: blocks y = k (k_filter_sd_rank) */
    SdOut z;
};

__global__ static void k_filter_sd(const int64_t *so, int64_t n, FilterSdGroup f, NeslDErr *e)
{
    NESL_PDL_WAIT();
    int j = blockIdx.y;
    const int32_t *kept = f.kept[j];
    int64_t m = f.m[j], items = n + m, stride = (int64_t)gridDim.x * blockDim.x * FSD_ITEMS;
    int32_t *l = f.out[j].l, *o32 = f.out[j].o32;
    int64_t *o = f.out[j].o;
    if (blockIdx.x == 0 && threadIdx.x == 0) o[n] = m;
    /* the flattener's promise, checked (a coalesced pass over kept): each
     * position in 0..total - 1 and above the one before it.  It costs
     * 1.6 us a launch (quicksort 10^6: 430 -> 505 us a run, H100); blocks
     * of their own checking beside the merging ones cost 2.4. */
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m; r += (int64_t)gridDim.x * blockDim.x)
        if (kept[r] < 0 || kept[r] >= so[n] || (r > 0 && kept[r - 1] >= kept[r])) nesl_derr_rec(e, r, NESL_E_KEPT_ORDER, kept[r], 0, 0);
    for (int64_t d = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * FSD_ITEMS; d < items; d += stride) {
        /* the split of the first d items: i starts (so[i - 1] <= kept[d - i]) and d - i kept positions */
        int64_t lo = d > m ? d - m : 0, hi = d < n ? d : n;
        while (lo < hi) {
            int64_t mid = (lo + hi) >> 1;
            if (so[mid] <= kept[d - 1 - mid]) lo = mid + 1;
            else hi = mid;
        }
        int64_t i = lo, r = d - lo, end = d + FSD_ITEMS < items ? d + FSD_ITEMS : items;
        int64_t last = -1, lastr = 0;   /* the last start this thread took, and its rank */
        for (int64_t q = d; q < end; q++) {
            if (i < n && (r >= m || so[i] <= kept[r])) {
                o[i] = r;
                o32[i] = (int32_t)r;
                if (last >= 0) l[last] = (int32_t)(r - lastr);
                last = i++;
                lastr = r;
            } else r++;
        }
        if (last >= 0) l[last] = (int32_t)((i < n ? kept_rank(kept, r, m, so[i]) : m) - lastr);
    }
}

/* The number of kept positions below q, from a FILTER's rank words
 * (nesl_cu_kept_rank) over 0..n-1, m kept in all. */
static __device__ __forceinline__ int64_t words_rank(const uint64_t *rank, int64_t n, int64_t m, int64_t q)
{
    if (q >= n) return m;
    uint64_t x = rank[q >> 5];
    return (int64_t)(x >> 32) + __popc((unsigned)x & ((1u << (q & 31)) - 1u));
}

/* filter_sd where every kept[j] carries the rank words of the FILTER
 * that made it, over the total positions of s: a segment's offset is the
 * rank of its start, read off a word, a thread a segment; blocks y = k
 * write zip_sd (out[za], out[zb]).  No merge, no
 * pass over kept (quicksort 10^6: k_filter_sd took 11 us a level), and
 * no order check: the FILTER's positions ascend by construction. */
__global__ static void k_filter_sd_rank(const int64_t *so, int64_t n, FilterSdGroup f)
{
    NESL_PDL_WAIT();
    int j = blockIdx.y;
    int64_t total = so[n], stride = (int64_t)gridDim.x * blockDim.x;
    if (j == f.k) {   /* the zip: segment g of a at 2g, of b at 2g + 1 */
        const uint64_t *ra = f.rank[f.za], *rb = f.rank[f.zb];
        int64_t ma = f.m[f.za], mb = f.m[f.zb];
        if (blockIdx.x == 0 && threadIdx.x == 0) f.z.put(2 * n, 2 * n, ma + mb, 0);
        for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += stride) {
            int64_t a0 = words_rank(ra, total, ma, so[g]), a1 = words_rank(ra, total, ma, so[g + 1]);
            int64_t b0 = words_rank(rb, total, mb, so[g]), b1 = words_rank(rb, total, mb, so[g + 1]);
            f.z.put(2 * g, 2 * n, a0 + b0, (int32_t)(a1 - a0));
            f.z.put(2 * g + 1, 2 * n, a1 + b0, (int32_t)(b1 - b0));
        }
        return;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) f.out[j].put(n, n, f.m[j], 0);
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += stride) {
        int64_t a = words_rank(f.rank[j], total, f.m[j], so[g]), b = words_rank(f.rank[j], total, f.m[j], so[g + 1]);
        f.out[j].put(g, n, a, (int32_t)(b - a));
    }
}

/* The kept positions of 0..n-1 from their rank words: position q, where
 * kept, at its rank. */
__global__ static void k_rank_positions(const uint64_t *rank, int64_t n, int32_t *pos)
{
    NESL_PDL_WAIT();
    for (int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; q < n; q += (int64_t)gridDim.x * blockDim.x) {
        uint64_t x = rank[q >> 5];
        unsigned bit = 1u << (q & 31);
        if ((unsigned)x & bit) pos[(x >> 32) + (uint64_t)__popc((unsigned)x & (bit - 1u))] = (int32_t)q;
    }
}

/* A FILTER's positions that it left to its rank words (CuVec.unwritten),
 * written for a reader of the positions themselves: the merge below. */
void cu_vec_positions(NeslRt *rt, const NeslVec *pos)
{
    CuVec *v = (CuVec *)pos;
    if (!v->unwritten) return;
    v->unwritten = false;
    if (v->v.len == 0) return;
    int64_t grid = cu_grid_for(rt, (const void *)k_rank_positions, v->rank_n);
    nesl_cu_launch(rt, k_rank_positions, (unsigned)grid, NESL_BLOCK, (const uint64_t *)v->rank.p, v->rank_n, (int32_t *)v->v.data);
    nesl_cu_launched(rt, "segment descriptor");
}

/* The kept positions ascend within s (a FILTER's indices: the flattener
 * guarantees it; every runtime checks it, this one on the device).  Where
 * each kept vector has its FILTER's rank words over exactly s's total
 * positions, the words give the offsets (k_filter_sd_rank). */
void nesl_filter_sd_group_zip(NeslRt *rt, NeslSd *cs, int k, const NeslVec *const *kept, NeslSd **out, int za, int zb, NeslSd **zip)
{
    const int64_t *so = nesl_sd_offs(rt, cs);
    int64_t n = cs->nsegs;
    FilterSdGroup f;
    memset(&f, 0, sizeof f);
    f.k = k;
    for (int j = 0; j < k; j++) {
        CuSd *s = sd_with_offsets(rt, n);
        s->total = kept[j]->len;
        f.kept[j] = (const int32_t *)kept[j]->data;
        f.m[j] = kept[j]->len;
        f.out[j] = sd_out(s, NULL);
        out[j] = &s->s;
    }
    int64_t total = ((CuSd *)cs)->total;   /* -1 while pending: the merge */
    bool ranked = total >= 0;
    for (int j = 0; j < k; j++) {
        const CuVec *v = (const CuVec *)kept[j];
        f.rank[j] = (const uint64_t *)v->rank.p;
        ranked = ranked && v->rank.p && v->rank_n == total;
    }
    if (ranked) {
        bool z = za >= 0;
        if (z) {
            CuSd *s = sd_with_offsets(rt, 2 * n);
            s->total = f.m[za] + f.m[zb];
            f.za = za;
            f.zb = zb;
            f.z = sd_out(s, NULL);
            *zip = &s->s;
        }
        /* a row of blocks each, in parallel: one thread a segment for all
         * of them and the zip took 210 us against 181 (quicksort 10^6) */
        dim3 grid((unsigned)cu_grid_for(rt, (const void *)k_filter_sd_rank, n + 1), (unsigned)(k + z));
        nesl_cu_launch(rt, k_filter_sd_rank, grid, NESL_BLOCK, so, n, f);
        nesl_cu_launched(rt, "segment descriptor");
        return;
    }
    int64_t most = n;
    for (int j = 0; j < k; j++) {
        cu_vec_positions(rt, kept[j]);
        most = n + f.m[j] > most ? n + f.m[j] : most;
    }
    dim3 grid((unsigned)cu_grid_for(rt, (const void *)k_filter_sd, (most + FSD_ITEMS - 1) / FSD_ITEMS + 1), (unsigned)k);
    nesl_cu_raise(rt);   /* a record of its own, as a checked make_sd's (sd_open) */
    nesl_cu_launch(rt, k_filter_sd, grid, NESL_BLOCK, so, n, f, nesl_cu_derr(rt));
    nesl_cu_launched(rt, "segment descriptor");
    nesl_cu_raise(rt);
    if (za >= 0) *zip = nesl_zip_sd(rt, out[za], out[zb]);
}

void nesl_filter_sd_group(NeslRt *rt, NeslSd *cs, int k, const NeslVec *const *kept, NeslSd **out)
{
    nesl_filter_sd_group_zip(rt, cs, k, kept, out, -1, -1, NULL);
}

NeslSd *nesl_filter_sd(NeslRt *rt, NeslSd *s, const NeslVec *kept)
{
    NeslSd *out;
    nesl_filter_sd_group(rt, s, 1, &kept, &out);
    return out;
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
    s->offs = cu_dev_get(rt, sizeof(int64_t) * (size_t)(n + 1));
    nesl_cu_launch(rt, k_dist_sd, (unsigned)cu_grid_for(rt, (const void *)k_dist_sd, n + 1), NESL_BLOCK, s->ulen, n, s->s.lens, (int64_t *)s->offs.p);
    nesl_cu_launched(rt, "segment descriptor");
}

NeslVec *nesl_lengths(NeslRt *rt, const NeslSd *s)
{
    CuSd *cs = (CuSd *)s;
    sd_fill(rt, cs);
    return cu_vec_adopt(rt, NESL_INT, s->nsegs, cu_dev_share(rt, &cs->lens));   /* the descriptor's block */
}

__global__ static void k_to_int(const int64_t *o, int64_t n, int32_t *d)
{
    NESL_PDL_WAIT();
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += stride) d[g] = (int32_t)o[g];
}

NeslVec *nesl_offsets(NeslRt *rt, NeslSd *cs)
{
    CuSd *s = (CuSd *)cs;
    const int64_t *o = nesl_sd_offs(rt, cs);
    if (s->offs32.p)   /* no launch: quicksort asks for a dozen offsets per level */
        return cu_vec_adopt(rt, NESL_INT, cs->nsegs, cu_dev_share(rt, &s->offs32));
    NeslVec *v = nesl_vec_new(rt, NESL_INT, cs->nsegs);
    if (cs->nsegs > 0) {
        nesl_cu_launch(rt, k_to_int, (unsigned)cu_grid_for(rt, (const void *)k_to_int, cs->nsegs), NESL_BLOCK, o, cs->nsegs, (int32_t *)v->data);
        nesl_cu_launched(rt, "offsets");
    }
    return v;
}

NeslVec *nesl_segids(NeslRt *rt, NeslSd *s)
{
    nesl_sd_segids(rt, s);
    return cu_vec_adopt(rt, NESL_INT, nesl_sd_total(rt, s), cu_dev_share(rt, &((CuSd *)s)->ids));   /* the descriptor's block */
}

