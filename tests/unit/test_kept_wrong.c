/* test_kept_wrong.c — a FILTER or PARTITION whose kept (e) (lcu.h: the
 * number of elements its predicate keeps, as the flattener knows it) is
 * not what the predicate keeps is an internal error of nesslc (exit status
 * 3, "please report this bug") in the compiled program too, never a wrong
 * result: the C runtime checks the count after the FILTER's scan; the
 * CUDA runtime launches without waiting for the count, sets the lengths
 * from kept, and checks the count when the next wait settles it (a kept
 * outside 0..size at once).  The CUDA programs run only where a GPU is
 * visible (/dev/nvidia0; tests/check_gpu.sh's machine), as in
 * test_make_sd_total.c; elsewhere they are built when nvcc is on the PATH,
 * and the generated CUDA is checked to launch the PARTITION with its kept
 * (nesl_cu_filter_kept), not with the waiting nesl_cu_filter.  The
 * interpreter's check is tests/lcu/err_kept_wrong.  Uses $NESSLC (the
 * harness sets it).  Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>
#include "unit_shell.h"

/* xs = [1, 2, 3]: x > 2 keeps 1 element (the SOAC, then the kept given) */
static const char *prog_fmt =
    "kernel K (xs : [int], nt : int) -> %s {\n"
    "  let %s = %s { i => xs[i] using xs } { x => x > 2 } (#xs) kept (nt)\n"
    "  return %s\n"
    "}\n"
    "function main () -> %s {\n"
    "  let xs : [int] = %s\n"
    "  let %s = run K (xs, %d)\n"
    "  return %s\n"
    "}\n";

typedef struct Case {
    const char *name;
    bool part;       /* PARTITION, else FILTER */
    bool empty;      /* over no elements (a MAP of size 0) instead of [1, 2, 3] */
    int given;
    int real;
} Case;

static const Case cases[] = {
    { "part_less", true, false, 2, 1 },    /* within 0..n: CUDA checks it at the next wait */
    { "part_zero", true, false, 0, 1 },
    { "part_over", true, false, 5, 1 },    /* above n: CUDA at once */
    { "part_empty", true, true, 1, 0 },    /* size 0: nothing launched */
    { "filter_less", false, false, 3, 1 },
};

static int fails;

static void write_case(const char *dir, const Case *c)
{
    char text[2048], file[64];
    const char *t = c->part ? "([int], [int])" : "[int]";
    const char *v = c->part ? "(ys, zs)" : "ys";
    const char *cv = c->part ? "(ys : [int], zs : [int])" : "ys : [int]";
    const char *xs = c->empty ? "MAP { i => i } (0)" : "[1, 2, 3]";
    snprintf(text, sizeof text, prog_fmt, t, v, c->part ? "PARTITION" : "FILTER", v, t, xs, cv, c->given, v);
    snprintf(file, sizeof file, "%s.lcu", c->name);
    if (!unit_write(dir, file, text)) fails++;
}

/* Build with target, run; the run must exit 3 and say why. */
static void check_run(const char *nesslc, const char *dir, const char *target, const Case *c)
{
    char what[200];
    snprintf(what, sizeof what, "a %s kept %d elements, not the %d the flattener gave", c->part ? "PARTITION" : "FILTER", c->real, c->given);
    fails += !unit_expect_bug(nesslc, dir, target, "", c->name, what);
}

/* No GPU: the generated CUDA launches the PARTITION with its kept and
 * never waits for its count; with nvcc, it builds. */
static void check_cuda_code(const char *nesslc, const char *dir, const Case *c)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s --emit=cuda -o %s.cu %s.lcu", dir, nesslc, c->name, c->name);
    if (system(cmd) != 0) {
        printf("FAIL: %s --emit=cuda\n", c->name);
        fails++;
        return;
    }
    snprintf(cmd, sizeof cmd, "grep -c 'nesl_cu_filter_kept<%s>(rt, ' %s/%s.cu", c->part ? "true" : "false", dir, c->name);
    long kept = unit_count(cmd);
    snprintf(cmd, sizeof cmd, "grep -c 'nesl_cu_filter<\\|nesl_cu_filter_later<' %s/%s.cu", dir, c->name);
    long waits = unit_count(cmd);
    if (kept != 1 || waits != 0) {
        printf("FAIL: %s: %ld launches with kept (expected 1), %ld waiting ones (expected 0)\n", c->name, kept, waits);
        fails++;
    }
    if (system("command -v nvcc >/dev/null 2>&1") != 0) return;
    snprintf(cmd, sizeof cmd, "cd %s && %s --target=cuda -o zc_%s %s.lcu >build_cuda_%s.txt 2>&1", dir, nesslc, c->name, c->name, c->name);
    if (system(cmd) != 0) {
        printf("FAIL: %s: the --target=cuda build failed (%s/build_cuda_%s.txt)\n", c->name, dir, c->name);
        fails++;
    }
}

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_kept_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    bool gpu = access("/dev/nvidia0", F_OK) == 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const Case *c = &cases[i];
        write_case(dir, c);
        check_run(nesslc, dir, "c", c);
        if (gpu) check_run(nesslc, dir, "cuda", c);
        else if (i == 0 || !c->part) check_cuda_code(nesslc, dir, c);   /* one of each kind: nvcc is slow */
    }
    return unit_finish(dir, "test_kept_wrong", fails);
}
