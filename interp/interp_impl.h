/* interp_impl.h — interpreter state shared by the evaluator (eval.c), the
 * primitives (prims_*.c) and the value printer (print.c).  Not an interface
 * for other phases: they use interp.h. */
#ifndef NESSLC_INTERP_IMPL_H
#define NESSLC_INTERP_IMPL_H

#include "interp.h"
#include "value.h"
#include "../frontend/prims.h"

struct Interp {
    Arena *heap;            /* values of the current top-level form */
    Arena *global_heap;     /* values bound to globals (deep copies) */
    Value *globals; bool *global_set; int nglobals;
    FILE *out, *err;
    int print_length;
    uint64_t rng;           /* rand state, reseeded at each top-level form (NESL.md 5.5) */
    bool timing;            /* inside time(...): timings cannot nest */
    RtErrorCtx *errctx;     /* where rt_error jumps to */
    int depth;              /* call depth, to report runaway recursion instead of crashing */
    int max_depth;          /* call depth limit */
    uintptr_t stack_limit;  /* lowest C stack address the evaluator may reach */
    Span call_site;         /* innermost call from user code into the library: runtime
                               errors raised inside library code are reported here */
};

/* Abort the current top-level form with a NESL runtime error. */
_Noreturn void rt_error(Interp *I, Span where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Apply a function value (closure, primitive, constructor) to an argument. */
Value interp_apply(Interp *I, Value fn, Value arg, Span where);

/* Reset the rand generator to its fixed seed (prims; called before each form). */
void rng_reseed(Interp *I);

/* Primitive implementations, indexed by PrimId (prims_*.c). */
extern const PrimImpl prim_impls[PRIM__COUNT];

/* Printing (print.c).
 * print_result: one top-level line `name = value : type` with NESL's layout
 *   (value and type moved to their own lines past 120 columns).
 * format_value: the top-level printed form of a value of type t (strings
 *   quoted, floats to 15 significant digits, T/F, `,...` past print_length).
 * value_to_nesl_string: the `@` form (NESL.md 5.9): lower-case t/f, floats
 *   to 8 significant digits, strings as sequences of chars. */
typedef struct StrBuf { char *data; size_t len, cap; } StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(StrBuf *b);

void format_value(StrBuf *b, Value v, Type *t, int print_length);
void format_float_toplevel(StrBuf *b, double x);
void format_float_at(StrBuf *b, double x);
void value_to_nesl_string(StrBuf *b, Value v, Type *t);
void print_result(FILE *out, const char *name, Value v, Type *t, int print_length);
void print_fn_result(FILE *out, const char *name, Type *generic_type);

#endif
