/* main.c — the nesslc command: options, phase sequencing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../frontend/frontend.h"
#include "../cudagen/cudagen.h"
#include "../flatten/flatten.h"
#include "../interp/interp.h"
#include "../interp/run_flat.h"
#include "nesl_c.h"
#include "../lcu/lcu.h"

#define NESSLC_VERSION "0.1.0"

typedef enum { EMIT_NONE, EMIT_AST, EMIT_TYPED, EMIT_MONO, EMIT_FLAN, EMIT_LCU, EMIT_C } EmitKind;

typedef struct Options {
    const char *input;
    EmitKind emit;
    bool interp;
    bool interp_lcu;   /* --interp=lcu */
    bool stats;
    bool form_kernels; /* --form-kernels (FILE.lcu) */
    const char *output;
    int print_length;
    bool keep_going;
    bool keep;         /* --keep: OUTPUT.c next to the executable */
    bool no_openmp;    /* --no-openmp */
} Options;

/* -o PROG with neither --emit nor --interp: build an executable. */
static bool builds_exe(const Options *o) { return o->output && !o->interp && o->emit == EMIT_NONE; }

static void usage(FILE *out)
{
    fputs(
"usage: nesslc [options] FILE.nesl | FILE.lcu\n"
"\n"
"Compile or run a NESL program.\n"
"\n"
"options:\n"
"  --interp, --interp=ast   run the program with the reference interpreter (typed AST)\n"
"  --emit=ast               print the parsed program\n"
"  --emit=typed             print the program with inferred types\n"
"  --emit=mono              print the monomorphized program\n"
"  --emit=flan              print the flattened program (Flan: λcu with inline SOACs)\n"
"  --emit=lcu               print the λcu program, one kernel per SOAC (FILE.lcu: the\n"
"                           checked program in canonical form)\n"
"  --interp=lcu             run the flattened program on the λcu interpreter (FILE.lcu:\n"
"                           run its CPU function main)\n"
"  --form-kernels           FILE.lcu: turn its inline SOACs into kernels (K1, K2, ...)\n"
"                           before --emit=lcu or --interp=lcu\n"
"  --stats                  with --interp=lcu: print kernel launches and SOAC work after\n"
"                           the program's output\n"
"  -o FILE                  write the output to FILE instead of standard output; without\n"
"                           --emit or --interp: build the executable FILE (C back end)\n"
"  --emit=c                 print the C program the C back end generates\n"
"  --target=c               generate C with OpenMP (the default; --target=cuda is not\n"
"                           supported yet)\n"
"  --keep                   with -o: keep the generated C as FILE.c\n"
"  --no-openmp              with -o: compile the generated C without OpenMP\n"
"  --print-length=N         elements of a sequence printed before ',...' (default 100, 0 = all)\n"
"  --help                   show this help and exit\n"
"  --version                show the version and exit\n"
"\n"
"Code generation: the C back end (doc/codegen.md); executables take --stats and\n"
"--repeat=R.\n", out);
}

static int parse_options(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->print_length = 100;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(0); }
        else if (!strcmp(a, "--version")) { printf("nesslc " NESSLC_VERSION "\n"); exit(0); }
        else if (!strcmp(a, "--interp") || !strcmp(a, "--interp=ast")) o->interp = true;
        else if (!strcmp(a, "--interp=lcu")) o->interp = o->interp_lcu = true;
        else if (!strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--form-kernels")) o->form_kernels = true;
        else if (!strncmp(a, "--interp=", 9)) {
            fprintf(stderr, "nesslc: error: --interp=%s is not supported yet (only --interp=ast and --interp=lcu)\n", a + 9);
            return -1;
        }
        else if (!strcmp(a, "--emit=ast")) o->emit = EMIT_AST;
        else if (!strcmp(a, "--emit=typed")) o->emit = EMIT_TYPED;
        else if (!strcmp(a, "--emit=mono")) o->emit = EMIT_MONO;
        else if (!strcmp(a, "--emit=flan")) o->emit = EMIT_FLAN;
        else if (!strcmp(a, "--emit=lcu")) o->emit = EMIT_LCU;
        else if (!strcmp(a, "--emit=c")) o->emit = EMIT_C;
        else if (!strcmp(a, "--target=c")) { /* the default */ }
        else if (!strncmp(a, "--target=", 9)) {
            fprintf(stderr, "nesslc: error: --target=%s is not supported yet (only --target=c)\n", a + 9);
            return -1;
        }
        else if (!strcmp(a, "--keep")) o->keep = true;
        else if (!strcmp(a, "--no-openmp")) o->no_openmp = true;
        else if (!strncmp(a, "--emit=", 7)) {
            fprintf(stderr, "nesslc: error: unknown --emit kind '%s' (expected ast, typed, mono, flan or lcu)\n", a + 7);
            return -1;
        }
        else if (!strncmp(a, "--print-length=", 15)) {
            char *end; long n = strtol(a + 15, &end, 10);
            if (*end || n < 0 || n > 1000000000) {
                fprintf(stderr, "nesslc: error: invalid --print-length '%s'\n", a + 15);
                return -1;
            }
            o->print_length = (int)n;
        }
        else if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) { fprintf(stderr, "nesslc: error: missing filename after '-o'\n"); return -1; }
            o->output = argv[++i];
        }
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "nesslc: error: unrecognized command-line option '%s'\n", a);
            return -1;
        }
        else if (o->input) {
            fprintf(stderr, "nesslc: error: more than one input file ('%s' and '%s')\n", o->input, a);
            return -1;
        }
        else o->input = a;
    }
    if (!o->input) { fprintf(stderr, "nesslc: error: no input file (try --help)\n"); return -1; }
    if (!o->interp && o->emit == EMIT_NONE && !o->output) {
        fprintf(stderr, "nesslc: error: nothing to do; use -o PROG (an executable), --interp or --emit=ast|typed|mono|flan|lcu|c\n");
        return -1;
    }
    return 0;
}

