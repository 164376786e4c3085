/* rt_core.c — what the CPU and GPU runtimes share (rt_core.h): frames of
 * objects, errors and their reporting, statistics, options.  Target
 * specifics come through nesl_core, nesl_tgt_free_obj, nesl_tgt_reset and
 * nesl_tgt_flush_errors. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt_core.h"

#define MAX_DEPTH 10000

static const char *const soac_names[NESL_NSOACS] = {
    "MAP", "PERMUTE", "REDUCE", "SCAN", "FILTER", "PARTITION", "ONCE",
    "SEG_PERMUTE", "SEG_REDUCE", "SEG_SCAN", "SEG_FILTER", "SEG_PARTITION",
};

const char *nesl_soac_name(NeslSoac k) { return soac_names[k]; }

void nesl_core_init(NeslRt *rt, NeslCore *c, int argc, char **argv, int nsites, const char *const *sites)
{
    memset(c, 0, sizeof *c);
    c->nsites = nsites;
    c->sites = sites;
    nesl_err_init(&c->herr, rt);
    c->herr.immediate = true;
    for (int i = 1; i < argc; i++) {
        char *end;
        long r;
        if (!strcmp(argv[i], "--stats")) c->stats = true;
        else if (!strcmp(argv[i], "--stats=kernels")) c->stats = c->kstats = true;
        else if (!strcmp(argv[i], "--stats=time")) c->stats = c->kstats = c->ktime = true;
        else if (!strncmp(argv[i], "--repeat=", 9) && (r = strtol(argv[i] + 9, &end, 10)) >= 1 && !*end && r <= 1000000)
            c->repeat = (int)r;
        else {
            fprintf(stderr, "%s: unknown option '%s'\nusage: %s [--stats[=kernels|=time]] [--repeat=R]\n", argv[0], argv[i], argv[0]);
            exit(2);
        }
    }
}

int nesl_repeat(NeslRt *rt) { return nesl_core(rt)->repeat; }
bool nesl_stats_on(NeslRt *rt) { return nesl_core(rt)->stats; }
void nesl_set_float32(NeslRt *rt) { nesl_core(rt)->float32 = true; }
bool nesl_float32(NeslRt *rt) { return nesl_core(rt)->float32; }
struct NeslHost *nesl_host(NeslRt *rt) { return nesl_core(rt)->host; }
void nesl_set_host(NeslRt *rt, struct NeslHost *h) { nesl_core(rt)->host = h; }
void nesl_set_error_hook(NeslRt *rt, void (*hook)(NeslRt *rt)) { nesl_core(rt)->error_hook = hook; }

/* ---- statistics ---- */
void nesl_print_stats(NeslRt *rt)
{
    NeslCore *c = nesl_core(rt);
    fprintf(stdout, "stats: kernel launches: %ld\n", c->kernels);
    for (int k = 0; k < NESL_NSOACS; k++)
        if (c->soac_launches[k])
            fprintf(stdout, "stats: %s: %ld launch%s, %ld elements\n", soac_names[k], c->soac_launches[k],
                    c->soac_launches[k] == 1 ? "" : "es", c->soac_elements[k]);
    if (c->lib_calls) fprintf(stdout, "stats: library calls: %ld, %ld elements\n", c->lib_calls, c->lib_elements);
    if (!c->kstats) return;
    long long rd = 0, wr = 0;
    for (int i = 0; i < c->nkst; i++) {
        const struct NeslKStat *k = &c->kst[i];
        fprintf(stdout, "stats: kernel %s: %ld launch%s, %lld bytes read, %lld bytes written", k->name,
                k->launches, k->launches == 1 ? "" : "es", k->rd, k->wr);
        if (c->ktime) fprintf(stdout, ", %.3f ms", k->ms);
        fputc('\n', stdout);
        rd += k->rd;
        wr += k->wr;
    }
    fprintf(stdout, "stats: global memory: %lld bytes read, %lld bytes written\n", rd, wr);
}

bool nesl_kstats_on(NeslRt *rt) { return nesl_core(rt)->kstats; }

/* The entry of a kernel (names are the generator's string literals, looked
 * up by contents: a literal may be duplicated). */
static struct NeslKStat *kstat(NeslCore *c, const char *name)
{
    for (int i = c->nkst - 1; i >= 0; i--)
        if (c->kst[i].name == name || !strcmp(c->kst[i].name, name)) return &c->kst[i];
    if (c->nkst == c->ckst) {
        int cap = c->ckst ? 2 * c->ckst : 64;
        struct NeslKStat *k = realloc(c->kst, sizeof *k * (size_t)cap);
        if (!k) { fprintf(stderr, "RUNTIME ERROR: out of memory\n"); exit(1); }
        c->kst = k;
        c->ckst = cap;
    }
    c->kst[c->nkst] = (struct NeslKStat){ name, 0, 0, 0, 0, 0 };
    return &c->kst[c->nkst++];
}

