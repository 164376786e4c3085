/* cgen.c — the back ends' entry points: a whole program to one C
 * translation unit (cgen_emit_c) or CUDA C++ one (cgen_emit_cuda), and to
 * an executable (cgen_build).  C: the generated C, with the runtime's
 * headers (embedded in nesslc) in a temporary directory, compiled by the
 * configured C compiler and linked with the prebuilt CPU runtime library
 * libnesl_rt_cpu.a (compile()).  CUDA: the generated .cu and the runtime headers compiled by
 * nvcc and linked with the prebuilt runtime library libnesl_rt_cuda.a,
 * found relative to the nesslc executable (find_rtlib). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cudagen.h"

/* build/gen/rt_text.c (rt/embed.sh): the runtime's files. */
extern const int nesl_rt_nfiles;
extern const char *const nesl_rt_names[];
extern const char *const nesl_rt_texts[];

#ifndef NESSLC_CC
#define NESSLC_CC "cc"
#endif
#ifndef NESSLC_CGEN_CFLAGS
#define NESSLC_CGEN_CFLAGS "-O2 -std=c11"
#endif
#ifndef NESSLC_OPENMP_CFLAGS
#define NESSLC_OPENMP_CFLAGS ""
#endif
#ifndef NESSLC_NVCC
#define NESSLC_NVCC ""
#endif

static const char *put_fn(const Gen *g, const LcuType *t)
{
    switch (t->kind) {
    case LT_VEC: case LT_REF: return "nesl_put_vec";
    case LT_SD: return "nesl_put_sd";
    case LT_BASE:
        switch (t->base) {
        case LB_BOOL: return "nesl_put_bool";
        case LB_INT: return "nesl_put_int";
        case LB_FLOAT: return g->f32 ? "nesl_put_float32" : "nesl_put_float";
        case LB_CHAR: return "nesl_put_char";
        case LB_UNIT: return "nesl_put_unit";
        }
        break;
    case LT_TUPLE: break;
    }
    ICE("put_fn");
}

/* int main: run main_f and print each component of its result on a line. */
static void gen_main(Gen *g, const LcuFun *m)
{
    Arena *a = g->a;
    CFunc *f = arena_alloc(a, sizeof *f);
    f->ret = "int";
    f->name = "main";
    f->nparams = 2;
    f->params = arena_alloc(a, sizeof *f->params * 2);
    f->params[0] = (CParam){ "int", "argc" };
    f->params[1] = (CParam){ "char **", "argv" };
    f->body = cb_new(a);
    CExpr *rt = cx_name(a, "rt");
    cs_decl(a, f->body, "NeslRt *", "rt", cx_calln(a, "nesl_rt_new", 4, cx_name(a, "argc"), cx_name(a, "argv"),
                                                     cx_int(a, g->prog->nsites), cx_name(a, "site_texts")));
    if (g->f32) cs_expr(a, f->body, cx_calln(a, "nesl_set_float32", 1, rt));
    char sn[96];
    snprintf(sn, sizeof sn, "%s_fr", m->name);
    const char *rtype = gen_result_type(g, m->result, arena_strndup(a, sn, strlen(sn)));
    /* --repeat=R: R runs, the first R - 1 with their results freed */
    const char *fname = gen_fun_name(g, m->name);
    CExpr *repeat = cx_calln(a, "nesl_repeat", 1, rt);
    cs_decl(a, f->body, "int", "runs", cx_cond(a, cx_bin(a, CB_GT, repeat, cx_int(a, 0)), repeat, cx_int(a, 1)));
    /* host memory: nesl_tmp is device memory on the GPU target */
    cs_decl(a, f->body, "double *", "ms", cx_cast(a, "double *", cx_calln(a, "calloc", 2, cx_cast(a, "size_t", cx_name(a, "runs")),
                                                                        cx_sizeof(a, "double"))));
    cs_decl(a, f->body, "size_t", "mark", cx_calln(a, "nesl_mark", 1, rt));
    CBlock *warm = cb_new(a);
    cs_expr(a, warm, cx_calln(a, "nesl_timer_start", 1, rt));
    cs_expr(a, warm, cx_cast(a, "void", cx_calln(a, fname, 1, rt)));
    CExpr *elapsed = cx_calln(a, "nesl_timer_stop", 2, rt, cx_name(a, "NULL"));
    cs_assign(a, warm, cx_index(a, cx_name(a, "ms"), cx_name(a, "run")), elapsed);
    cs_expr(a, warm, cx_calln(a, "nesl_release", 3, rt, cx_name(a, "mark"), cx_int(a, 0)));
    cs_for(a, f->body, "run", cx_int(a, 0), cx_bin(a, CB_SUB, cx_name(a, "runs"), cx_int(a, 1)), warm);
    cs_expr(a, f->body, cx_calln(a, "nesl_timer_start", 1, rt));
    cs_decl(a, f->body, rtype, "result", cx_calln(a, fname, 1, rt));
    cs_assign(a, f->body, cx_index(a, cx_name(a, "ms"), cx_bin(a, CB_SUB, cx_name(a, "runs"), cx_int(a, 1))), elapsed);
    CExpr **c = gen_unpack(g, m->result, cx_name(a, "result"));
    for (int k = 0; k < lcu_t_arity(m->result); k++) {
        cs_expr(a, f->body, cx_calln(a, put_fn(g, lcu_t_component(m->result, k)), 2, rt, c[k]));
        cs_expr(a, f->body, cx_calln(a, "nesl_put_nl", 1, rt));
    }
    CBlock *report = cb_new(a);
    cs_expr(a, report, cx_calln(a, "nesl_report_time", 4, rt, cx_str(a, "main", 4), cx_name(a, "ms"), cx_name(a, "runs")));
    cs_if(a, f->body, cx_bin(a, CB_GT, repeat, cx_int(a, 0)), report, NULL);
    cs_expr(a, f->body, cx_calln(a, "free", 1, cx_name(a, "ms")));
    cs_return(a, f->body, cx_calln(a, "nesl_rt_free", 1, rt));
    ptrvec_push(a, &g->unit->funcs, f);
}

