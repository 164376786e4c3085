/* fuzz_lcu.c — libFuzzer target: the λcu parser and checker on λcu text.
 *
 * Runs what `nesslc --form-kernels --emit=lcu F.lcu` runs: parse, check, then
 * for a program that checks: print -> parse -> print must be the identity
 * (doc/lcu.md), and kernel formation must build a program that checks and
 * round-trips.  Bad input must end in diagnostics; a crash, sanitizer report,
 * leak, time-out or broken property is a bug (the harness aborts).
 * Built and run by `make fuzz` (doc/fuzzing.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../lcu/lcu.h"

/* Diagnostics and printed programs go here (see fuzz_nesl.c). */
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    sink = fopen("/dev/null", "w");
    if (!sink) { perror("/dev/null"); abort(); }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, 0, size)) return 0;     /* the driver rejects NUL bytes */
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    Source src = { "fuzz.lcu", text, size };
    Diag d;
    diag_init(&d, sink);
    Arena *a = arena_new();
    Interner *in = interner_new();
    LcuProgram *p = lcu_parse(a, in, &d, &src);
    if (p && lcu_check(a, in, &d, p)) {
        lcu_print(sink, p);
        if (!lcu_round_trips(p, stderr)) {
            fprintf(stderr, "fuzz_lcu: a checked program does not round-trip through its text form\n");
            abort();
        }
        LcuProgram *k = lcu_form_kernels(a, in, p);
        if (!lcu_verify_built(a, in, k, "kernel-formed λcu", stderr)) abort();
    }
    interner_free(in);
    arena_free(a);
    free(text);
    return 0;
}
