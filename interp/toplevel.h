/* toplevel.h — the interpreter's top-level loop driven by another evaluator
 * of form expressions (private to interp/: eval_toplevel.c, run_flat.c).
 *
 * interp_program_with runs the forms exactly as interp_program does (form
 * order, rand reseeded per form, a runtime error aborting only its form,
 * printability check, globals bound through the form's pattern, result and
 * definition lines, the large-stack thread), except that the value of a
 * TOP_BIND/TOP_EXPR form comes from eval_form(I, form, ctx) instead of the
 * AST evaluator.  eval_form returns a value allocated in I->heap, or aborts
 * the form through rt_error (or a longjmp to I->errctx after reporting). */
#ifndef NESSLC_TOPLEVEL_H
#define NESSLC_TOPLEVEL_H

#include "interp_impl.h"

typedef Value (*FormEvaluator)(Interp *I, TopForm *form, void *ctx);

/* Returns the number of top-level forms that failed at run time. */
int interp_program_with(const struct MonoProgram *mono, const InterpOptions *opt,
                        FormEvaluator eval_form, void *ctx);

#endif
