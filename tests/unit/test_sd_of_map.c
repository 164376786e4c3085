/* test_sd_of_map.c — the CUDA back end builds make_sd (v[, t]) of
 * v = run K (...) in one launch when K is one MAP of ints that cannot fail
 * (cudagen/gen_kernel.c, gen_kernel_sd): the emitted host code calls
 * K_sd_k, whose MAP goes to nesl_cu_map_sd, and not K_k.  Where K's MAP
 * may fail (its errors must come before the lengths'), where v is read
 * between the run and make_sd, and in the C back end, the run and make_sd
 * stay apart.  Without fusion (-O0), so the kernels are the program's.
 * The values are checked by tests/codegen/sd_of_map.lcu and
 * err_sd_of_map_*.lcu.  Uses $NESSLC (the harness sets it).
 * Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog =
    "kernel KA (n : int) -> [int] {\n"
    "  let l = MAP { g => rem (g, 3) } (n)\n"
    "  return l\n"
    "}\n"
    "kernel KB (v : [int], n : int) -> [int] {\n"      /* v[g]: checked, may fail */
    "  let l = MAP { g => v[g] using v } (n)\n"
    "  return l\n"
    "}\n"
    "kernel KC (n : int) -> [int] {\n"
    "  let l = MAP { g => g + 1 } (n)\n"
    "  return l\n"
    "}\n"
    "kernel KS (v : [int]) -> int {\n"
    "  let s = REDUCE { i => v[i] using v } (0) { (a, b) => a + b } (#v)\n"
    "  return s\n"
    "}\n"
    "function main () -> (int, int, int, int) {\n"
    "  let a : [int] = run KA (10)\n"
    "  let x : int = 7\n"
    "  let sa : sd = make_sd (a, x + 2)\n"
    "  let b : [int] = run KB (a, 10)\n"
    "  let sb : sd = make_sd (b)\n"
    "  let c : [int] = run KC (4)\n"
    "  let y : int = run KS (c)\n"
    "  let sc : sd = make_sd (c)\n"
    "  return (total (sa), total (sb), total (sc), y)\n"
    "}\n";

static int fails;

/* The first line of cmd's output as a number (-1 if none). */
static long count(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    char buf[64] = "";
    long n = fgets(buf, sizeof buf, f) ? strtol(buf, NULL, 10) : -1;
    pclose(f);
    return n;
}

static void expect(const char *dir, const char *what, const char *pattern, const char *file, long want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "grep -cE '%s' %s/%s", pattern, dir, file);
    long got = count(cmd);
    if (got != want) {
        printf("FAIL: %s in %s: %ld lines (expected %ld)\n", what, file, got, want);
        fails++;
    }
}

int main(void)
{
    const char *nesslc = getenv("NESSLC");
    if (!nesslc || !*nesslc) nesslc = "./nesslc";
    char dir[] = "/tmp/nesl_sd_of_map_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/p.lcu", dir);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return 1; }
    fputs(prog, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd %s && %s -O0 --emit=cuda -o p.cu p.lcu && %s -O0 --emit=c -o p.c p.lcu", dir, nesslc, nesslc);
    if (system(cmd) != 0) {
        printf("FAIL: %s\n", cmd);
        return 1;
    }
    /* calls (not the prototype or definition: those start with NESL_KERNEL) */
    expect(dir, "KA's make_sd in one launch", "^ +KA_sdr [a-z_0-9]+ = KA_sd_k\\(rt, [^,]+, \\(int64_t\\)", "p.cu", 1);
    expect(dir, "KA run apart", "= KA_k\\(rt", "p.cu", 0);
    expect(dir, "the MAP's skeleton", "nesl_cu_map_sd\\(rt", "p.cu", 1);
    expect(dir, "KB (may fail) run apart", "= KB_k\\(rt", "p.cu", 1);
    expect(dir, "KC (read before make_sd) run apart", "= KC_k\\(rt", "p.cu", 1);
    expect(dir, "make_sd of KB and KC", "nesl_make_sd\\(rt", "p.cu", 2);
    expect(dir, "the C back end's runs", "= K[ABC]_k\\(rt", "p.c", 3);
    expect(dir, "the C back end's one-launch make_sd", "_sd_k", "p.c", 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    if (fails) return 1;
    printf("ok\n");
    return 0;
}
