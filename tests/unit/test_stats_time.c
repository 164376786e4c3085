/* test_stats_time.c — a generated executable's --stats=time prints the
 * lines of --stats=kernels, each kernel's line ending in ", T ms" with T a
 * non-negative time, and nothing else changed.  Builds
 * tests/codegen/stats_kernels.lcu with $NESSLC (the harness sets it) for the
 * C back end.  Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAXLINES = 256, LINE = 512 };

typedef struct Out { int n; char line[MAXLINES][LINE]; } Out;

static int run(const char *cmd, Out *o)
{
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    o->n = 0;
    while (o->n < MAXLINES && fgets(o->line[o->n], LINE, f)) o->n++;
    return pclose(f);
}

int main(void)
{
    const char *nesslc = getenv("NESSLC");
    if (!nesslc || !*nesslc) nesslc = "./nesslc";
    char dir[] = "/tmp/nesl_stats_time_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --target=c -o %s/prog tests/codegen/stats_kernels.lcu 2>&1", nesslc, dir);
    static Out build, kern, timed;
    int fail = 0, kernel_lines = 0;
    if (run(cmd, &build) != 0) {
        printf("FAIL: build: %s\n", build.n ? build.line[0] : "(no output)");
        return 1;
    }
    snprintf(cmd, sizeof cmd, "%s/prog --stats=kernels", dir);
    int st1 = run(cmd, &kern);
    snprintf(cmd, sizeof cmd, "%s/prog --stats=time", dir);
    int st2 = run(cmd, &timed);
    if (st1 != 0 || st2 != 0 || kern.n != timed.n || kern.n == 0) {
        printf("FAIL: runs: status %d and %d, %d and %d lines\n", st1, st2, kern.n, timed.n);
        fail++;
    }
    for (int i = 0; !fail && i < kern.n; i++) {
        const char *k = kern.line[i], *t = timed.line[i];
        if (strncmp(k, "stats: kernel K", 15) != 0) {
            if (strcmp(k, t) != 0) { printf("FAIL: line %d differs:\n  %s  %s", i + 1, k, t); fail++; }
            continue;
        }
        kernel_lines++;
        size_t len = strlen(k) - 1;   /* without its newline */
        double ms = -1;
        char rest[8] = "";
        if (strncmp(k, t, len) != 0 || sscanf(t + len, ", %lf ms%7s", &ms, rest) < 1 || ms < 0 || rest[0]) {
            printf("FAIL: line %d: %s  is not %s  plus \", T ms\"\n", i + 1, t, k);
            fail++;
        }
    }
    if (kernel_lines == 0) { printf("FAIL: no kernel lines\n"); fail++; }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    if (!fail) printf("ok: %d kernel lines timed\n", kernel_lines);
    return fail ? 1 : 0;
}
