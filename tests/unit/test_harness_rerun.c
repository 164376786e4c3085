/* test_harness_rerun.c — tests/run_tests.sh --rerun ENV (modes cuda,
 * cuda0: each executable run again under ENV, its exit status and output
 * equal to the first run's), given once, several times or empty, and
 * tests/check_gpu.sh's default reruns (NESL_BT=16, then NESL_BT=16
 * NESL_BT_HEADERS=4).  No GPU is needed: a stand-in compiler builds, for
 * tests/lang/compare_ops.nesl, an executable that prints the test's
 * expected output, one line more under NESL_BT_HEADERS=4, and exits 1
 * under NESL_BT=7; so a run that the harness should fail differs from the
 * first run in one way only.  Exit status 0 iff every check passes (the
 * scratch directory is kept where one fails). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "unit_shell.h"

/* The stand-in for nesslc: -o OUT and the source (its last argument). */
static const char *standin =
    "#!/bin/sh\n"
    "out= src=\n"
    "while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift 2 ;; *) src=$1; shift ;; esac; done\n"
    "exp=$(cd \"$(dirname \"$src\")\" && pwd)/$(basename \"$src\" .nesl).expected\n"
    "printf '#!/bin/sh\\ncat \"%s\"\\n' \"$exp\" >\"$out\"\n"
    "echo '[ \"$NESL_BT_HEADERS\" = 4 ] && echo spill' >>\"$out\"\n"
    "echo '[ \"$NESL_BT\" = 7 ] && exit 1' >>\"$out\"\n"
    "echo 'exit 0' >>\"$out\"\n"
    "chmod +x \"$out\"\n";

static int fails;

/* The harness's last line, "P passed, F failed", for cmd: P and F as
 * expected (one run; -1 each where the line is missing). */
static void expect_counts(const char *what, const char *cmd, long want_p, long want_f)
{
    char c[2048], line[256] = "", w[256];
    snprintf(c, sizeof c, "%s 2>&1 | tail -1", cmd);
    FILE *f = popen(c, "r");
    long p = -1, fl = -1;
    if (f) {
        if (fgets(line, sizeof line, f) && sscanf(line, "%ld passed, %ld failed", &p, &fl) != 2) p = fl = -1;
        pclose(f);
    }
    snprintf(w, sizeof w, "%s: passed", what);
    unit_expect(&fails, w, p, want_p);
    snprintf(w, sizeof w, "%s: failed", what);
    unit_expect(&fails, w, fl, want_f);
}

int main(void)
{
    char dir[] = "/tmp/nesslc-rerun.XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    if (!unit_write(dir, "standin", standin)) return 1;
    char path[600], cmd[1200];
    snprintf(path, sizeof path, "%s/standin", dir);
    if (chmod(path, 0755) != 0) {
        perror(path);
        return 1;
    }
    const char *t = "tests/lang/compare_ops.nesl";
    struct {
        const char *what, *script, *opts;
        long pass, fail;
    } cases[] = {
        { "no rerun", "run_tests.sh --mode cuda", "", 1, 0 },
        { "a rerun whose output is the same", "run_tests.sh --mode cuda", "--rerun NESL_BT=16", 1, 0 },
        { "two reruns, the second's output differs", "run_tests.sh --mode cuda",
          "--rerun NESL_BT=16 --rerun 'NESL_BT=16 NESL_BT_HEADERS=4'", 0, 1 },
        { "two settings in one rerun, the output differs", "run_tests.sh --mode cuda", "--rerun 'NESL_BT=2 NESL_BT_HEADERS=4'", 0, 1 },
        { "a rerun whose exit status differs", "run_tests.sh --mode cuda", "--rerun NESL_BT=7", 0, 1 },
        { "an empty rerun", "run_tests.sh --mode cuda", "--rerun ''", 1, 0 },
        { "check_gpu.sh's default reruns", "check_gpu.sh --mode cuda --no-memcheck", "", 0, 1 },
        { "check_gpu.sh --rerun replaces them", "check_gpu.sh --mode cuda --no-memcheck", "--rerun NESL_BT=16", 1, 0 },
        { "check_gpu.sh --rerun ''", "check_gpu.sh --mode cuda --no-memcheck", "--rerun ''", 1, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "tests/%s --nesslc %s --jobs 1 %s %s", cases[i].script, path,
                 cases[i].opts, t);
        expect_counts(cases[i].what, cmd, cases[i].pass, cases[i].fail);
    }
    return unit_finish(dir, "test_harness_rerun", fails);
}
