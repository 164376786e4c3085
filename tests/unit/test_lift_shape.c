/* test_lift_shape.c — the nesting of a lifted function's flat parameters
 * and results (LcuFun.lift, lcu.h; flat_layout_parents, flatten.h).
 * Flattens a program whose g gets a lifted version g^ (n, L(([[int]],
 * (float, [bool])))) -> L(([int], float)) and checks its shape against the
 * table of flatten.h by hand; that every lifted function version and no
 * other function has a shape, which kernel formation and fusion keep; that
 * the program runs on the λcu interpreter (which checks the shape at every
 * call of a lifted function); and that a wrong shape is an internal error
 * there, for a parameter and for a result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../flatten/flatten.h"
#include "../../fusion/fusion.h"
#include "../../interp/run_flat.h"

static int fails;

static void expect(const char *what, long got, long want)
{
    if (got == want) return;
    printf("FAIL: %s: %ld, expected %ld\n", what, got, want);
    fails++;
}

/* h keeps g from being inlined (a leaf calls no user function); the data
 * gives each count a different value: n = 3, total(s1) = 6, total(s2) = 7. */
static const char *prog =
    "function h(x) = x + 1.0;\n"
    "function g(a, (x, bs)) : ([[int]], (float, [bool])) -> ([int], float) =\n"
    "  ({sum(s) : s in a}, h(x + float(#bs)));\n"
    "r = {g(a, p) : a in [[[1, 2], [3]], [[4]], [[5], [6], [7]]];\n"
    "               p in [(1.5, [t, f]), (2.0, [] bool), (0.5, [t])]};\n";

static const char *want_out =
    "h = fn : float -> float\n"
    "g = fn : ([[int]], float, [bool]) -> ([int], float)\n"
    "r = [([3, 3], 4.5), ([4], 3.0), ([5, 6, 7], 2.5)] : [([int], float)]\n";

/*   param  0 n      1 sd ([[int]])  2 sd ([int])  3 [int]  4 [float]  5 sd ([bool])  6 [bool]
 *   result 0 sd ([int])  1 [int]  2 [float] */
enum { U = LCU_LIFT_UNIFORM, O = LCU_LIFT_OUTER };
static const int want_params[] = { U, O, 1, 2, O, O, 5 };
static const int want_res[] = { O, 0, O };

static LcuFun *find_fun(const LcuProgram *p, const char *prefix)
{
    for (int i = 0; i < p->nfuns; i++)
        if (!strncmp(p->funs[i]->name, prefix, strlen(prefix))) return p->funs[i];
    return NULL;
}

static void check_g(const char *stage, const LcuProgram *p)
{
    char what[128];
    LcuFun *g = find_fun(p, "fl_g_");
    snprintf(what, sizeof what, "%s: a lifted g with a shape", stage);
    expect(what, g && g->lift, 1);
    if (!g || !g->lift) return;
    const LcuLiftShape *sh = g->lift;
    snprintf(what, sizeof what, "%s: g^'s parameters", stage);
    expect(what, sh->nparams, 7);
    expect(what, g->nparams, 7);
    for (int i = 0; i < sh->nparams && i < 7; i++) {
        snprintf(what, sizeof what, "%s: g^'s parameter %d's parent", stage, i);
        expect(what, sh->param_parent[i], want_params[i]);
    }
    snprintf(what, sizeof what, "%s: g^'s results", stage);
    expect(what, sh->nres, 3);
    for (int i = 0; i < sh->nres && i < 3; i++) {
        snprintf(what, sizeof what, "%s: g^'s result %d's parent", stage, i);
        expect(what, sh->res_parent[i], want_res[i]);
    }
}

/* Every function named fl_ (a lifted version) has a shape of its
 * parameters and results, no other function has one. */
static void check_all(const char *stage, const LcuProgram *p)
{
    char what[256];
    for (int i = 0; i < p->nfuns; i++) {
        const LcuFun *f = p->funs[i];
        bool lifted = !strncmp(f->name, "fl_", 3);
        snprintf(what, sizeof what, "%s: %s has a shape", stage, f->name);
        expect(what, f->lift != NULL, lifted);
        if (!lifted || !f->lift) continue;
        snprintf(what, sizeof what, "%s: %s's shape's parameters", stage, f->name);
        expect(what, f->lift->nparams, f->nparams);
        snprintf(what, sizeof what, "%s: %s's shape's results", stage, f->name);
        expect(what, f->lift->nres, lcu_t_arity(f->result));
        snprintf(what, sizeof what, "%s: %s's parameter 0 (n)", stage, f->name);
        expect(what, f->lift->param_parent[0], LCU_LIFT_UNIFORM);
    }
}

