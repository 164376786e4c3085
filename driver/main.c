/* main.c — the nesslc command: options, phase sequencing. */
#include <errno.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "../frontend/frontend.h"
#include "../cudagen/cudagen.h"
#include "../flatten/flatten.h"
#include "../fusion/fusion.h"
#include "../interp/interp.h"
#include "../interp/run_flat.h"
#include "nesl_c.h"
#include "../lcu/lcu.h"

#define NESSLC_VERSION "0.1.0"

typedef enum { EMIT_NONE, EMIT_AST, EMIT_TYPED, EMIT_MONO, EMIT_FLAN, EMIT_LCU, EMIT_C, EMIT_CUDA, EMIT_PDG, EMIT_ILP } EmitKind;
typedef enum { TARGET_DEFAULT, TARGET_C, TARGET_CUDA } Target;

typedef struct Options {
    const char *input;
    EmitKind emit;
    bool interp;
    bool interp_lcu;   /* --interp=lcu */
    bool stats;
    bool stats_kernels; /* --stats=kernels: also bytes per kernel */
    int opt_level;     /* -O0: no fusion; -O / -O1 (default): fusion */
    bool form_kernels; /* --form-kernels (FILE.lcu) */
    const char *output;
    int print_length;
    bool keep_going;
    bool keep;         /* --keep: OUTPUT.c next to the executable */
    bool no_openmp;    /* --no-openmp */
    bool float32;      /* -ffloat32: NESL float is IEEE single in compiled programs */
    bool no_tail;      /* -fno-block-tail: no block-local tails in CUDA code */
    Target target;     /* --target=c|cuda (default: cuda when a GPU is visible) */
    const char *arch;  /* -arch=sm_XX for nvcc */
} Options;

/* A GPU visible on this machine (the default target is then cuda). */
static bool gpu_visible(void)
{
    return access("/dev/nvidia0", F_OK) == 0;
}

static bool target_is_cuda(const Options *o)
{
    return o->target == TARGET_CUDA || (o->target == TARGET_DEFAULT && gpu_visible());
}

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
"  --stats=kernels          --stats plus, per kernel, launches and global-memory bytes\n"
"                           read and written\n"
"  -O0                      no fusion\n"
"  -O, -O1                  fuse kernels (the default; doc/fusion.md)\n"
"  --emit=pdg               print each control region's dependence graph and chosen\n"
"                           clusters as Graphviz dot\n"
"  --emit=ilp               print each region's fusion ILP in lp_solve's LP format\n"
"  -o FILE                  write the output to FILE instead of standard output; without\n"
"                           --emit or --interp build the executable FILE\n"
"  --emit=c                 print the C program the C back end generates\n"
"  --emit=cuda              print the CUDA program the CUDA back end generates\n"
"  --target=cuda|c          -o: build for the GPU (nvcc) or the CPU (C with OpenMP); the\n"
"                           default is cuda when a GPU is visible (/dev/nvidia0), else c\n"
"  -arch=sm_XX              --target=cuda: the GPU architecture for nvcc (default sm_90)\n"
"  --keep                   with -o: keep the generated source as FILE.c or FILE.cu\n"
"  --no-openmp              with -o: compile the generated C without OpenMP\n"
"  -ffloat32                with -o, --emit=c or --emit=cuda: float is IEEE single\n"
"                           precision (the default is double); the interpreters\n"
"                           are double only\n"
"  -fno-block-tail          CUDA: run every level of a recursion on the whole GPU, none\n"
"                           of them inside blocks (-fblock-tail, the default: the small\n"
"                           last levels run in blocks; doc/codegen.md)\n"
"  --print-length=N         elements of a sequence printed before ',...' (default 100, 0 = all)\n"
"  --help                   show this help and exit\n"
"  --version                show the version and exit\n"
"\n"
"Code generation: the C and CUDA back ends (doc/codegen.md); executables take\n"
"--stats and --repeat=R.\n"
"\n"
"exit status:\n"
"  0  success\n"
"  1  an error in the program: syntax, type, \"not supported yet\", or a runtime\n"
"     error (\"RUNTIME ERROR: ...\"), or a bad command line\n"
"  3  an internal error (\"nesslc: internal error: ...\" or \"nesslc: internal\n"
"     compiler error: ...\"): a bug in nesslc, not in the program; please report\n"
"     it (a failed internal assertion, \"internal compiler error at FILE:LINE\",\n"
"     aborts instead)\n", out);
}