/* ---- what main reaches: only those functions are emitted (and the
 * kernels they run, made where they are run: gen_kernel) ---- */
typedef struct Reach { const LcuProgram *p; bool *fun; } Reach;

static void reach_fun(Reach *r, const LcuFun *f);

static void reach_expr(Reach *r, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN:
    case LE_STRING: case LE_SOAC:
        return;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) reach_expr(r, e->u.tuple.elems[i]);
        return;
    case LE_LET: case LE_LOOP: reach_expr(r, e->u.let.bind->rhs); reach_expr(r, e->u.let.body); return;
    case LE_IF: reach_expr(r, e->u.if_.cond); reach_expr(r, e->u.if_.then_e); reach_expr(r, e->u.if_.else_e); return;
    case LE_BINOP: reach_expr(r, e->u.bin.l); reach_expr(r, e->u.bin.r); return;
    case LE_UNOP: reach_expr(r, e->u.un.e); return;
    case LE_INDEX: reach_expr(r, e->u.index.idx); return;
    case LE_LIB:
        for (int i = 0; i < e->u.lib.nargs; i++) reach_expr(r, e->u.lib.args[i]);
        return;
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) reach_expr(r, e->u.block.binds[i]->rhs);
        reach_expr(r, e->u.block.result);
        return;
    case LE_RUN: case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) reach_expr(r, e->u.call.args[i]);
        for (int i = 0; e->kind == LE_CALL && i < r->p->nfuns; i++)   /* a run's kernel is made where it is run */
            if (r->p->funs[i]->name == e->u.call.name) reach_fun(r, r->p->funs[i]);
        return;
    }
}

static void reach_fun(Reach *r, const LcuFun *f)
{
    for (int i = 0; i < r->p->nfuns; i++)
        if (r->p->funs[i] == f) {
            if (r->fun[i]) return;
            r->fun[i] = true;
        }
    reach_expr(r, f->body);
}

