/* test_block_tail.c — code generation of the block-local tail
 * (cudagen/gen_tail.c, rt/nesl_cuda_bt.cuh): a lifted recursive function
 * gets a device copy of its code, a tail kernel and a dispatcher that its
 * grid version calls first, the copies on no cycle of calls NESL_BT_LEAF;
 * one whose recursion reaches the host (print) gets none, and neither does
 * one that does not recurse; and every runtime call of a device copy
 * (nesl_bt_X) is one that rt/nesl_cuda_bt.cuh or rt/nesl_cuda_bt_soac.cuh
 * defines.  Runs on the machine the compiler is built on (no GPU): what
 * the tail does at run time is tested on the GPU (tests/check_gpu.sh). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cudagen/cudagen.h"
#include "../../driver/nesl_c.h"
#include "../../flatten/flatten.h"
#include "../../fusion/fusion.h"

static int fails;

static void expect(const char *what, bool ok)
{
    if (ok) return;
    printf("FAIL: %s\n", what);
    fails++;
}

/* The CUDA program of src (malloc'd), or NULL. */
static char *emit_cuda(const char *name, const char *src, bool tail)
{
    Diag diag;
    diag_init(&diag, stderr);
    Compilation *c = compilation_new(&diag);
    Source s = { name, src, strlen(src) };
    Program *pr = parse_program(c, &s);
    MonoProgram *m = pr && check_program(c, pr) ? monomorphize(c, pr) : NULL;
    FlatProgram *fp = m && !diag.nerrors ? flatten_program(c, m) : NULL;
    if (!fp || diag.nerrors) {
        printf("FAIL: %s does not flatten\n", name);
        fails++;
        compilation_free(c);
        return NULL;
    }
    LcuProgram *k = lcu_verify_built(c->arena, c->names, fp->flan, "Flan", stdout) ? lcu_form_kernels(c->arena, c->names, fp->flan) : NULL;
    FusionOptions fo = { 0 };
    FusionReport rep;
    LcuProgram *f = k && lcu_verify_built(c->arena, c->names, k, "λcu", stdout) ? fusion_program(c->arena, c->names, k, &fo, &rep) : NULL;
    if (!f || !lcu_verify_built(c->arena, c->names, f, "fused λcu", stdout)) {
        printf("FAIL: %s: no checked λcu program\n", name);
        fails++;
        compilation_free(c);
        return NULL;
    }
    CgenNesl *top = nesl_c_top(c, m, fp, 100);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    bool ok = out && cgen_emit_cuda(out, stderr, f, name, top, false, tail);
    if (out) fclose(out);
    compilation_free(c);
    if (!ok) {
        printf("FAIL: %s: no CUDA program\n", name);
        fails++;
        free(text);
        return NULL;
    }
    return text;
}

/* Is nesl_bt_NAME (NAME at s) defined by the header text hdr? */
static bool defined_in(const char *hdr, const char *name, size_t n)
{
    for (const char *p = hdr; (p = strstr(p, name)); p += n) {
        if (isalnum((unsigned char)p[n]) || p[n] == '_') continue;
        const char *q = p + n;
        while (*q == ' ') q++;
        if (*q != '(') continue;
        /* a device definition, or a prototype of the host's side (rt_cuda_bt.cu) */
        const char *line = p;
        while (line > hdr && line[-1] != '\n') line--;
        if (!strncmp(line, "static __device__", 17) || !strncmp(line, "template", 8) || !strncmp(line, "bool ", 5) ||
            !strncmp(line, "void ", 5))
            return true;
    }
    return false;
}

static const char *qsort_prog =
    "function qs(a) : [int] -> [int] =\n"
    "  if #a < 2 then a\n"
    "  else let p = a[#a / 2];\n"
    "           r = {qs(v) : v in [{x in a | x < p}, {x in a | x > p}]}\n"
    "       in r[0] ++ {x in a | x == p} ++ r[1];\n"
    "qs([5, 3, 9, 1, 7, 3, 8]);\n";

static const char *print_prog =
    "function down(n) : int -> int =\n"
    "  if n <= 0 then 0 else let x = print_string(\"x\") in 1 + sum({down(n - i) : i in [1:3]});\n"
    "down(3);\n";

/* walk's recursion calls digits, a recursion of its own: digits's copy is
 * on a cycle, so it must stay a call, not a leaf */
