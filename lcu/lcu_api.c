/* lcu_api.c — the interpreter's public entry points (lcu.h): interpreter
 * objects, calls, result printing, statistics and the .lcu driver. */
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

LcuInterp *lcu_interp_new(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats)
{
    LcuInterp *I = calloc(1, sizeof *I);
    if (!I) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    I->prog = p;
    I->out = out;
    I->err = err;
    I->stats = stats ? stats : &I->own_stats;
    li_push_arena(I);   /* [0]: values of the API and results, until lcu_interp_free */
    return I;
}

void lcu_interp_set_hook(LcuInterp *I, LcuLibHook hook, void *ctx)
{
    I->hook = hook;
    I->hook_ctx = ctx;
}

void lcu_interp_free(LcuInterp *I)
{
    if (!I) return;
    while (I->narenas) larena_free(I->arenas[--I->narenas]);
    free(I->arenas);
    free(I->slots);
    free(I->sc);
    free(I->bc);
    free(I);
}

static const LcuFun *find_fun_named(const LcuProgram *p, const char *name)
{
    for (int i = 0; i < p->nfuns; i++)
        if (!strcmp(p->funs[i]->name, name)) return p->funs[i];
    return NULL;
}

bool lcu_interp_call(LcuInterp *I, const char *fname, int nargs, LcuVal **args, LcuVal **result)
{
    *result = NULL;
    I->failure = LCU_FAIL_INTERNAL;   /* until the call runs: misuse of this API */
    if (I->running) {
        fprintf(I->err, "nesslc: error: lcu_interp_call of '%s' while another call is running\n", fname);
        return false;
    }
    const LcuFun *f = find_fun_named(I->prog, fname);
    if (!f) { fprintf(I->err, "nesslc: error: no function '%s' to run\n", fname); return false; }
    if (nargs != f->nparams) {
        fprintf(I->err, "nesslc: error: '%s' takes %d argument%s but is given %d\n", fname, f->nparams,
                f->nparams == 1 ? "" : "s", nargs);
        return false;
    }
    for (int i = 0; i < nargs; i++)
        if (!args[i] || !li_val_has_type(args[i], f->params[i].type)) {
            fprintf(I->err, "nesslc: error: argument %d of '%s' is not of type ", i + 1, fname);
            lcu_print_type(I->err, f->params[i].type);
            fputc('\n', I->err);
            return false;
        }
    volatile bool ok = false;
    I->failure = LCU_FAIL_NONE;
    I->running = true;
    I->depth = 0;
    if (!setjmp(I->jb)) {
        *result = li_call_fun(I, f, args);   /* adopted by arena [0] */
        ok = true;
    } else {   /* a runtime error: drop the calls in progress */
        while (I->narenas > 1) larena_free(I->arenas[--I->narenas]);
        I->nslots = I->nsc = I->base = 0;
        I->flan = false;
    }
    I->running = false;
    I->depth = 0;
    return ok;
}

/* ---- printing results: NESL-like; floats %.15g plus ".0" when integral ---- */
static void print_scalar(FILE *out, LcuBase b, LcuScalar s)
{
    char buf[64];
    switch (b) {
    case LB_BOOL: fputs(s.i ? "T" : "F", out); return;
    case LB_INT: fprintf(out, "%lld", (long long)s.i); return;
    case LB_FLOAT:
        snprintf(buf, sizeof buf, "%.15g", s.f);
        if (!strpbrk(buf, ".enia")) strcat(buf, ".0");
        fputs(buf, out);
        return;
    case LB_CHAR:
        fputc('\'', out);
        lcu_print_char_escaped(out, (int)s.i, '\'');
        fputc('\'', out);
        return;
    case LB_UNIT: fputs("()", out); return;
    }
}

void li_print_val(FILE *out, const LcuVal *v)
{
    switch (v->kind) {
    case LV_SCALAR: print_scalar(out, v->base, v->s); return;
    case LV_TUPLE:
        for (int i = 0; i < v->n; i++) { if (i) fputc('\n', out); li_print_val(out, v->elems[i]); }
        return;
    case LV_VEC: case LV_SD:
        fputs(v->kind == LV_SD ? "sd[" : "[", out);
        for (int64_t i = 0; i < v->len; i++) {
            if (i) fputs(", ", out);
            print_scalar(out, v->kind == LV_SD ? LB_INT : v->base, v->data[i]);
        }
        fputc(']', out);
        return;
    }
}

LcuFailure lcu_interp_failure(const LcuInterp *I) { return I->failure; }

void lcu_interp_set_guarded(LcuInterp *I, bool guarded) { I->guarded = guarded; }

int lcu_interp_status(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats)
{
    const LcuFun *m = find_fun_named(p, "main");
    if (!m) { fprintf(err, "nesslc: error: no function 'main' to run\n"); return 1; }
    if (m->nparams) { fprintf(err, "nesslc: error: 'main' must take no parameters\n"); return 1; }
    LcuInterp *I = lcu_interp_new(p, out, err, stats);
    LcuVal *r;
    int status = 0;
    if (lcu_interp_call(I, "main", 0, NULL, &r)) {
        li_print_val(out, r);
        fputc('\n', out);
    } else {
        status = I->failure == LCU_FAIL_INTERNAL ? 3 : 1;
    }
    lcu_interp_free(I);
    return status;
}

bool lcu_interp(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats)
{
    return lcu_interp_status(p, out, err, stats) == 0;
}

void lcu_print_stats(FILE *out, const LcuStats *s)
{
    fprintf(out, "stats: kernel launches: %ld\n", s->kernel_launches);
    for (int k = 0; k < LCU_NSOAC_KINDS; k++)
        if (s->soac_launches[k])
            fprintf(out, "stats: %s: %ld launch%s, %ld elements\n", lcu_soac_name((LcuSoacKind)k),
                    s->soac_launches[k], s->soac_launches[k] == 1 ? "" : "es", s->soac_elements[k]);
    if (s->lib_calls)
        fprintf(out, "stats: library calls: %ld, %ld elements\n", s->lib_calls, s->lib_elements);
    if (!s->per_kernel) return;
    long long rd = 0, wr = 0;
    for (int i = 0; i < s->nkernels; i++) {
        const struct LcuKernelStats *k = &s->kernels[i];
        fprintf(out, "stats: kernel %s: %ld launch%s, %lld bytes read, %lld bytes written\n", k->name,
                k->launches, k->launches == 1 ? "" : "es", k->bytes_read, k->bytes_written);
        rd += k->bytes_read;
        wr += k->bytes_written;
    }
    fprintf(out, "stats: global memory: %lld bytes read, %lld bytes written\n", rd, wr);
}

void lcu_stats_free(LcuStats *s)
{
    free(s->kernels);
    s->kernels = NULL;
    s->nkernels = s->kcap = 0;
}

int lcu_drive(const Source *src, FILE *out, Diag *d, LcuDriveOptions o)
{
    Arena *a = arena_new();
    Interner *in = interner_new();
    int status = 1;
    LcuProgram *p = lcu_parse(a, in, d, src);
    if (p && lcu_check(a, in, d, p)) {
        if (o.emit) { lcu_print(out, p); status = 0; }
        else {
            LcuStats stats = { 0 };
            stats.per_kernel = o.stats_kernels;
            fflush(out);
            status = lcu_interp_status(p, out, stderr, &stats);
            if (o.stats) lcu_print_stats(out, &stats);
            lcu_stats_free(&stats);
        }
    }
    interner_free(in);
    arena_free(a);
    return status;
}