static int parse_options(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->print_length = 100;
    o->opt_level = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(0); }
        else if (!strcmp(a, "--version")) { printf("nesslc " NESSLC_VERSION "\n"); exit(0); }
        else if (!strcmp(a, "--interp") || !strcmp(a, "--interp=ast")) o->interp = true;
        else if (!strcmp(a, "--interp=lcu")) o->interp = o->interp_lcu = true;
        else if (!strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--stats=kernels")) o->stats = o->stats_kernels = true;
        else if (!strcmp(a, "-O0")) o->opt_level = 0;
        else if (!strcmp(a, "-O") || !strcmp(a, "-O1")) o->opt_level = 1;
        else if (!strcmp(a, "--emit=pdg")) o->emit = EMIT_PDG;
        else if (!strcmp(a, "--emit=ilp")) o->emit = EMIT_ILP;
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
        else if (!strcmp(a, "--emit=cuda")) o->emit = EMIT_CUDA;
        else if (!strcmp(a, "--target=c")) o->target = TARGET_C;
        else if (!strcmp(a, "--target=cuda")) o->target = TARGET_CUDA;
        else if (!strncmp(a, "--target=", 9)) {
            fprintf(stderr, "nesslc: error: unknown target '%s' (expected cuda or c)\n", a + 9);
            return -1;
        }
        else if (!strcmp(a, "-ffloat32")) o->float32 = true;
        else if (!strcmp(a, "-fno-block-tail")) o->no_tail = true;
        else if (!strcmp(a, "-fblock-tail")) o->no_tail = false;
        else if (!strncmp(a, "-arch=", 6)) {
            if (strncmp(a + 6, "sm_", 3) && strncmp(a + 6, "compute_", 8)) {
                fprintf(stderr, "nesslc: error: invalid '%s' (expected -arch=sm_XX)\n", a);
                return -1;
            }
            o->arch = a + 6;
        }
        else if (!strcmp(a, "--keep")) o->keep = true;
        else if (!strcmp(a, "--no-openmp")) o->no_openmp = true;
        else if (!strncmp(a, "--emit=", 7)) {
            fprintf(stderr, "nesslc: error: unknown --emit kind '%s' (expected ast, typed, mono, flan, lcu, c, cuda, pdg or ilp)\n", a + 7);
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
    if (o->float32 && !builds_exe(o) && o->emit != EMIT_C && o->emit != EMIT_CUDA) {
        /* the interpreters are the double-precision reference (doc/decisions.md) */
        fprintf(stderr, "nesslc: error: -ffloat32 applies only to compiled programs (-o PROG, --emit=c, --emit=cuda); the interpreters are double precision\n");
        return -1;
    }
    if (!o->interp && o->emit == EMIT_NONE && !o->output) {
        fprintf(stderr, "nesslc: error: nothing to do; use -o PROG (an executable), --interp or --emit=ast|typed|mono|flan|lcu|c|cuda|pdg|ilp\n");
        return -1;
    }
    return 0;
}

/* Type-check a λcu program the compiler built: a failure is a bug of the
 * phase that built it (the diagnostics are printed, exit status 3). */
static bool check_built(Arena *a, Interner *in, LcuProgram *p, const char *what)
{
    return lcu_verify_built(a, in, p, what, stderr);
}

/* Fusion of a checked kernel-formed program (at -O): the fused program,
 * checked, or NULL (status 3) when it does not check — a fusion bug.  With
 * --emit=pdg / --emit=ilp the graphs / models go to out. */
static LcuProgram *optimize(Arena *a, Interner *in, LcuProgram *k, const Options *o, FILE *out)
{
    if (o->opt_level == 0 && o->emit != EMIT_PDG && o->emit != EMIT_ILP) return k;
    FusionOptions fo = { o->emit == EMIT_PDG ? out : NULL, o->emit == EMIT_ILP ? out : NULL, 0, 0 };
    /* for measuring the ILP on large regions (doc/fusion.md) */
    if (getenv("NESSLC_ILP_MAX_NODES")) fo.ilp_max_nodes = atoi(getenv("NESSLC_ILP_MAX_NODES"));
    if (getenv("NESSLC_ILP_WORK")) fo.ilp_work = atol(getenv("NESSLC_ILP_WORK"));
    FusionReport rep;
    LcuProgram *f = fusion_program(a, in, k, &fo, &rep);
    if (getenv("NESSLC_FUSION_REPORT"))
        fprintf(stderr, "fusion: %d regions, %d by ILP, %d by the ILP's best so far, %d greedy (%d out of ILP work), %d merged kernels; largest ILP %d nodes in %.4f s; slowest %.4f s; most ILP work %ld; largest region %d bindings\n",
                rep.regions, rep.ilp_regions, rep.ilp_best_so_far, rep.greedy_regions, rep.ilp_out_of_work, rep.merged_kernels,
                rep.largest_ilp_nodes, rep.largest_ilp_s, rep.max_ilp_s, rep.max_ilp_work, rep.largest_region);
    return check_built(a, in, f, "fused λcu") ? f : NULL;
}

static bool emits_schedule(const Options *o) { return o->emit == EMIT_PDG || o->emit == EMIT_ILP; }

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
        if (!check_built(a, in, k, "kernel-formed λcu") || !(k = optimize(a, in, k, o, out))) {
            st = 3;
        } else if (emits_schedule(o)) {
            st = 0;
        } else if (o->emit == EMIT_LCU) {
            lcu_print(out, k);
            st = 0;
        } else {
            LcuStats stats = { 0 };
            fflush(out);
            stats.per_kernel = o->stats_kernels;
            st = lcu_interp_status(k, out, stderr, &stats);
            if (o->stats) lcu_print_stats(out, &stats);
            lcu_stats_free(&stats);
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
        if (!check_built(a, in, k, "kernel-formed λcu") || !(k = optimize(a, in, k, o, out))) st = 3;
        else if (o->emit == EMIT_C) st = cgen_emit_c(out, stderr, k, src->name, NULL, o->float32) ? 0 : 1;
        else if (o->emit == EMIT_CUDA) st = cgen_emit_cuda(out, stderr, k, src->name, NULL, o->float32, !o->no_tail) ? 0 : 1;
        else {
            CgenBuildOptions bo = { o->output, o->keep, !o->no_openmp, target_is_cuda(o), o->arch, NULL, o->float32, o->no_tail };
            st = cgen_build(k, src->name, &bo, stderr);
        }
    }
    interner_free(in);
    arena_free(a);
    return st;
}

