/* rt_cuda_impl.h — what the CUDA runtime's files share (rt_cuda.cu: objects,
 * the allocator, errors, launches, the runtime object; rt_cuda_sd.cu:
 * segment descriptors; rt_cuda_rank.cu: the rank library kernels).  Not
 * part of the interface: generated code sees nesl_rt.h and nesl_cuda.cuh. */
#ifndef NESL_RT_CUDA_IMPL_H
#define NESL_RT_CUDA_IMPL_H

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
#define RET_BYTES 256                 /* the result area (nesl_cu_ret) */
#define CNT_SLOTS (4 * NESL_COUNT_GROUP)   /* counts read later, a ring */
#ifndef TOT_SLOTS
#define TOT_SLOTS 4096                /* descriptors' totals between waits (htot); tests build 2 */
#endif

/* A device block and its size class (-1: none).  refs: NULL while one
 * object holds the block, else the count of objects holding it (cu_dev_share):
 * a descriptor's lengths and segment ids and the vectors made of them are
 * one block, not copies (quicksort: 1550 device copies of 5 us of host
 * time each in a 38 ms form, H100). */
typedef struct DBuf { void *p; int cls; int *refs; } DBuf;
typedef struct FreeBlk { void *p; struct FreeBlk *next; } FreeBlk;

/* Host wrappers: the public struct first, then what the runtime keeps. */
/* rank, rank_n: a FILTER's rank words for the vector of the positions it
 * kept of 0..rank_n-1 (nesl_cu_kept_rank), or none (rank.p NULL);
 * unwritten: the FILTER left the positions to its words
 * (nesl_cu_kept_rank_only), cu_vec_positions writes them. */
typedef struct CuVec { NeslVec v; DBuf d; void *host; size_t host_cap; DBuf rank; int64_t rank_n; bool unwritten; } CuVec;
/* ulen: the length of every segment of a dist_sd descriptor, else -1;
 * unfilled: a dist_sd whose lens and offs are not written yet (sd_fill);
 * offs32: the offsets as ints, made with offs by the scan (none for a
 * dist_sd), shared with every offsets (s) vector;
 * tot_slot: the slot of the mapped totals (NeslRt's htot) the scan writes
 * its total into, until a wait settles it (-1: none), on the pending list
 * (pend_prev, pend_next) meanwhile */
typedef struct CuSd {
    NeslSd s;
    DBuf lens, offs, offs32, ids;
    int64_t total;
    int32_t *host_lens;
    int32_t ulen;
    bool unfilled;
    int tot_slot;
    struct CuSd *pend_prev, *pend_next;
} CuSd;
typedef struct CuTmp { NeslObj obj; DBuf d; } CuTmp;
/* What a slot of the mapped totals (NeslRt's htot) holds: a descriptor's
 * total, or the count of a FILTER or PARTITION whose count the host knew
 * (nesl_cu_kept_slot); a given one is checked when a wait settles it. */