void nesl_stat_run(NeslRt *rt, const char *kernel, int64_t bytes_read)
{
    struct NeslKStat *k = kstat(nesl_core(rt), kernel);
    k->launches++;
    k->rd += bytes_read;
    /* --stats=time: from a synchronized start to a synchronized end, so a
     * kernel's time includes its launches, host round trips and checks,
     * but nothing of its neighbours. */
    if (nesl_core(rt)->ktime) k->t0 = nesl_wall(rt);
}

void nesl_stat_written(NeslRt *rt, const char *kernel, int64_t bytes)
{
    struct NeslKStat *k = kstat(nesl_core(rt), kernel);
    k->wr += bytes;
    if (nesl_core(rt)->ktime) k->ms += (nesl_wall(rt) - k->t0) * 1e3;
}

size_t nesl_base_size(NeslBase b)
{
    switch (b) {
    case NESL_INT: return sizeof(int32_t);
    case NESL_FLOAT: return sizeof(double);
    case NESL_F32: return sizeof(float);
    case NESL_BOOL: return sizeof(bool);
    case NESL_CHAR: case NESL_UNIT: return 1;
    }
    return 1;
}

/* A unit holds no data: the interpreter's model counts it 0 bytes. */
int64_t nesl_stat_base_bytes(NeslBase b) { return b == NESL_UNIT ? 0 : (int64_t)nesl_base_size(b); }

int64_t nesl_vec_bytes(const NeslVec *v) { return v->len * nesl_stat_base_bytes(v->base); }

int64_t nesl_sd_bytes(const NeslSd *s) { return 4 * s->nsegs; }

void nesl_stat_kernel(NeslRt *rt) { nesl_core(rt)->kernels++; }

void nesl_stat_soac(NeslRt *rt, NeslSoac k, int64_t elements)
{
    NeslCore *c = nesl_core(rt);
    c->soac_launches[k]++;
    c->soac_elements[k] += (long)elements;
}

void nesl_stat_lib(NeslRt *rt, int64_t elements)
{
    NeslCore *c = nesl_core(rt);
    c->lib_calls++;
    c->lib_elements += (long)elements;
}

/* ---- errors ---- */
/* Every runtime error ends here: the interpreter's exit status 1, and its
 * --stats output still printed (stdout, after the message).  In a NESL
 * program only the current form fails: the hook jumps back to the top
 * level. */
static NESL_NORETURN void die(NeslRt *rt)
{
    NeslCore *c = nesl_core(rt);
    fflush(stderr);
    if (c->error_hook) {
        c->depth = 0;
        nesl_err_init(&c->herr, rt);
        c->herr.immediate = true;
        nesl_tgt_reset(rt);
        c->error_hook(rt);
    }
    if (c->stats) nesl_print_stats(rt);
    fflush(stdout);
    exit(1);
}

/* "SITE: RUNTIME ERROR: " (no site when out of range), after any earlier
 * device error (which is reported instead, and does not return). */
static void error_prefix(NeslRt *rt, int32_t site)
{
    nesl_tgt_flush_errors(rt);
    NeslCore *c = nesl_core(rt);
    fflush(stdout);
    if (site >= 0 && site < c->nsites) fprintf(stderr, "%s: ", c->sites[site]);
    fputs("RUNTIME ERROR: ", stderr);
}

NESL_NORETURN void nesl_fail(NeslRt *rt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_prefix(rt, -1);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    die(rt);
}

NESL_NORETURN void nesl_fail_at(NeslRt *rt, int32_t site, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_prefix(rt, site);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    die(rt);
}

void nesl_check(NeslRt *rt, bool failed, int32_t site, const NeslVec *msg)
{
    if (!failed) return;
    const void *text = nesl_vec_host(rt, msg);
    error_prefix(rt, site);
    fwrite(text, 1, (size_t)msg->len, stderr);
    fputc('\n', stderr);
    die(rt);
}

NeslErr *nesl_herr(NeslRt *rt) { return &nesl_core(rt)->herr; }

void nesl_err_init(NeslErr *e, NeslRt *rt)
{
    e->rt = rt;
    e->immediate = false;
    e->set = false;
    e->guard = false;
    e->site = -1;
    e->it = INT64_MAX;
    e->msg[0] = 0;
}

void nesl_err_rec(NeslErr *e, int64_t it, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
#ifdef _OPENMP
#pragma omp critical(nesl_err)
#endif
    {
        if (!e->set || (!e->guard && it < e->it)) {
            vsnprintf(e->msg, sizeof e->msg, fmt, ap);
            e->it = it;
            e->set = true;
        }
    }
    va_end(ap);
    if (e->immediate) nesl_err_report(e);
}

