/* interp.h — the reference interpreter over the monomorphic AST.
 *
 * Runs the top-level forms in order and prints each result exactly as NESL
 * 3.1 does (`name = value : type`).  A runtime error aborts only the current
 * form: its message and source position go to `err`, and the next form runs. */
#ifndef NESSLC_INTERP_H
#define NESSLC_INTERP_H

#include "../frontend/ast.h"

typedef struct InterpOptions {
    FILE *out;              /* program output: result lines, print_* */
    FILE *err;              /* runtime errors */
    int print_length;       /* sequence elements printed before ",..." (NESL: 100) */
} InterpOptions;

/* Returns the number of top-level forms that failed at run time. */
struct MonoProgram;
int interp_program(const struct MonoProgram *mono, const InterpOptions *opt);

/* For compiled NESL programs (the C back end prints what the interpreter
 * does): the name a binding's result line shows, and the result line(s) of
 * a function or datatype definition (NULL when it prints nothing).  Both
 * malloc'd. */
char *interp_binding_name(Pattern *p);
char *interp_definition_text(TopForm *form);

#endif
