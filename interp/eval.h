/* eval.h — private interface between the expression evaluator (eval.c) and
 * the top-level loop (eval_toplevel.c).  Nothing outside interp/ uses it. */
#ifndef NESSLC_EVAL_H
#define NESSLC_EVAL_H

#include "interp_impl.h"

/* Runaway recursion is reported when the call depth passes EVAL_MAX_DEPTH or
 * the C stack use passes the budget below.  The evaluator runs on a thread
 * with an EVAL_STACK_BYTES stack; if that thread cannot be created, it runs
 * on the caller's stack with a small budget.  AddressSanitizer neither cleans
 * up nor quietly accepts a longjmp that abandons more than 64 MiB of stack,
 * so ASan builds get a budget below that. */
#define EVAL_MAX_DEPTH 100000
#define EVAL_STACK_BYTES ((size_t)1 << 30)
#define EVAL_STACK_BUDGET (EVAL_STACK_BYTES - ((size_t)32 << 20))
#define EVAL_FALLBACK_BUDGET ((size_t)6 << 20)
#if defined(__SANITIZE_ADDRESS__)
#define EVAL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EVAL_ASAN 1
#endif
#endif
#ifdef EVAL_ASAN
#undef EVAL_STACK_BUDGET
#define EVAL_STACK_BUDGET ((size_t)56 << 20)
#endif

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
