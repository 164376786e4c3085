/* test_lifted_totals.c — a lifted if packs each branch's nested sequences
 * with descriptors whose totals are given (flatten/lifted_if.c): the flags'
 * count and the sums of the packed lengths are one tupled REDUCE, the then
 * side's descriptor takes its sum and the else side's the rest, so the
 * CUDA back end never waits for those descriptors' scans (quicksort: one
 * wait a recursion level).  The program is tests/lang/lifted_if_nested.nesl
 * (its values are checked there, in every mode): sequences read by both
 * branches, by the else branch alone and by the then branch alone.
 * Checks, in --emit=lcu (with fusion): no make_sd without a total, and
 * the REDUCEs that sum lengths where the flags hold are there, tupled
 * with the counts.  Uses $NESSLC (the harness sets it). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit_shell.h"

static const char *prog =
    "function h(s) : [int] -> int = if #s < 2 then #s else sum(s);\n"
    "function k(s, u) : ([int], [int]) -> [int] = if #s < 2 then u else s ++ u;\n"
    "function m(s, u) : ([int], [int]) -> [int] = if #s < 2 then [] int else u;\n"
    "function p(s, u) : ([int], [int]) -> [int] = if #s < 2 then u else [5];\n"
    "r1 = {h(s) : s in [[1], [2, 3], [] int, [4, 5, 6]]};\n"
    "r2 = {k(s, u) : s in [[1], [2, 3], [] int, [4, 5, 6]]; u in [[7], [8], [9, 10], [] int]};\n"
    "r3 = {m(s, u) : s in [[1], [2, 3], [] int, [4, 5, 6]]; u in [[7], [8], [9, 10], [] int]};\n"
    "r4 = {p(s, u) : s in [[1], [2, 3], [] int, [4, 5, 6]]; u in [[7], [8], [9, 10], [] int]};\n";

static int fails;

int main(void)
{
    char dir[] = "/tmp/nesl_lifted_totals_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    if (!unit_write(dir, "l.nesl", prog)) return 1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --emit=lcu %s/l.nesl > %s/l.lcu 2>&1; echo $?", unit_nesslc(), dir, dir);
    unit_expect(&fails, "nesslc --emit=lcu exit status", unit_count(cmd), 0);
    /* every descriptor made with its total: `make_sd (v)` alone is none */
    snprintf(cmd, sizeof cmd, "grep -c 'make_sd ([A-Za-z0-9_]*)' %s/l.lcu", dir);
    unit_expect(&fails, "make_sd without a total", unit_count(cmd), 0);
    /* each function's count and its sums in one REDUCE: h's of s, m's and
     * p's of u (the branch that reads it), k's of s and u */
    snprintf(cmd, sizeof cmd, "grep -c 'REDUCE { [a-z0-9_]* => (btoi ([^)]*), btoi ([^)]*) \\* ' %s/l.lcu", dir);
    unit_expect(&fails, "REDUCEs of a count and a sum of lengths", unit_count(cmd), 4);
    return unit_finish(dir, "test_lifted_totals", fails);
}
