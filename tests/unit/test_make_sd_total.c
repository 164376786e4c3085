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
#include <sys/wait.h>

static const char *prog =
    "function main () -> int {\n"
    "  let l : [int] = [1, 2]\n"
    "  let s : sd = make_sd (l, 4)\n"
    "  return total (s)\n"
    "}\n";

static int fails;

/* Build with target, run; the run must exit 3 and say why. */
static void check(const char *nesslc, const char *dir, const char *target)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s --target=%s -O0 -o z_%s z.lcu >build_%s.txt 2>&1 && ./z_%s >out_%s.txt 2>&1", dir,
             nesslc, target, target, target, target, target);
    int st = system(cmd);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    snprintf(cmd, sizeof cmd, "grep -q 'nesslc: internal error: a descriptor.s lengths add up to 3, not the total 4' %s/out_%s.txt", dir,
             target);
    bool said = system(cmd) == 0;
    if (code != 3 || !said) {
        printf("FAIL: --target=%s: exit status %d (expected 3), message %s\n", target, code, said ? "found" : "missing");
        fails++;
    }
}

int main(void)
{
    const char *nesslc = getenv("NESSLC");
    if (!nesslc || !*nesslc) nesslc = "./nesslc";
    char dir[] = "/tmp/nesl_sd_total_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char path[256], cmd[512];
    snprintf(path, sizeof path, "%s/z.lcu", dir);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return 1; }
    fputs(prog, f);
    fclose(f);
    check(nesslc, dir, "c");
    if (access("/dev/nvidia0", F_OK) == 0) check(nesslc, dir, "cuda");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    if (!fails) printf("PASS: test_make_sd_total\n");
    return fails ? 1 : 0;
}
