/* test_ilp_budget.c — fusion does not depend on the clock.  lp_solve's
 * budget is a count of its abort-callback calls (fusion/fu_ilp.c), not
 * seconds: a compile on a loaded machine must fuse as one on an idle
 * machine.  The test runs nesslc under a preloaded library whose clock
 * jumps 1000 s at every reading (ftime, time, gettimeofday,
 * clock_gettime): a timeout in seconds would stop every ILP at once and
 * schedule greedily.  The fused λcu must be byte-identical to an ordinary
 * compile's, and the fusion report must show no greedy region.  The
 * program is examples/quickhull.nesl, whose largest ILP (18 nodes) takes
 * a few thousand calls.  Then, without the clock, the choice a region out
 * of work makes between the ILP's best schedule so far and the greedy one.
 * Uses $NESSLC and cc.  Exit status 0 iff every
 * check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *warp_c =
    "#define _GNU_SOURCE\n"
    "#include <time.h>\n"
    "#include <sys/time.h>\n"
    "#include <sys/timeb.h>\n"
    "static long long t;\n"
    "static long long tick(void) { t += 1000; return t; }\n"
    "int ftime(struct timeb *b) { b->time = (time_t)tick(); b->millitm = 0; b->timezone = 0; b->dstflag = 0; return 0; }\n"
    "time_t time(time_t *p) { time_t s = (time_t)tick(); if (p) *p = s; return s; }\n"
    "int gettimeofday(struct timeval *tv, void *tz) { (void)tz; tv->tv_sec = (time_t)tick(); tv->tv_usec = 0; return 0; }\n"
    "int clock_gettime(clockid_t c, struct timespec *ts) { (void)c; ts->tv_sec = (time_t)tick(); ts->tv_nsec = 0; return 0; }\n";

static int fails;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_ilp_budget_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    if (!unit_write(dir, "warp.c", warp_c)) return 1;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && cc -shared -fPIC -o warp.so warp.c", dir);
    if (system(cmd) != 0) { printf("FAIL: cannot build the clock library\n"); return 1; }
    /* the ordinary compile, then the warped one (ASan's runtime would
     * insist on coming first in the preload list) */
    snprintf(cmd, sizeof cmd, "NESSLC_FUSION_REPORT=1 %s --emit=lcu examples/quickhull.nesl >%s/plain.lcu 2>%s/plain.txt", nesslc, dir, dir);
    check(system(cmd) == 0, "the ordinary compile");
    snprintf(cmd, sizeof cmd,
             "LD_PRELOAD=%s/warp.so ASAN_OPTIONS=\"$ASAN_OPTIONS:verify_asan_link_order=0\" NESSLC_FUSION_REPORT=1 %s --emit=lcu "
             "examples/quickhull.nesl >%s/warp.lcu 2>%s/warp.txt",
             dir, nesslc, dir, dir);
    check(system(cmd) == 0, "the compile under the jumping clock");
    /* the clock library took effect: time(NULL) read through it jumps */
    snprintf(cmd, sizeof cmd, "LD_PRELOAD=%s/warp.so date +%%s", dir);
    check(unit_count(cmd) >= 1000, "the clock library is not preloaded");
    snprintf(cmd, sizeof cmd, "cmp -s %s/plain.lcu %s/warp.lcu", dir, dir);
    check(system(cmd) == 0, "the fused λcu differs under the jumping clock");
    snprintf(cmd, sizeof cmd, "grep -c ' 0 greedy (0 out of ILP work)' %s/warp.txt", dir);
    check(unit_count(cmd) == 1, "a region was scheduled greedily under the jumping clock");
    snprintf(cmd, sizeof cmd, "grep -c ' 0 greedy (0 out of ILP work)' %s/plain.txt", dir);
    check(unit_count(cmd) == 1, "a region was scheduled greedily");
    /* Regions out of work take the ILP's best schedule so far where it is
     * cheaper than the greedy one, and the greedy one otherwise (a tie
     * included).  Black-Scholes' three large regions are the first case;
     * rec_quicksort's three are the second (the greedy schedule there is
     * the optimum's). */
    snprintf(cmd, sizeof cmd, "NESSLC_FUSION_REPORT=1 %s --emit=lcu examples/blackscholes.nesl 2>&1 >/dev/null"
             " | grep -c \"3 by the ILP's best so far, 0 greedy (3 out of ILP work)\"", nesslc);
    check(unit_count(cmd) == 1, "blackscholes' regions out of work did not take the ILP's best schedule");
    snprintf(cmd, sizeof cmd, "NESSLC_FUSION_REPORT=1 %s --emit=lcu tests/lang/rec_quicksort.nesl 2>&1 >/dev/null"
             " | grep -c \"0 by the ILP's best so far, 3 greedy (3 out of ILP work)\"", nesslc);
    check(unit_count(cmd) == 1, "rec_quicksort's regions out of work did not keep the greedy schedule");
    return unit_finish(dir, "test_ilp_budget", fails);
}
