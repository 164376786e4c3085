/* rt_top.c — the top-level loop of a NESL program (the reference
 * interpreter's, interp/eval_toplevel.c): forms in order, rand reseeded per
 * form, a runtime error aborting only its form, the printability check,
 * globals bound from the result's components, result and definition lines;
 * --repeat=R timings (doc/codegen.md). */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_host.h"

#define NESL_RNG_SEED 0x4E45534C33313121ull

struct NeslHost {
    const NeslProgram *p;
    NeslComp **gcomps;          /* per global: its components (malloc'd) */
    int32_t *gn;
    bool *gset;
    uint64_t rng;
    bool quiet;                 /* a warm-up run of --repeat: no output */
    bool in_form;
    jmp_buf jb;                 /* where a runtime error of the current form goes */
    NStr times;                 /* --repeat report lines */
};

uint64_t *nesl_rng(NeslRt *rt) { return &nesl_host(rt)->rng; }
bool nesl_output_quiet(NeslRt *rt) { NeslHost *h = nesl_host(rt); return h && h->quiet; }

static void on_error(NeslRt *rt)
{
    NeslHost *h = nesl_host(rt);
    if (!h || !h->in_form) { fflush(stdout); exit(1); }
    longjmp(h->jb, 1);
}

/* An error of the top-level loop itself, at a source position. */
static _Noreturn void fail_where(NeslRt *rt, const char *where, const char *fmt, const char *arg)
{
    fflush(stdout);
    if (where && *where) fprintf(stderr, "%s: ", where);
    fputs("RUNTIME ERROR: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    fflush(stderr);
    on_error(rt);
    exit(1);
}

const NeslComp *nesl_global_comps(NeslRt *rt, int32_t g) { return nesl_host(rt)->gcomps[g]; }

void nesl_global(NeslRt *rt, int32_t site, int32_t g, int nres, NeslComp *res)
{
    NeslHost *h = nesl_host(rt);
    if (!h || g < 0 || g >= h->p->nglobals || !h->gset[g])
        nesl_fail_at(rt, site, "Variable %s is unbound because its definition failed.",
                     h && g >= 0 && g < h->p->nglobals ? h->p->global_names[g] : "?");
    if (h->gn[g] == 0 && nres == 1) res[0].i = 0;   /* a unit stand-in */
    else if (h->gn[g] != nres) nesl_fail_at(rt, site, "global %d has %d components, %d read (internal)", (int)g, (int)h->gn[g], nres);
    else memcpy(res, h->gcomps[g], sizeof *res * (size_t)nres);
}

/* Whether global g is unbound (its definition failed) and read for no
 * elements: the read then yields empty stand-ins instead of an error. */
bool nesl_global_absent(NeslRt *rt, int32_t g, int64_t count)
{
    NeslHost *h = nesl_host(rt);
    return count == 0 && h && g >= 0 && g < h->p->nglobals && !h->gset[g];
}

/* Which components of a value of type t are objects (vectors, sds). */
static void obj_mask(const NTy *t, bool lifted, bool *mask, int *k)
{
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM: mask[(*k)++] = lifted; return;
    case NT_SEQ: if (lifted) mask[(*k)++] = true; obj_mask(t->a, true, mask, k); return;
    case NT_PAIR: obj_mask(t->a, lifted, mask, k); obj_mask(t->b, lifted, mask, k); return;
    case NT_DATA: obj_mask(t->a, lifted, mask, k); return;
    case NT_FUN: for (int c = 0; c < t->ncaps; c++) obj_mask(t->caps[c], lifted, mask, k); return;
    case NT_ANYFUN: return;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of the timed runs (the first is a warm-up when there are more). */
static double median(double *ms, int runs)
{
    double *t = runs > 1 ? ms + 1 : ms;
    int n = runs > 1 ? runs - 1 : runs;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* wall: the host clock's times (nesl_timer_stop), or NULL */
static void report_time(NStr *out, const char *label, double *ms, double *wall, int runs)
{
    nstr_printf(out, "nesl-time form %s: %.3f ms (%d runs", label, median(ms, runs), runs);
    if (wall) nstr_printf(out, "; wall %.3f ms", median(wall, runs));
    nstr_printf(out, ")\n");
}

void nesl_report_time(NeslRt *rt, const char *label, double *ms, int runs)
{
    NStr s = { 0 };
    report_time(&s, label, ms, NULL, runs);
    (void)rt;
    fflush(stdout);
    fputs(s.s, stderr);
    free(s.s);
}

/* Evaluate a value form (R times), check, bind and print it; false if it failed. */
static bool run_value_form(NeslRt *rt, NeslHost *h, const NeslForm *f)
{
    int repeat = nesl_repeat(rt), runs = repeat > 0 && f->name ? repeat : 1;
    double *ms = calloc((size_t)runs * 2, sizeof *ms), *wall = ms + runs;
    NeslComp *res = calloc((size_t)f->ncomps + 1, sizeof *res);
    size_t mark = nesl_mark(rt);
    NPool pool = { 0 };
    if (setjmp(h->jb)) {
        h->in_form = false;
        h->quiet = false;
        nesl_release(rt, mark, 0);
        npool_free(&pool);
        free(ms);
        free(res);
        fflush(stdout);
        return false;
    }
    h->in_form = true;
    for (int k = 0; k < f->nneeds; k++)
        if (!h->gset[f->needs[k]])
            fail_where(rt, f->need_where[k], "Variable %s is unbound because its definition failed.",
                       h->p->global_names[f->needs[k]]);
    for (int r = 0; r < runs; r++) {
        h->rng = NESL_RNG_SEED;
        h->quiet = r < runs - 1;
        nesl_timer_start(rt);
        f->run(rt, res);
        ms[r] = nesl_timer_stop(rt, &wall[r]);
        if (r < runs - 1) nesl_release(rt, mark, 0);
    }
    h->quiet = false;
    const char *d = f->desc;
    const NTy *t = nty_parse(&pool, &d);
    int nc = nty_arity(t, false);
    NV v = { 0 };
    if (f->name) {
        NRead rd = { rt, &pool, res, nc, 0, 0 };
        v = nv_from_u(&rd, t);
        if (!nv_printable(v, h->p->print_length))
            fail_where(rt, f->where, "%s", "Cannot print an infinite or NaN float value.");
    }
    /* bind the globals; their objects outlive the form */
    bool *mask = npool_alloc(&pool, sizeof *mask * (size_t)(nc + 1));
    int k = 0;
    obj_mask(t, false, mask, &k);
    void **keep = npool_alloc(&pool, sizeof *keep * (size_t)(nc + 1));
    int nkeep = 0;
    for (int b = 0; b < f->nbinds; b++) {
        const NeslBind *bd = &f->binds[b];
        NeslComp *c = malloc(sizeof *c * (size_t)(bd->n + 1));
        memcpy(c, res + bd->first, sizeof *c * (size_t)bd->n);
        for (int j = 0; j < bd->n; j++)
            if (bd->first + j < nc && mask[bd->first + j]) keep[nkeep++] = c[j].p;
        free(h->gcomps[bd->global]);
        h->gcomps[bd->global] = c;
        h->gn[bd->global] = bd->n;
        h->gset[bd->global] = true;
    }
    if (f->name) {
        NStr s = { 0 };
        nv_format(&s, v, t, false, nesl_float32(rt), h->p->print_length);
        nv_print_result(stdout, f->name, s.s, f->type);
        free(s.s);
        if (repeat > 0) report_time(&h->times, f->label, ms, wall, runs);
    }
    h->in_form = false;
    nesl_release_keep(rt, mark, nkeep, keep);
    npool_free(&pool);
    free(ms);
    free(res);
    fflush(stdout);
    return true;
}

int nesl_run_program(NeslRt *rt, const NeslProgram *p)
{
    NeslHost *h = calloc(1, sizeof *h);
    size_t ng = (size_t)(p->nglobals > 0 ? p->nglobals : 1);
    h->p = p;
    h->gcomps = calloc(ng, sizeof *h->gcomps);
    h->gn = calloc(ng, sizeof *h->gn);
    h->gset = calloc(ng, sizeof *h->gset);
    if (!h->gcomps || !h->gn || !h->gset) nesl_fail(rt, "out of memory");
    nesl_set_host(rt, h);
    nesl_set_error_hook(rt, on_error);
    int failures = 0;
    for (int k = 0; k < p->nforms; k++) {
        const NeslForm *f = &p->forms[k];
        if (f->text) {
            fputs(f->text, stdout);
            fflush(stdout);
        } else if (!run_value_form(rt, h, f)) {
            failures++;
        }
    }
    nesl_set_error_hook(rt, NULL);
    fflush(stdout);
    nesl_rt_free(rt);
    if (h->times.s) fputs(h->times.s, stderr);
    for (size_t g = 0; g < ng; g++) free(h->gcomps[g]);
    free(h->gcomps);
    free(h->gn);
    free(h->gset);
    free(h->times.s);
    free(h);
    return failures ? 1 : 0;
}