/* Type-check a λcu program the compiler built: a failure is a bug of the
 * phase that built it (the diagnostics are printed, exit status 3). */
static char *print_to_string(const LcuProgram *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) ICE("open_memstream failed");
    lcu_print(f, p);
    fclose(f);
    return buf;
}

/* print -> parse -> print must be the identity on every program the
 * compiler builds (the text form is an interface for the later phases). */
static bool round_trips(const LcuProgram *p, const char *what)
{
    size_t len1 = 0, len2 = 0;
    char *t1 = print_to_string(p, &len1);
    Arena *a = arena_new();
    Interner *in = interner_new();
    Diag d;
    diag_init(&d, stderr);
    Source src = { "<printed λcu>", t1, len1 };
    LcuProgram *q = lcu_parse(a, in, &d, &src);
    bool ok = false;
    if (q) {
        char *t2 = print_to_string(q, &len2);
        ok = len1 == len2 && memcmp(t1, t2, len1) == 0;
        free(t2);
    }
    if (!ok) fprintf(stderr, "nesslc: internal compiler error: the %s program does not round-trip through its text form\n", what);
    interner_free(in);
    arena_free(a);
    free(t1);
    return ok;
}

static bool check_built(Arena *a, Interner *in, LcuProgram *p, const char *what)
{
    Diag d;
    diag_init(&d, stderr);
    if (!lcu_check(a, in, &d, p)) {
        fprintf(stderr, "nesslc: internal compiler error: the %s program does not type-check\n", what);
        return false;
    }
    return round_trips(p, what);
}

/* A .lcu file with --form-kernels: parse, check, form kernels, check, then
 * print (--emit=lcu) or run main (--interp=lcu). */
static int drive_lcu_formed(const Source *src, FILE *out, Diag *d, const Options *o)
{
    Arena *a = arena_new();
    Interner *in = interner_new();
    int st = 1;
    LcuProgram *p = lcu_parse(a, in, d, src);
    if (p && lcu_check(a, in, d, p)) {
        LcuProgram *k = lcu_form_kernels(a, in, p);
        if (!check_built(a, in, k, "kernel-formed λcu")) {
            st = 3;
        } else if (o->emit == EMIT_LCU) {
            lcu_print(out, k);
            st = 0;
        } else {
            LcuStats stats = { 0 };
            fflush(out);
            st = lcu_interp(k, out, stderr, &stats) ? 0 : 1;
            if (o->stats) lcu_print_stats(out, &stats);
        }
    }
    interner_free(in);
    arena_free(a);
    return st;
}

/* A .lcu file through the C back end: parse, check, form kernels, check,
 * then print the C (--emit=c) or build the executable (-o PROG). */
static int drive_lcu_c(const Source *src, FILE *out, Diag *d, const Options *o)
{
    Arena *a = arena_new();
    Interner *in = interner_new();
    int st = 1;
    LcuProgram *p = lcu_parse(a, in, d, src);
    if (p && lcu_check(a, in, d, p)) {
        LcuProgram *k = lcu_form_kernels(a, in, p);
        if (!check_built(a, in, k, "kernel-formed λcu")) st = 3;
        else if (o->emit == EMIT_C) st = cgen_emit_c(out, stderr, k, src->name, NULL) ? 0 : 1;
        else {
            CgenBuildOptions bo = { o->output, o->keep, !o->no_openmp, NULL };
            st = cgen_build(k, src->name, &bo, stderr);
        }
    }
    interner_free(in);
    arena_free(a);
    return st;
}

/* A NESL program through flattening: --emit=flan, --emit=lcu, --interp=lcu,
 * and the C back end (--emit=c, -o PROG). */