static bool emit(FILE *out, FILE *err, const LcuProgram *p, const char *srcname, const Skeletons *sk, const CgenNesl *nesl,
                 bool float32, bool tail)
{
    const LcuFun *m = NULL;
    for (int i = 0; i < p->nfuns; i++)
        if (!strcmp(p->funs[i]->name, "main")) m = p->funs[i];
    if (!nesl && !m) { fprintf(err, "nesslc: error: no function 'main' to run\n"); return false; }
    if (!nesl && m->nparams) { fprintf(err, "nesslc: error: 'main' must take no parameters\n"); return false; }
    Arena *a = arena_new();
    CUnit *u = arena_alloc(a, sizeof *u);
    Gen g = { a, p, sk, u, err, 0, 0, NULL, nesl, float32, NULL, NULL, NULL };
    gen_kernel_uses(&g);
    char c[300];
    snprintf(c, sizeof c, "Generated by nesslc from %.200s; do not edit.", srcname);
    for (char *s = c; (s = strstr(s, "*/")); ) s[0] = '_';   /* the comment must not end early */
    u->comment = arena_strndup(a, c, strlen(c));
    ptrvec_push(a, &u->includes, "\"nesl_rt.h\"");
    if (sk->device) ptrvec_push(a, &u->includes, "\"nesl_cuda.cuh\"");
    CTable *sites = arena_alloc(a, sizeof *sites);
    sites->name = "site_texts";
    sites->n = p->nsites;
    sites->strs = (const char **)p->sites;
    ptrvec_push(a, &u->tables, sites);
    Reach r = { p, arena_alloc(a, sizeof(bool) * (size_t)(p->nfuns + 1)) };
    if (nesl) {
        for (int i = 0; i < nesl->nforms; i++)
            for (int j = 0; !nesl->forms[i].text && j < p->nfuns; j++)
                if (!strcmp(p->funs[j]->name, nesl->forms[i].fun)) reach_fun(&r, p->funs[j]);
    } else {
        reach_fun(&r, m);
    }
    for (int i = 0; i < p->nfuns; i++)   /* kernels are made where they are run */
        if (r.fun[i]) gen_function(&g, p->funs[i]);
    if (sk->device && tail) gen_tails(&g);
    if (nesl) gen_nesl_main(&g);
    else gen_main(&g, m);
    for (int i = 0; i < u->funcs.len; i++) cfunc_mark_unused(a, u->funcs.items[i]);
    bool ok = g.nerrors == 0;
    if (ok) cunit_print(out, u);
    arena_free(a);
    return ok;
}

bool cgen_emit_c(FILE *out, FILE *err, const LcuProgram *p, const char *srcname, const CgenNesl *nesl, bool float32)
{
    return emit(out, err, p, srcname, cgen_c_skeletons(), nesl, float32, false);
}

bool cgen_emit_cuda(FILE *out, FILE *err, const LcuProgram *p, const char *srcname, const CgenNesl *nesl, bool float32, bool tail)
{
    return emit(out, err, p, srcname, cgen_cuda_skeletons(), nesl, float32, tail);
}

