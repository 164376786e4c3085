/* test_make_sd_total.c — make_sd (lens, total) with a total its lengths do
 * not add up to is an internal error of nesslc (exit status 3, "please
 * report this bug") in the compiled program too, not a wrong descriptor:
 * the C runtime checks it at the call; the CUDA runtime when a wait
 * settles the scan's total, which this runs only where a GPU is visible
 * (/dev/nvidia0; tests/check_gpu.sh's machine).  The interpreter's check is
 * tests/lcu/err_make_sd_total.  Uses $NESSLC (the harness sets it).
 * Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>
#include "unit_shell.h"

static const char *prog =
    "function main () -> int {\n"
    "  let l : [int] = [1, 2]\n"
    "  let s : sd = make_sd (l, 4)\n"
    "  return total (s)\n"
    "}\n";

static int fails;

static const char *what = "a descriptor's lengths add up to 3, not the total 4 the flattener gave";

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_sd_total_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    if (!unit_write(dir, "z.lcu", prog)) return 1;
    fails += !unit_expect_bug(nesslc, dir, "c", "-O0", "z", what);
    if (access("/dev/nvidia0", F_OK) == 0) fails += !unit_expect_bug(nesslc, dir, "cuda", "-O0", "z", what);
    return unit_finish(dir, "test_make_sd_total", fails);
}