/* A NESL program through flattening: --emit=flan, --emit=lcu, --interp=lcu,
 * and the back ends (--emit=c, --emit=cuda, -o PROG). */
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
    if (o->opt_level > 0) lcu_inline_index_maps(c->arena, c->names, fp->flan);
    LcuProgram *k = lcu_form_kernels(c->arena, c->names, fp->flan);
    if (!check_built(c->arena, c->names, k, "kernel-formed λcu")) return 3;
    if (!(k = optimize(c->arena, c->names, k, o, out))) return 3;
    if (emits_schedule(o)) return 0;
    lcu_prune_dead(c->arena, k);   /* sizes and lengths only inlined MAPs read */
    if (o->emit == EMIT_LCU) {
        lcu_print(out, k);
        return 0;
    }
    if (o->emit == EMIT_C || o->emit == EMIT_CUDA || builds_exe(o)) {
        CgenNesl *top = nesl_c_top(c, m, fp, o->print_length);
        if (o->emit == EMIT_C) return cgen_emit_c(out, stderr, k, o->input, top, o->float32) ? 0 : 1;
        if (o->emit == EMIT_CUDA) return cgen_emit_cuda(out, stderr, k, o->input, top, o->float32, !o->no_tail) ? 0 : 1;
        CgenBuildOptions bo = { o->output, o->keep, !o->no_openmp, target_is_cuda(o), o->arch, top, o->float32, o->no_tail };
        return cgen_build(k, o->input, &bo, stderr);
    }
    InterpOptions io = { out, stderr, o->print_length };
    LcuStats stats = { 0 };
    stats.per_kernel = o->stats_kernels;
    fflush(stderr);
    int failures = run_flat_program(c, m, fp, k, &io, &stats);
    if (o->stats) lcu_print_stats(out, &stats);
    lcu_stats_free(&stats);
    return failures < 0 ? 3 : failures ? 1 : 0;
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
        if (o.emit != EMIT_NONE && o.emit != EMIT_LCU && o.emit != EMIT_C && o.emit != EMIT_CUDA && !emits_schedule(&o)) {
            fprintf(stderr, "nesslc: error: a .lcu file supports only --emit=lcu, --emit=c, --emit=cuda, --emit=pdg, --emit=ilp and --interp=lcu\n");
        }
        int st = 1;
        if (o.emit == EMIT_C || o.emit == EMIT_CUDA || builds_exe(&o)) {
            st = drive_lcu_c(&src, out, &diag, &o);
        } else if (emits_schedule(&o)) {
            st = drive_lcu_formed(&src, out, &diag, &o);
        } else if (o.emit == EMIT_NONE || o.emit == EMIT_LCU) {
            if (o.form_kernels) {
                st = drive_lcu_formed(&src, out, &diag, &o);
            } else {
                LcuDriveOptions lo = { o.emit == EMIT_LCU, !o.emit, o.stats, o.stats_kernels };
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
    if (o.emit == EMIT_FLAN || o.emit == EMIT_LCU || emits_schedule(&o) || o.interp_lcu || o.emit == EMIT_C || o.emit == EMIT_CUDA || builds_exe(&o)) {
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