/* ---- building ---- */
static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) ICE("out of memory");
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool write_text(const char *path, const char *text, FILE *err)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(err, "nesslc: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

/* Split s on blanks into argv (appended at *n). */
static void add_words(char **argv, int *n, int max, char *s)
{
    for (char *w = strtok(s, " \t"); w && *n < max; w = strtok(NULL, " \t")) argv[(*n)++] = w;
}

static int run_cc(char **argv, FILE *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { fprintf(err, "nesslc: error: cannot run the C compiler: %s\n", strerror(errno)); return -1; }
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "nesslc: error: cannot run the C compiler '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static char *find_rtlib(const char *libname);

/* C: the generated program linked with the prebuilt CPU runtime library
 * (libnesl_rt_cpu.a, or libnesl_rt_cpu_seq.a without OpenMP) found like
 * the CUDA one.  When NESSLC_CC or NESSLC_CFLAGS changes the compiler or
 * its flags, or no library is found, the runtime's sources (written to dir)
 * are compiled with the program instead, as the library was built with
 * the configured ones. */
static int compile(const char *dir, const char *csrc, const CgenBuildOptions *o, FILE *err)
{
    const char *cc = getenv("NESSLC_CC"), *cflags = getenv("NESSLC_CFLAGS");
    const char *libname = o->openmp ? "nesl_rt_cpu" : "nesl_rt_cpu_seq";
    char libfile[64], lflag[4200], lname[80];
    snprintf(libfile, sizeof libfile, "lib%s.a", libname);
    char *libdir = (cc && *cc) || cflags ? NULL : find_rtlib(libfile);
    char *ccs = strdup(cc && *cc ? cc : NESSLC_CC);
    char *fls = strdup(cflags ? cflags : NESSLC_CGEN_CFLAGS);
    char *omp = strdup(o->openmp ? NESSLC_OPENMP_CFLAGS : "");
    enum { MAX = 128 };
    char *argv[MAX + 1];
    int n = 0;
    char **paths = calloc((size_t)nesl_rt_nfiles + 1, sizeof *paths);
    add_words(argv, &n, MAX - 8 - nesl_rt_nfiles, ccs);
    add_words(argv, &n, MAX - 8 - nesl_rt_nfiles, fls);
    add_words(argv, &n, MAX - 8 - nesl_rt_nfiles, omp);
    argv[n++] = "-I";
    argv[n++] = (char *)dir;
    argv[n++] = "-o";
    argv[n++] = (char *)o->output;
    argv[n++] = (char *)csrc;
    if (libdir) {
        snprintf(lflag, sizeof lflag, "-L%s", libdir);
        snprintf(lname, sizeof lname, "-l%s", libname);
        argv[n++] = lflag;
        argv[n++] = lname;
    } else {
        for (int i = 0; i < nesl_rt_nfiles; i++) {
            size_t len = strlen(nesl_rt_names[i]);
            if (len > 2 && !strcmp(nesl_rt_names[i] + len - 2, ".c")) argv[n++] = paths[i] = path_join(dir, nesl_rt_names[i]);
        }
    }
    argv[n++] = "-lm";
    argv[n] = NULL;
    int st = run_cc(argv, err);
    if (st > 0 && st != 127) fprintf(err, "nesslc: error: the C compiler '%s' failed (exit status %d)\n", argv[0], st);
    for (int i = 0; i < nesl_rt_nfiles; i++) free(paths[i]);
    free(paths);
    free(libdir);
    free(ccs);
    free(fls);
    free(omp);
    return st == 0 ? 0 : 1;
}

/* A runtime library: $NESSLC_RTLIB_DIR, else next to the nesslc
 * executable as built (EXEDIR/build/lib, EXEDIR/lib for a binary inside a
 * build directory) or installed (EXEDIR/../lib/nesslc). */
static char *find_rtlib(const char *libname)
{
    const char *env = getenv("NESSLC_RTLIB_DIR");
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *cands[4] = { env && *env ? env : NULL, NULL, NULL, NULL };
    char *owned[3] = { NULL, NULL, NULL };
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        owned[0] = path_join(exe, "build/lib");
        owned[1] = path_join(exe, "lib");
        owned[2] = path_join(exe, "../lib/nesslc");
        for (int i = 0; i < 3; i++) cands[1 + i] = owned[i];
    }
    char *found = NULL;
    for (int i = 0; i < 4 && !found; i++) {
        if (!cands[i]) continue;
        char *f = path_join(cands[i], libname);
        if (access(f, R_OK) == 0) found = strdup(cands[i]);
        free(f);
    }
    for (int i = 0; i < 3; i++) free(owned[i]);
    return found;
}

static int compile_cuda(const char *dir, const char *src, const CgenBuildOptions *o, FILE *err)
{
    const char *nv = getenv("NESSLC_NVCC");
    if (!nv || !*nv) nv = NESSLC_NVCC;
    if (!*nv) {
        fprintf(err, "nesslc: error: --target=cuda needs nvcc, which ./configure did not find (reconfigure with --with-cuda=DIR or set NESSLC_NVCC)\n");
        return 1;
    }
    const char *libname = "libnesl_rt_cuda.a";
    char *libdir = find_rtlib(libname);
    if (!libdir) {
        fprintf(err, "nesslc: error: the CUDA runtime library %s was not found next to nesslc (build it with make, or set NESSLC_RTLIB_DIR)\n", libname);
        return 1;
    }
    char arch[64];
    snprintf(arch, sizeof arch, "-arch=%s", o->arch && *o->arch ? o->arch : "sm_90");
    char lflag[4200];
    snprintf(lflag, sizeof lflag, "-L%s", libdir);
    /* Generated code binds every intermediate to a variable; some are then
     * unused (550: set but never used, 177: declared but never referenced). */
    /* -O2: nvcc's -O is the host compiler's level alone (the device code is
     * the same at any -O); -O3 cost about a fifth more host compile time
     * (doc/codegen.md, "Compile time").  NESSLC_NVCCFLAGS replaces it: the
     * CI's compile-only check builds at -O0 throughout, 2.4x faster. */
    const char *nvflags = getenv("NESSLC_NVCCFLAGS");
    char *fls = strdup(nvflags ? nvflags : "-O2");
    enum { MAX = 64 };
    char *argv[MAX + 1];
    int n = 0;
    argv[n++] = (char *)nv;
    add_words(argv, &n, MAX - 16, fls);
    char *fixed[] = { "-std=c++17", arch, "-diag-suppress=550,177", "-I", (char *)dir, "-o", (char *)o->output, (char *)src,
                      lflag, "-lnesl_rt_cuda", "-lm" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) argv[n++] = fixed[i];
    argv[n] = NULL;
    int st = run_cc(argv, err);
    if (st > 0 && st != 127) fprintf(err, "nesslc: error: nvcc '%s' failed (exit status %d)\n", nv, st);
    free(libdir);
    free(fls);
    return st == 0 ? 0 : 1;
}

int cgen_build(const LcuProgram *p, const char *srcname, const CgenBuildOptions *o, FILE *err)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = path_join(tmp && *tmp ? tmp : "/tmp", "nesslc-XXXXXX");
    if (!mkdtemp(dir)) {
        fprintf(err, "nesslc: error: cannot create a temporary directory '%s': %s\n", dir, strerror(errno));
        free(dir);
        return 1;
    }
    int st = 1;
    char *csrc = path_join(dir, o->cuda ? "program.cu" : "program.c");
    bool ok = true;
    for (int i = 0; i < nesl_rt_nfiles && ok; i++) {
        char *f = path_join(dir, nesl_rt_names[i]);
        ok = write_text(f, nesl_rt_texts[i], err);
        free(f);
    }
    FILE *f = ok ? fopen(csrc, "w") : NULL;
    if (ok && !f) fprintf(err, "nesslc: error: cannot write '%s': %s\n", csrc, strerror(errno));
    if (f) {
        bool gen = o->cuda ? cgen_emit_cuda(f, err, p, srcname, o->nesl, o->float32, !o->no_tail)
                           : cgen_emit_c(f, err, p, srcname, o->nesl, o->float32);
        if (fclose(f) != 0) gen = false;
        if (gen) st = o->cuda ? compile_cuda(dir, csrc, o, err) : compile(dir, csrc, o, err);
        if (gen && o->keep) {
            size_t n = strlen(o->output) + 4;
            char *kept = malloc(n);
            snprintf(kept, n, o->cuda ? "%s.cu" : "%s.c", o->output);
            FILE *in = fopen(csrc, "r"), *outf = fopen(kept, "w");
            if (in && outf) {
                char buf[8192];
                size_t r;
                while ((r = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, r, outf);
            } else {
                fprintf(err, "nesslc: error: cannot write '%s': %s\n", kept, strerror(errno));
                st = 1;
            }
            if (in) fclose(in);
            if (outf && fclose(outf) != 0) st = 1;
            free(kept);
        }
    }
    for (int i = 0; i < nesl_rt_nfiles; i++) {
        char *fp = path_join(dir, nesl_rt_names[i]);
        unlink(fp);
        free(fp);
    }
    unlink(csrc);
    rmdir(dir);
    free(csrc);
    free(dir);
    return st;
}
