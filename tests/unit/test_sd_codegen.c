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
 * 3. Consecutive make_sd's are one call of nesl_make_sd_group (gen_host.c,
 * gen_sd_group), up to four, while their arguments are inert and name no
 * descriptor of the group; not in the C back end.
 * 4. A zip_sd of two filter_sd's of one group comes from the group's call
 * (nesl_filter_sd_group_zip), and sum_sd (sum_sd (a, b), c) from one call
 * of nesl_sum_sd2, where only inert binds lie between and c is bound
 * before the first sum; not across a run, nor in the C back end.
 * Without fusion (-O0), so the kernels are the program's.  The values are
 * checked by tests/codegen/sd_of_map.lcu, err_sd_of_map_*.lcu,
 * segids_map.lcu, sd_group.lcu, err_sd_group_*.lcu and sd_fused.lcu.  Uses $NESSLC (the harness sets it).
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

static const char *prog_group =
    "kernel KG (n : int) -> ([int], [int], [int], int) {\n"   /* ends with a REDUCE: no make_sd joins the MAP */
    "  let (a, b, c) = MAP { g => (rem (g, 3), 1, rem (g, 3)) } (n)\n"
    "  let s = REDUCE { i => a[i] using a } (0) { (x, y) => x + y } (n)\n"
    "  return (a, b, c, s)\n"
    "}\n"
    "function main () -> (int, int, int, int, int, int, int, int, int) {\n"
    "  let (a : [int], b : [int], c : [int], w : int) = run KG (10)\n"
    "  let sa : sd = make_sd (a)\n"
    "  let sb : sd = make_sd (b, #a)\n"                 /* with sa */
    "  let sc : sd = make_sd (c, total (sa))\n"         /* names sa: alone */
    "  let x : int = 3\n"
    "  let s1 : sd = make_sd (a)\n"                     /* four together */
    "  let s2 : sd = make_sd (c)\n"
    "  let s3 : sd = make_sd (b)\n"
    "  let s4 : sd = make_sd (a)\n"
    "  let s5 : sd = make_sd (c)\n"                     /* the fifth: alone */
    "  return (w + x, total (sa), total (sb), total (sc), total (s1), total (s2), total (s3), total (s4), total (s5))\n"
    "}\n";

static const char *prog_fused =
    "kernel Pos (n : int) -> ([int], [int], [int]) {\n"
    "  let a = FILTER { i => i } { j => band (j, 1) == 1 } (n)\n"
    "  let b = FILTER { i => i } { j => j < 6 } (n)\n"
    "  let c = FILTER { i => i } { j => rem (j, 3) == 0 } (n)\n"
    "  return (a, b, c)\n"
    "}\n"
    "function main () -> (int, int, int, int, int, int) {\n"
    "  let s : sd = make_sd ([3, 0, 5, 2, 0, 6], 16)\n"
    "  let (pa : [int], pb : [int], pc : [int]) = run Pos (16)\n"
    "  let sa : sd = filter_sd (s, pa)\n"             /* a group of two, zip (sb, sa) with it */
    "  let sb : sd = filter_sd (s, pb)\n"
    "  let la : [int] = lengths (sa)\n"
    "  let z : sd = zip_sd (sb, sa)\n"
    "  let sc : sd = filter_sd (s, pc)\n"             /* a run between: zip_sd apart */
    "  let sd2 : sd = filter_sd (s, pa)\n"
    "  let (qa : [int], qb : [int], qc : [int]) = run Pos (16)\n"
    "  let z2 : sd = zip_sd (sc, sd2)\n"
    "  let s1 : sd = sum_sd (sa, sb)\n"               /* one call */
    "  let o1 : [int] = offsets (s1)\n"
    "  let s2 : sd = sum_sd (s1, sc)\n"
    "  let s3 : sd = sum_sd (sa, sc)\n"               /* c bound after: apart */
    "  let s4 : sd = filter_sd (s, qa)\n"
    "  let s5 : sd = sum_sd (s3, s4)\n"
    "  return (total (z), total (z2), total (s2), total (s5), #la, #o1)\n"
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
    static const char *const progs[4] = { "p", "q", "r", "f" };
    const char *texts[4] = { prog_sd, prog_ids, prog_group, prog_fused };
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s.lcu", progs[i]);
        if (!unit_write(dir, name, texts[i])) return 1;
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
    expect(dir, "sa and sb together", "nesl_make_sd_group\\(rt, 2, ", "r.cu", 1);
    expect(dir, "s1 to s4 together", "nesl_make_sd_group\\(rt, 4, ", "r.cu", 1);
    expect(dir, "sc alone", "nesl_make_sd_total\\(rt, ", "r.cu", 1);
    expect(dir, "s5 alone", "nesl_make_sd\\(rt, ", "r.cu", 1);
    expect(dir, "the C back end's make_sd's", "nesl_make_sd(_total)?\\(rt, ", "r.c", 8);
    expect(dir, "the C back end's groups", "nesl_make_sd_group", "r.c", 0);
    expect(dir, "zip (sb, sa) with its group", "nesl_filter_sd_group_zip\\(rt, [^,]+, 2, [^,]+, [^,]+, 1, 0, ", "f.cu", 1);
    expect(dir, "the group before a run", "nesl_filter_sd_group\\(rt, [^,]+, 2, ", "f.cu", 1);
    expect(dir, "zip (sc, sd2) apart", "nesl_zip_sd\\(rt, ", "f.cu", 1);
    expect(dir, "s1 and s2 in one call", "nesl_sum_sd2\\(rt, ", "f.cu", 1);
    expect(dir, "s3 and s5 apart", "nesl_sum_sd\\(rt, ", "f.cu", 2);
    expect(dir, "the C back end's zips and sums", "nesl_(zip_sd|sum_sd)\\(rt, ", "f.c", 6);
    expect(dir, "the C back end's fused calls", "nesl_(filter_sd_group_zip|sum_sd2)", "f.c", 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    if (fails) return 1;
    printf("ok\n");
    return 0;
}
