/* test_sd_codegen.c — the CUDA back end's code for segment descriptors.
 *
 * 1. It builds make_sd (v[, t]) of
 * v = run K (...) in one launch when K is one MAP of ints that cannot fail
 * (cudagen/gen_kernel.c, gen_kernel_sd): the emitted host code calls
 * K_sd_V_k, whose MAP goes to nesl_cu_map_sd, and not K_k.  Where K's MAP
 * may fail (its errors must come before the lengths'), where v is read
 * between the run and make_sd, where a binding between may fail (a check:
 * the errors' order), and in the C back end, the run and make_sd stay
 * apart.
 * 2. A MAP that reads segids (s) only at its own index finds the ids as it
 * iterates (gen_kernel_ids): K_ids_P_k takes s, and the ids are not filled
 * (nesl_segids) for it; a REDUCE, or a MAP reading them elsewhere, still
 * has them filled, and so does the C back end.
 * Without fusion (-O0), so the kernels are the program's.  The values are
 * checked by tests/codegen/sd_of_map.lcu, err_sd_of_map_*.lcu and
 * segids_map.lcu.  Uses $NESSLC (the harness sets it).
 * Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *prog_sd =
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
    "kernel KD (n : int) -> [int] {\n"                  /* a check between: run apart */
    "  let l = MAP { g => g } (n)\n"
    "  return l\n"
    "}\n"
    "function main () -> (int, int, int, int, int) {\n"
    "  let a : [int] = run KA (10)\n"
    "  let x : int = 7\n"
    "  let sa : sd = make_sd (a, x + 2)\n"
    "  let b : [int] = run KB (a, 10)\n"
    "  let sb : sd = make_sd (b)\n"
    "  let c : [int] = run KC (4)\n"
    "  let y : int = run KS (c)\n"
    "  let sc : sd = make_sd (c)\n"
    "  let d : [int] = run KD (3)\n"
    "  let u : unit = check (y < 0, 1, \"negative\")\n"
    "  let sdd : sd = make_sd (d)\n"
    "  return (total (sa), total (sb), total (sc), y, total (sdd))\n"
    "}\n";

static const char *prog_ids =
    "kernel KL (n : int) -> [int] {\n"
    "  let l = MAP { g => rem (g, 3) } (n)\n"
    "  return l\n"
    "}\n"
    "kernel KM (ids : [int], o : [int]) -> [int] {\n"   /* at its index: not filled */
    "  let r = MAP { i => i - o[ids[i]] using ids, o } (#ids)\n"
    "  return r\n"
    "}\n"
    "kernel KR (ids : [int]) -> [int] {\n"              /* reversed: filled */
    "  let r = MAP { i => ids[#ids - 1 - i] using ids } (#ids)\n"
    "  return r\n"
    "}\n"
    "kernel KS (v : [int]) -> int {\n"                  /* a REDUCE: filled */
    "  let s = REDUCE { i => v[i] using v } (0) { (a, b) => a + b } (#v)\n"
    "  return s\n"
    "}\n"
    "function main () -> (int, int, int) {\n"
    "  let l : [int] = run KL (10)\n"
    "  let s : sd = make_sd (l)\n"
    "  let ids : [int] = segids (s)\n"
    "  let o : [int] = offsets (s)\n"
    "  let m : [int] = run KM (ids, o)\n"
    "  let r : [int] = run KR (ids)\n"
    "  let x : int = run KS (ids)\n"
    "  return (run KS (m), run KS (r), x)\n"
    "}\n";

static int fails;


static void expect(const char *dir, const char *what, const char *pattern, const char *file, long want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "grep -cE '%s' %s/%s", pattern, dir, file);
    long got = unit_count(cmd);
    if (got != want) {
        printf("FAIL: %s in %s: %ld lines (expected %ld)\n", what, file, got, want);
        fails++;
    }
}

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_sd_codegen_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char name[16], cmd[1024];
    static const char *const progs[2] = { "p", "q" };
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "%s.lcu", progs[i]);
        if (!unit_write(dir, name, i == 0 ? prog_sd : prog_ids)) return 1;
        snprintf(cmd, sizeof cmd, "cd %s && %s -O0 --emit=cuda -o %s.cu %s.lcu && %s -O0 --emit=c -o %s.c %s.lcu", dir, nesslc,
                 progs[i], progs[i], nesslc, progs[i], progs[i]);
        if (system(cmd) != 0) {
            printf("FAIL: %s\n", cmd);
            return 1;
        }
    }
    /* calls (not the prototype or definition: those start with NESL_KERNEL) */
    expect(dir, "KA's make_sd in one launch", "^ +KA_sdr [a-z_0-9]+ = KA_sd_[a-z0-9_]+_k\\(rt, [^,]+, \\(int64_t\\)", "p.cu", 1);
    expect(dir, "KA run apart", "= KA_k\\(rt", "p.cu", 0);
    expect(dir, "the MAP's skeleton", "nesl_cu_map_sd\\(rt", "p.cu", 1);
    expect(dir, "KB (may fail) run apart", "= KB_k\\(rt", "p.cu", 1);
    expect(dir, "KC (read before make_sd) run apart", "= KC_k\\(rt", "p.cu", 1);
    expect(dir, "KD (a check before make_sd) run apart", "= KD_k\\(rt", "p.cu", 1);
    expect(dir, "make_sd of KB, KC and KD", "nesl_make_sd\\(rt", "p.cu", 3);
    expect(dir, "the C back end's runs", "= K[ABCD]_k\\(rt", "p.c", 4);
    expect(dir, "the C back end's one-launch make_sd", "K[A-Z]+_sd_", "p.c", 0);
    expect(dir, "KM finding the ids", "= KM_ids_0_k\\(rt, [^,]+, ", "q.cu", 1);
    expect(dir, "KM's skeleton", "nesl_cu_map_seg\\(rt", "q.cu", 1);
    expect(dir, "the ids filled for KR and KS", "K[RS]_k\\(rt, nesl_segids\\(rt, ", "q.cu", 2);
    expect(dir, "the C back end's ids", "_ids_", "q.c", 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    if (fails) return 1;
    printf("ok\n");
    return 0;
}
