/* prims.h — the primitive functions: the small set of operations implemented
 * in C by each executor; everything else in the library is NESL code in lib/.
 *
 * prims.def lists them as PRIM(ID, "name", arity, "signature"):
 *   name      the NESL name the checker binds in the library scope.  Operator
 *             primitives use the operator's spelling ("+", "==", "^", ...),
 *             which no user identifier can shadow.
 *   arity     how many top-level tuple components the implementation receives
 *             (`(a, a) -> a` has arity 2; `a -> a` has arity 1).
 *   signature a NESL function type, parsed by the front end's type parser.
 * Adding a primitive means adding a line here and a case in every executor. */
#ifndef NESSLC_PRIMS_H
#define NESSLC_PRIMS_H

#include "ast.h"

typedef enum {
#define PRIM(id, name, arity, sig) PRIM_##id,
#include "prims.def"
#undef PRIM
    PRIM__COUNT
} PrimId;

typedef struct PrimInfo { const char *name; int arity; const char *sig; } PrimInfo;
extern const PrimInfo prim_info[PRIM__COUNT];

/* The library name an operator stands for ("+", "append", "length", ...). The
 * checker resolves it in the library scope, never in the user's, so
 * redefining `append` does not change `++`. */
const char *op_function_name(Op op);

/* True for serial-only primitives (file/stdin I/O, rand_seed, environment):
 * NESL.md 3.9 item 6 forbids them inside apply-to-each. */
bool prim_is_serial(int prim);

/* The primitive's identifier in prims.def in lower case ("string", "pad"). */
const char *prim_id_name(int prim);

#endif