void nesl_err_guard(NeslErr *e, int64_t it, int32_t site, int32_t kind)
{
#ifdef _OPENMP
#pragma omp critical(nesl_err)
#endif
    {
        if (!e->set || !e->guard || it < e->it) {
            snprintf(e->msg, sizeof e->msg, "%s", nesl_guard_msg(kind));
            e->it = it;
            e->site = site;
            e->guard = true;
            e->set = true;
        }
    }
    if (e->immediate) nesl_err_report(e);
}

NESL_NORETURN void nesl_err_report(NeslErr *e)
{
    error_prefix(e->rt, e->site);
    fprintf(stderr, "%s\n", e->msg);
    die(e->rt);
}

int64_t nesl_size(NeslRt *rt, NeslSoac k, int32_t n)
{
    if (n < 0) nesl_fail(rt, "%s over a negative size %lld", soac_names[k], (long long)n);
    return n;
}

void nesl_dist_sd_check(NeslRt *rt, int32_t n, int32_t l)
{
    if (n < 0 || l < 0) nesl_fail(rt, "dist_sd: %lld segments of length %lld", (long long)n, (long long)l);
    if (l > 0 && n > INT32_MAX / l)
        nesl_fail(rt, "dist_sd: %lld segments of length %lld: more than 2^31 - 1 elements", (long long)n, (long long)l);
}

/* A broken promise of the compiler's: "nesslc: internal error: ... (please
 * report this bug)", exit 3.  An earlier device error is reported instead,
 * as everywhere. */
NESL_NORETURN static void __attribute__((format(printf, 2, 3))) compiler_bug(NeslRt *rt, const char *fmt, ...)
{
    nesl_tgt_flush_errors(rt);
    fflush(stdout);
    fputs("nesslc: internal error: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (please report this bug)\n", stderr);
    exit(3);
}

void nesl_same_len(NeslRt *rt, int64_t len, int64_t size, const char *name)
{
    if (len != size)
        compiler_bug(rt, "'%s' has length %lld, not the size %lld that fusion proved", name, (long long)len, (long long)size);
}

void nesl_sd_total_differs(NeslRt *rt, int64_t sum, int64_t total)
{
    compiler_bug(rt, "a descriptor's lengths add up to %lld, not the total %lld the flattener gave", (long long)sum, (long long)total);
}

void nesl_sd_parts_differ(NeslRt *rt, const char *op, int64_t na, int64_t nb)
{
    compiler_bug(rt, "%s of descriptors of %lld and %lld segments", op, (long long)na, (long long)nb);
}

void nesl_filter_sd_unsorted(NeslRt *rt, int64_t at, int64_t pos)
{
    compiler_bug(rt, "filter_sd: kept position %lld (element %lld) is not ascending within the descriptor", (long long)pos, (long long)at);
}

void nesl_kept_differs(NeslRt *rt, const char *soac, int64_t real, int64_t given)
{
    compiler_bug(rt, "a %s kept %lld elements, not the %lld the flattener gave", soac, (long long)real, (long long)given);
}

double nesl_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- frames ---- */
void nesl_core_push(NeslRt *rt, NeslObj *o)
{
    NeslCore *c = nesl_core(rt);
    if (c->nobjs == c->cobjs) {
        size_t n = c->cobjs ? 2 * c->cobjs : 256;
        NeslObj **v = realloc(c->objs, sizeof *v * n);
        if (!v) nesl_fail(rt, "out of memory");
        c->objs = v;
        c->cobjs = n;
    }
    c->objs[c->nobjs++] = o;
}

size_t nesl_mark(NeslRt *rt) { return nesl_core(rt)->nobjs; }

void nesl_release_keep(NeslRt *rt, size_t mark, int n, void *const *keep)
{
    NeslCore *c = nesl_core(rt);
    size_t w = mark;
    for (size_t r = mark; r < c->nobjs; r++) {
        NeslObj *o = c->objs[r];
        bool kept = false;
        for (int i = 0; i < n && !kept; i++) kept = keep[i] == (void *)o;
        if (kept) c->objs[w++] = o;
        else nesl_tgt_free_obj(rt, o);
    }
    c->nobjs = w;
}

void nesl_release(NeslRt *rt, size_t mark, int nkeep, ...)
{
    void *keep[nkeep ? nkeep : 1];
    va_list ap;
    va_start(ap, nkeep);
    for (int i = 0; i < nkeep; i++) keep[i] = va_arg(ap, void *);
    va_end(ap);
    nesl_release_keep(rt, mark, nkeep, keep);
}

void nesl_enter(NeslRt *rt, const char *fname)
{
    NeslCore *c = nesl_core(rt);
    if (++c->depth <= MAX_DEPTH) return;
    if (c->error_hook) nesl_fail(rt, "Recursion too deep (stack overflow).");   /* a NESL program: the interpreter's words */
    nesl_fail(rt, "CPU call depth exceeds %d (runaway recursion in '%s'?)", MAX_DEPTH, fname);
}

void nesl_leave(NeslRt *rt) { nesl_core(rt)->depth--; }
