/* nesl_c.h — a NESL program through the C back end (driver). */
#ifndef NESSLC_NESL_C_H
#define NESSLC_NESL_C_H

#include "../cudagen/cudagen.h"
#include "../flatten/flatten.h"

/* The top level of the flattened program fp whose kernel-formed λcu is k,
 * for cgen_emit_c / cgen_build. */
CgenNesl *nesl_c_top(Compilation *c, const MonoProgram *m, const FlatProgram *fp, int print_length);

#endif