static int drive_nesl_lcu(Compilation *c, MonoProgram *m, FILE *out, const Options *o)
{
    FlatProgram *fp = flatten_program(c, m);
    if (!fp || c->diag->nerrors) return 1;
    if (o->emit == EMIT_FLAN) {
        /* Printed before the check, so that a bad Flan program can be seen. */
        lcu_print(out, fp->flan);
        fflush(out);
    }
    if (!check_built(c->arena, c->names, fp->flan, "flattened (Flan)")) return 3;
    if (o->emit == EMIT_FLAN) return 0;
    LcuProgram *k = lcu_form_kernels(c->arena, c->names, fp->flan);
    if (!check_built(c->arena, c->names, k, "kernel-formed λcu")) return 3;
    if (o->emit == EMIT_LCU) {
        lcu_print(out, k);
        return 0;
    }
    if (o->emit == EMIT_C || builds_exe(o)) {
        CgenNesl *top = nesl_c_top(c, m, fp, o->print_length);
        if (o->emit == EMIT_C) return cgen_emit_c(out, stderr, k, o->input, top) ? 0 : 1;
        CgenBuildOptions bo = { o->output, o->keep, !o->no_openmp, top };
        return cgen_build(k, o->input, &bo, stderr);
    }
    InterpOptions io = { out, stderr, o->print_length };
    LcuStats stats = { 0 };
    fflush(stderr);
    int failures = run_flat_program(c, m, fp, k, &io, &stats);
    if (o->stats) lcu_print_stats(out, &stats);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    Options o;
    if (parse_options(argc, argv, &o) != 0) return 1;

    size_t len = 0;
    char *text = read_file(o.input, &len);
    if (!text) { fprintf(stderr, "nesslc: error: cannot read '%s': %s\n", o.input, strerror(errno)); return 1; }
    if (memchr(text, 0, len)) {
        fprintf(stderr, "nesslc: error: '%s' contains a NUL byte; NESL source is ASCII text\n", o.input);
        free(text);
        return 1;
    }
    Source src = { o.input, text, len };

    FILE *out = stdout;
    if (o.output && !builds_exe(&o) && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "nesslc: error: cannot open '%s' for writing: %s\n", o.output, strerror(errno));
        free(text);
        return 1;
    }

    Diag diag;
    diag_init(&diag, stderr);
    size_t nlen = strlen(o.input);
    if (nlen > 4 && !strcmp(o.input + nlen - 4, ".lcu")) {
        /* λcu text goes straight to the λcu phase (no NESL front end). */
        if (o.emit != EMIT_NONE && o.emit != EMIT_LCU && o.emit != EMIT_C) {
            fprintf(stderr, "nesslc: error: a .lcu file supports only --emit=lcu, --emit=c and --interp=lcu\n");
        }
        int st = 1;
        if (o.emit == EMIT_C || builds_exe(&o)) {
            st = drive_lcu_c(&src, out, &diag, &o);
        } else if (o.emit == EMIT_NONE || o.emit == EMIT_LCU) {
            if (o.form_kernels) {
                st = drive_lcu_formed(&src, out, &diag, &o);
            } else {
                LcuDriveOptions lo = { o.emit == EMIT_LCU, !o.emit, o.stats };
                st = lcu_drive(&src, out, &diag, lo);
            }
        }
        if (diag.suppressed) fprintf(stderr, "nesslc: too many errors (%d), the rest were not shown\n", diag.nerrors);
        if (out != stdout) fclose(out);
        free(text);
        return st;
    }
    Compilation *c = compilation_new(&diag);
    int status = 1;
    Program *p = parse_program(c, &src);
    if (!p || diag.nerrors) goto done;
    if (o.emit == EMIT_AST) { print_program(out, p, false); status = 0; goto done; }
    if (!check_program(c, p)) goto done;
    if (o.emit == EMIT_TYPED) { print_program(out, p, true); status = 0; goto done; }
    MonoProgram *m = monomorphize(c, p);
    if (!m || diag.nerrors) goto done;
    if (o.emit == EMIT_MONO) {
        /* Instances, then the forms that compute values; definitions are
         * shown by their instances and library constants are left out. */
        for (int i = 0; i < m->ninstances; i++) {
            if (m->instances[i]->is_prelude) fputs("(library) ", out);
            print_fundecl(out, m->instances[i], true);
        }
        for (int i = 0; i < m->prog.nforms; i++) {
            TopForm *f = m->prog.forms[i];
            if (f->quiet || f->kind == TOP_FUN || f->kind == TOP_DATA) continue;
            Program one = { &m->prog.forms[i], 1 };
            print_program(out, &one, true);
        }
        status = 0;
        goto done;
    }
    if (o.emit == EMIT_FLAN || o.emit == EMIT_LCU || o.interp_lcu || o.emit == EMIT_C || builds_exe(&o)) {
        status = drive_nesl_lcu(c, m, out, &o);
        goto done;
    }
    InterpOptions io = { out, stderr, o.print_length };
    fflush(stderr);
    status = interp_program(m, &io) ? 1 : 0;
done:
    if (diag.suppressed) fprintf(stderr, "nesslc: too many errors (%d), the rest were not shown\n", diag.nerrors);
    compilation_free(c);
    if (out != stdout) fclose(out);
    free(text);
    return status;
}
