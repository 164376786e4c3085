/* eval.h — private interface between the expression evaluator (eval.c) and
 * the top-level loop (eval_toplevel.c).  Nothing outside interp/ uses it. */
#ifndef NESSLC_EVAL_H
#define NESSLC_EVAL_H

#include "interp_impl.h"

/* Call depth past which runaway recursion is reported, and the stack the
 * evaluator thread gets so that this depth never overflows the C stack. */
#define EVAL_MAX_DEPTH 100000
/* AddressSanitizer builds: ASan neither cleans nor quietly accepts a longjmp
 * that abandons more than 64 MiB of stack, and its frames are bigger, so the
 * limit is lower there (eval_toplevel.c also unpoisons after errors). */
#if defined(__SANITIZE_ADDRESS__)
#define EVAL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EVAL_ASAN 1
#endif
#endif
#ifdef EVAL_ASAN
#undef EVAL_MAX_DEPTH
#define EVAL_MAX_DEPTH 25000
#endif
#define EVAL_STACK_BYTES ((size_t)1 << 30)
/* Depth limit when no big-stack thread could be created (default 8 MiB stack). */
#define EVAL_FALLBACK_DEPTH 2000

/* The local variables of one activation: slots[0..n). */
typedef struct Frame {
    Value *slots;
    int n;
} Frame;

/* Evaluate e in frame f (values allocated in I->heap). */
Value eval_expr(Interp *I, Expr *e, Frame *f);

/* Bind a pattern to a value: locals go to f, globals to I->globals. */
void bind_pattern(Interp *I, Pattern *p, Value v, Frame *f);

#endif
