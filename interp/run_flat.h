/* run_flat.h — running a flattened program (--interp=lcu on NESL source).
 *
 * The top-level loop is the reference interpreter's (same form order, error
 * handling and printing), but each value form is computed by its λcu
 * function on the λcu interpreter, and its flat result converted back to a
 * NESL value.  Library calls λcu leaves to the host are answered from the
 * reference interpreter: `lib nesl_ID` runs its primitive (flatten.h),
 * `lib global` reads a global variable, `lib clock` the time.  Globals the
 * form's FlatForm lists are passed as parameters (U layout, in order). */
#ifndef NESSLC_RUN_FLAT_H
#define NESSLC_RUN_FLAT_H

#include "interp.h"
#include "../flatten/flatten.h"

/* prog: the checked program to run (fp->flan or its kernel-formed version),
 * whose functions are those named by fp->forms.  Returns the number of
 * top-level forms that failed at run time, or -1 if one failed with an
 * internal error (reported as "nesslc: internal error: ...": a bug of
 * nesslc, exit status 3); stats accumulates λcu's counts. */
int run_flat_program(Compilation *c, const MonoProgram *mono, const FlatProgram *fp,
                     const LcuProgram *prog, const InterpOptions *opt, LcuStats *stats);

#endif
