/* fuzz_nesl.c — libFuzzer target: the whole NESL front end on the input.
 *
 * Runs what `nesslc --emit=lcu` runs, in the driver's order: parse, print the
 * AST, check, print the typed AST, monomorphize, print the instances, flatten,
 * verify the Flan program, form kernels, verify the kernel program.  Bad input
 * must end in diagnostics; anything else is a bug the fuzzer reports:
 *   - a crash, an ASan/UBSan report, an ICE (abort), a leak, a time-out;
 *   - a built λcu program that does not type-check or round-trip (the
 *     driver's exit status 3): the harness aborts so libFuzzer saves it.
 *
 * Speed: the library is checked once and each input starts from a snapshot
 * of the compilation just after it (library_snapshot), which makes a run
 * about ten times cheaper.  Environment:
 *   NESSLC_FUZZ_FRESH=1  a fresh compilation per input (the driver's path
 *                        exactly; to confirm a finding, or the snapshot)
 *   NESSLC_FUZZ_OUT=1    diagnostics and printed programs on stdout
 *                        instead of /dev/null (to compare the two modes)
 * Built and run by `make fuzz` (doc/fuzzing.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../frontend/frontend.h"
#include "../../flatten/flatten.h"
#include "../../lcu/lcu.h"

/* State kept between inputs: libFuzzer's interface gives the harness no
 * other place for it.  `sink` gets diagnostics and printed programs. */
static FILE *sink;
static Diag diag;
static Compilation *lib_comp;      /* NULL with NESSLC_FUZZ_FRESH */
static LibrarySnapshot *lib_snap;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    const char *out = getenv("NESSLC_FUZZ_OUT");
    sink = out && *out ? stdout : fopen("/dev/null", "w");
    if (!sink) { perror("/dev/null"); abort(); }
    diag_init(&diag, sink);
    const char *fresh = getenv("NESSLC_FUZZ_FRESH");
    if (!(fresh && *fresh)) {
        lib_comp = compilation_new(&diag);
        lib_snap = library_snapshot(lib_comp);
        if (!lib_snap) { fputs("fuzz_nesl: the library does not compile\n", stderr); abort(); }
    }
    return 0;
}

static void must_verify(Compilation *c, LcuProgram *p, const char *what)
{
    if (!lcu_verify_built(c->arena, c->names, p, what, stderr)) {
        fprintf(stderr, "fuzz_nesl: the front end built a bad %s program\n", what);
        abort();
    }
}

static void run_phases(Compilation *c, const Source *src)
{
    Program *p = parse_program(c, src);
    if (!p || c->diag->nerrors) return;      /* the driver stops here too */
    print_program(sink, p, false);
    if (!check_program(c, p)) return;
    print_program(sink, p, true);
    MonoProgram *m = monomorphize(c, p);
    if (!m || c->diag->nerrors) return;
    for (int i = 0; i < m->ninstances; i++) print_fundecl(sink, m->instances[i], true);
    FlatProgram *fp = flatten_program(c, m);
    if (!fp || c->diag->nerrors) return;      /* "not supported yet" */
    lcu_print(sink, fp->flan);
    must_verify(c, fp->flan, "flattened (Flan)");
    LcuProgram *k = lcu_form_kernels(c->arena, c->names, fp->flan);
    must_verify(c, k, "kernel-formed λcu");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The driver rejects a NUL byte before the front end sees the text. */
    if (memchr(data, 0, size)) return 0;
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    Source src = { "fuzz.nesl", text, size };
    diag_init(&diag, sink);
    if (lib_comp) {
        run_phases(lib_comp, &src);
        library_restore(lib_comp, lib_snap);
    } else {
        Compilation *c = compilation_new(&diag);
        run_phases(c, &src);
        compilation_free(c);
    }
    fflush(sink);
    free(text);
    return 0;
}