typedef enum { TOT_SD, TOT_FILTER, TOT_PARTITION } TotKind;

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
     * count) is written by the kernel into RET_BYTES of mapped pinned host
     * memory, so the host reads it after the wait with no copy: H100, by
     * events, a REDUCE's form ended 4-8 us sooner than with a 64-byte copy
     * into pinned memory (bench/cuda/result_end.cu). */
    char *dret, *hret;       /* the result area: its device address, its host address */
    char *hsmall;            /* pinned: other small copies to the host (not hret, which
                                a kernel may be about to write) */
    bool ret_busy;           /* nesl_cu_ret gave out dret, not fetched yet */
    /* A descriptor's scan writes its total into a slot of mapped pinned
     * host memory; every wait for the device settles all pending totals
     * (cu_sd_settle), so asking for one costs no copy, and a wait only
     * when none came since its scan (quicksort asks for a dozen a level). */
    int64_t *htot, *dtot;    /* TOT_SLOTS slots: host address, device address */
    long long *hcnt, *dcnt;  /* CNT_SLOTS mapped counts read later (nesl_cu_count) */
    int cnt_next;
    int tot_next;            /* the next free slot (all settled before it wraps) */
    CuSd *pending;           /* descriptors whose total is in a slot */
    bool tot_bad;            /* a settled total differed from the one given (reported at */
    int64_t tot_sum, tot_given;   /* the next error check, after any device error) */
    TotKind tot_kind;        /* whose: make_sd's total, or a FILTER's (PARTITION's) kept */
    int nverify;             /* the given totals the next settle checks: of released */
    int verify_slot[TOT_SLOTS];      /* descriptors, and of FILTERs launched with their */
    int64_t verify_total[TOT_SLOTS]; /* count known (nesl_cu_kept_slot): slot, total, kind */
    TotKind verify_kind[TOT_SLOTS];
    int slot;                /* the slot launches write now */
    bool slot_used;          /* nesl_cu_derr gave out derr + slot */
    int fetched;             /* slots err_fetch set aside for err_check */
    unsigned *counter;       /* device: zero between reductions */
    DBuf lb_words, lb_flags; /* look-back states (nesl_cu_lb_states): packed, flags */
    unsigned lb_epoch;       /* the last epoch given out */
    DBuf perm_win;           /* PERMUTE's winners (nesl_cu_perm_win) */
    unsigned perm_epoch;
    int nsm;
    int pdl_arch;            /* nesl_cu_pdl_arch: 0, or the device's architecture */
    cudaEvent_t ev_start, ev_stop;   /* nesl_timer_*, made at first use */
    bool ev_made;
    /* While a form is timed, each wait for a result first records ev_wait;
     * if nothing is queued after it (cu_queue clears wait_idle), the
     * device's work ended there, and nesl_timer_stop counts from the wait's
     * return (wait_end) only the host's own work: the wake-up from the
     * wait is left out, as the baselines' from their last event (H100: 6
     * of dot 10^6's 20 us; doc/codegen.md, "--repeat"). */
    cudaEvent_t ev_wait;
    bool timing, wait_idle;
    double wait_end;
    /* NESL_CU_PROFILE set: at exit, how many operations were queued and
     * how often (and how long) the host waited for the device (doc/
     * codegen.md, "Profile"); the counts are kept always. */
    bool prof;
    long n_queued, n_waits;
    int nkinds;
    const char *kind_name[32];   /* NESL_CU_PROFILE: queued operations by `what` */
    long kind_n[32];
    double kind_s[32], t_last;   /* host time since the previous operation or wait */
    double wait_s, t_start;
    long n_launch;
    double launch_s;             /* NESL_CU_PROFILE: host time in the launch calls */
    int nwhys;
    const char *why_name[16];    /* NESL_CU_PROFILE: host waits by reason */
    long why_n[16];
    const void *grid_fn[NGRIDS];
    int grid_blocks[NGRIDS];
    int ngrids;
    struct BtState *bt;      /* the block-local tail's settings and buffers (rt_cuda_bt.cu), made at first use */
};

/* rt_cuda_bt.cu */
void nesl_bt_free(NeslRt *rt);   /* the tail's buffers (and its profile line) */

/* rt_cuda.cu */
void cu_ck(NeslRt *rt, cudaError_t e, const char *what);   /* a CUDA error is a runtime error */
DBuf cu_dev_get(NeslRt *rt, size_t n);                    /* a cached device block of n bytes */
void cu_dev_put(NeslRt *rt, DBuf b);                      /* one holder less */
DBuf cu_dev_share(NeslRt *rt, DBuf *b);                   /* b, for one holder more */
void *cu_new_obj(NeslRt *rt, NeslObjKind k, size_t bytes);  /* in the current frame */
NeslVec *cu_vec_adopt(NeslRt *rt, NeslBase b, int64_t len, DBuf d);
/* Around a wait for the device: the pending error slots, then, the
 * device idle, their check. */
void cu_err_fetch(NeslRt *rt);
void cu_err_check(NeslRt *rt);

/* rt_cuda_sd.cu */
int64_t cu_grid_for(NeslRt *rt, const void *k, int64_t n);   /* blocks for n elements, one a thread */
/* A call that queues device work (a copy, a memset; a launch's error):
 * cu_ck, and the timer learns the device is busy again. */
void cu_queue(NeslRt *rt, cudaError_t e, const char *what);
void cu_wait(NeslRt *rt, const char *why);                /* wait for a result (ev_wait); why: for the profile */
void cu_check_errors(NeslRt *rt, const char *why);        /* wait, then report a device error */
void cu_sd_settle(NeslRt *rt);                            /* after a wait: the pending totals */
void cu_sd_unpend(NeslRt *rt, CuSd *s);                   /* s leaves the pending list */
void cu_tot_report(NeslRt *rt);                           /* a settled total differed (tot_bad): exits */
void cu_vec_positions(NeslRt *rt, const NeslVec *pos);    /* a FILTER's positions left to its rank words, written */

#endif