/* Runs p (checked) as --interp=lcu does; the status (run_flat_program's)
 * and the output and errors in *out and *err (malloc'd). */
static int run(Compilation *c, MonoProgram *m, FlatProgram *fp, LcuProgram *p, char **out, char **err)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe) { perror("tmpfile"); exit(1); }
    InterpOptions io = { fo, fe, 100 };
    LcuStats stats = { 0 };
    int st = run_flat_program(c, m, fp, p, &io, &stats);
    lcu_stats_free(&stats);
    FILE *fs[2] = { fo, fe };
    char **texts[2] = { out, err };
    for (int i = 0; i < 2; i++) {
        long n = ftell(fs[i]);
        rewind(fs[i]);
        *texts[i] = calloc((size_t)n + 1, 1);
        if (fread(*texts[i], 1, (size_t)n, fs[i]) != (size_t)n) { perror("fread"); exit(1); }
        fclose(fs[i]);
    }
    return st;
}

/* The program with g^'s shape replaced (params and res of their sizes)
 * fails with an internal error naming `message`. */
static void expect_internal(Compilation *c, MonoProgram *m, FlatProgram *fp, LcuProgram *p,
                            const int *params, const int *res, const char *message)
{
    LcuFun *g = find_fun(p, "fl_g_");
    if (!g || !g->lift) return;
    const LcuLiftShape *right = g->lift;
    LcuLiftShape wrong = { 7, params, 3, res };
    g->lift = &wrong;
    char *out, *err;
    int st = run(c, m, fp, p, &out, &err);
    g->lift = right;
    char want[256];
    snprintf(want, sizeof want, "nesslc: internal error: λcu interpreter: lifted function %s: %s", g->name, message);
    expect(message, st, -1);
    if (!strstr(err, want)) {
        printf("FAIL: no \"%s\" in:\n%s", want, err);
        fails++;
    }
    free(out);
    free(err);
}

int main(void)
{
    Diag diag;
    diag_init(&diag, stderr);
    Compilation *c = compilation_new(&diag);
    Source src = { "lift_shape.nesl", prog, strlen(prog) };
    Program *pr = parse_program(c, &src);
    MonoProgram *m = pr && check_program(c, pr) ? monomorphize(c, pr) : NULL;
    FlatProgram *fp = m && !diag.nerrors ? flatten_program(c, m) : NULL;
    if (!fp || diag.nerrors) {
        printf("FAIL: the program does not flatten\n");
        return 1;
    }
    Arena *a = c->arena;
    check_g("Flan", fp->flan);
    check_all("Flan", fp->flan);
    if (!lcu_verify_built(a, c->names, fp->flan, "Flan", stdout)) return 1;
    LcuProgram *k = lcu_form_kernels(a, c->names, fp->flan);
    if (!lcu_verify_built(a, c->names, k, "kernel-formed λcu", stdout)) return 1;
    check_g("kernels", k);
    check_all("kernels", k);
    FusionOptions fo = { 0 };
    FusionReport rep;
    LcuProgram *f = fusion_program(a, c->names, k, &fo, &rep);
    if (!lcu_verify_built(a, c->names, f, "fused λcu", stdout)) return 1;
    check_g("fused", f);
    check_all("fused", f);

    char *out, *err;
    expect("the run's status", run(c, m, fp, f, &out, &err), 0);
    if (strcmp(out, want_out) || *err) {
        printf("FAIL: the run printed\n%s%s", out, err);
        fails++;
    }
    free(out);
    free(err);

    /* v3 (7 elements) said to count total(s1) = 6; the float result said
     * to count the elements of the result's sd (6), not n = 3 */
    static const int param3_wrong[] = { U, O, 1, 1, O, O, 5 };
    expect_internal(c, m, fp, f, param3_wrong, want_res, "parameter 3 has length 7, not the count 6 its shape says");
    static const int res2_wrong[] = { O, 0, 0 };
    expect_internal(c, m, fp, f, want_params, res2_wrong, "result 2 has length 3, not the count 6 its shape says");

    compilation_free(c);
    if (fails) return 1;
    printf("PASS: test_lift_shape\n");
    return 0;
}