static const char *helper_prog =
    "function digits(x) = if x < 10 then 1 else 1 + digits(x / 10);\n"
    "function walk(x, k) : (int, int) -> int =\n"
    "  if k >= 6 then x else walk(x + digits(x), k + 1);\n"
    "{walk(x, 0) : x in [1, 95, 999, 123456]};\n";

static const char *flat_prog =
    "function sq(a) : [int] -> int = sum({x * x : x in a});\n"
    "{sq(a) : a in [[1, 2], [3]]};\n";

int main(void)
{
    size_t l1 = 0, l2 = 0;
    char *h1 = read_file("rt/nesl_cuda_bt.cuh", &l1), *h2 = read_file("rt/nesl_cuda_bt_soac.cuh", &l2);
    expect("rt/nesl_cuda_bt*.cuh readable (run from the repository root)", h1 && h2);
    char *hdr = h1 && h2 ? malloc(l1 + l2 + 2) : NULL;
    if (hdr) snprintf(hdr, l1 + l2 + 2, "%s\n%s", h1, h2);
    free(h1);
    free(h2);

    char *q0 = emit_cuda("qs.nesl", qsort_prog, false);   /* -fno-block-tail */
    if (q0) {
        expect("quicksort, -fno-block-tail: no tail kernel", strstr(q0, "_btk(") == NULL && strstr(q0, "nesl_bt_") == NULL);
        free(q0);
    }
    char *q = emit_cuda("qs.nesl", qsort_prog, true);
    if (q) {
        expect("quicksort: a tail kernel", strstr(q, "_btk(const NeslBtLaunch L)") != NULL);
        expect("quicksort: a dispatcher", strstr(q, "_btd(NeslRt *rt") != NULL);
        expect("quicksort: the device copy of the lifted function", strstr(q, "__device__ __noinline__ static") != NULL);
        expect("quicksort: the grid function tries the tail first", strstr(q, "_btd(rt, ") != NULL);
        /* the recursion stays calls; the kernels' copies, which never come
         * back to it, are NESL_BT_LEAF (defined by the header) */
        expect("quicksort: the kernels' copies are leaves", strstr(q, "__device__ NESL_BT_LEAF static") != NULL);
        expect("rt/nesl_cuda_bt.cuh defines NESL_BT_LEAF", hdr && strstr(hdr, "#define NESL_BT_LEAF") != NULL);
        for (const char *l = q; (l = strstr(l, "__device__ __noinline__ static")); l++) {
            const char *eol = strchr(l, '\n');
            size_t n = eol ? (size_t)(eol - l) : strlen(l);
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)n, l);
            if (!strstr(line, "_f_bt(")) {
                printf("FAIL: quicksort: a copy outside the recursion is not a leaf: %.120s\n", line);
                fails++;
            }
        }
        /* every nesl_bt_ call of the program is defined by the header */
        int calls = 0;
        for (const char *p = q; hdr && (p = strstr(p, "nesl_bt_")); p++) {
            if (p > q && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
            size_t n = 8;
            while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
            char name[96];
            snprintf(name, sizeof name, "%.*s", (int)n, p);
            if (!strcmp(name, "nesl_bt_")) continue;
            calls++;
            if (!defined_in(hdr, name, n)) {
                printf("FAIL: %s is called but not defined by rt/nesl_cuda_bt*.cuh\n", name);
                fails++;
            }
        }
        expect("quicksort: the device copy calls the tail's runtime", calls > 20);
        free(q);
    }

    char *h = emit_cuda("helper.nesl", helper_prog, true);
    if (h) {
        expect("a recursion calling a recursive helper: a tail", strstr(h, "_btk(const NeslBtLaunch L)") != NULL);
        const char *d = strstr(h, " static NeslVec *fl_digits_");
        bool seen = false;
        for (; d; d = strstr(d + 1, " static NeslVec *fl_digits_")) {
            const char *line = d;
            while (line > h && line[-1] != '\n') line--;
            seen = true;
            expect("the recursive helper's copy stays a call", !strncmp(line, "__device__ __noinline__", 23));
        }
        expect("the recursive helper has a device copy", seen);
        free(h);
    }
    char *p = emit_cuda("print.nesl", print_prog, true);
    if (p) {
        expect("a recursion that prints: no tail", strstr(p, "_btk(") == NULL);
        free(p);
    }
    char *f = emit_cuda("flat.nesl", flat_prog, true);
    if (f) {
        expect("a lifted function that does not recurse: no tail", strstr(f, "_btk(") == NULL);
        free(f);
    }
    free(hdr);
    if (fails) return 1;
    printf("PASS: test_block_tail\n");
    return 0;
}
