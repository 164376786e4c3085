/* test_sd_parts_wrong.c — the promises of sum_sd, zip_sd and filter_sd
 * (lcu.h) broken in a compiled program are an internal error of nesslc
 * (exit status 3, "please report this bug"), never a wrong descriptor:
 * sum_sd (a, b) or zip_sd (a, b) of descriptors with different segment
 * counts, and filter_sd (s, kept) of kept positions that do not ascend
 * within s (the C and CUDA runtimes; the CUDA one checks kept on the
 * device, in k_filter_sd).  The CUDA programs run only where a GPU is
 * visible (/dev/nvidia0), as in test_kept_wrong.c.
 * The interpreter's checks are tests/lcu/err_sum_sd, err_zip_sd and
 * err_filter_sd.  Uses $NESSLC (the harness sets it).  Exit status 0 iff
 * every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>
#include "unit_shell.h"

typedef struct Case {
    const char *name;
    const char *body;   /* main's bindings; it returns lengths (r) */
    const char *msg;    /* the whole line on stderr, after "nesslc: internal error: " */
} Case;

static const Case cases[] = {
    { "sum_counts", "  let a : sd = make_sd ([2, 0, 1])\n  let b : sd = make_sd ([1, 3])\n  let r : sd = sum_sd (a, b)\n",
      "sum_sd of descriptors of 3 and 2 segments" },
    { "zip_counts", "  let a : sd = make_sd ([1, 3])\n  let b : sd = make_sd ([2, 0, 1])\n  let r : sd = zip_sd (a, b)\n",
      "zip_sd of descriptors of 2 and 3 segments" },
    { "filter_order", "  let s : sd = make_sd ([3, 2])\n  let r : sd = filter_sd (s, [0, 4, 2])\n",
      "filter_sd: kept position 2 (element 2) is not ascending within the descriptor" },
    { "filter_range", "  let s : sd = make_sd ([3, 2])\n  let r : sd = filter_sd (s, [1, 5])\n",
      "filter_sd: kept position 5 (element 1) is not ascending within the descriptor" },
    { "filter_negative", "  let s : sd = make_sd ([3, 2])\n  let r : sd = filter_sd (s, [-1, 2])\n",
      "filter_sd: kept position -1 (element 0) is not ascending within the descriptor" },
};

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_sdparts_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    bool gpu = access("/dev/nvidia0", F_OK) == 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const Case *c = &cases[i];
        char text[1024], file[64];
        snprintf(text, sizeof text, "function main () -> [int] {\n%s  return lengths (r)\n}\n", c->body);
        snprintf(file, sizeof file, "%s.lcu", c->name);
        if (!unit_write(dir, file, text)) { fails++; continue; }
        fails += !unit_expect_bug(nesslc, dir, "c", "", c->name, c->msg);
        if (gpu) fails += !unit_expect_bug(nesslc, dir, "cuda", "", c->name, c->msg);
    }
    return unit_finish(dir, "test_sd_parts_wrong", fails);
}
