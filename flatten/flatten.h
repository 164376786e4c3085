/* flatten.h — flattening of the monomorphic NESL program into Flan and λcu
 * (DESIGN.md §3, doc/flattening.md).
 *
 * Flan is λcu's CPU level in which vector operations are inline SOACs
 * (LE_SOAC) and library calls (LE_LIB): a sequential program over flat
 * vectors and segment descriptors.  lcu_form_kernels turns it into unfused
 * λcu, one kernel per SOAC.
 *
 * Flat representation of NESL values.  A value is unlifted (one value) or
 * lifted (one value per element of a parallel context of count n):
 *
 *   type t                 unlifted U(t)           lifted L(t)
 *   int float bool char    scalar b                [b]  (length n)
 *   stream                 int                     [int]
 *   [s]                    L(s), count = #t        sd (n segments), L(s) with count = total
 *   (a, b)                 U(a), U(b)              L(a), L(b)
 *   datatype D             U(fields)               L(fields)
 *   a -> b (identity f)    U(captured variables)   L(captured variables)
 *
 * Components are listed depth first, left to right.  A named function or
 * primitive captures nothing; a lambda captures the local variables free in
 * its body, in order of first occurrence.  A sequence's element type must
 * have at least one component (else "not supported yet"). */
#ifndef NESSLC_FLATTEN_H
#define NESSLC_FLATTEN_H

#include "../frontend/frontend.h"
#include "../lcu/lcu.h"

/* Flat component types of t (unlifted or lifted) appended to *out. */
void flat_layout(Arena *a, Type *t, bool lifted, PtrVec *out);
int flat_arity(Type *t, bool lifted);
/* The nesting of the lifted layout L(t) (LcuLiftShape, lcu.h): for each
 * component, in flat_layout's order, what its length counts: `outer` for
 * the top-level ones (LCU_LIFT_OUTER where L(t) is a list of its own), the
 * index of its sd for a sequence's elements, the first component of L(t)
 * being at index `base` of the enclosing list.  out gets flat_arity(t, true)
 * entries; returns their number. */
int flat_layout_parents(Type *t, int base, int outer, int *out);

/* One top-level form that computes a value (TOP_BIND, TOP_EXPR, quiet library
 * bindings included). */
typedef struct FlatForm {
    TopForm *form;
    Sym fun;                 /* the Flan/λcu function: params are the globals below
                                (U layout each, in order), result U(type of form->expr) */
    int nglobals;
    int *globals;            /* global indices read by the form */
    Span *global_spans;      /* the first reference to each (for "unbound because its
                                definition failed") */
} FlatForm;

typedef struct FlatProgram {
    LcuProgram *flan;        /* Flan form; sites are source positions of checks */
    Span *site_spans;        /* flan->sites[i] as a Span */
    int nforms;
    FlatForm *forms;         /* in program order; forms that compute nothing are absent */
} FlatProgram;

/* Flatten every value form of m.  NULL after a diagnostic (a construct that is
 * "not supported yet"). */
FlatProgram *flatten_program(Compilation *c, const MonoProgram *m);

/* Library calls that the flattener emits for operations that are not SOACs
 * and that the λcu interpreter passes to its hook (the host bridge):
 *
 *   lib nesl_ID "L|ARG|RES" (site, n, args...)   lifted over a context of count n
 *   lib nesl_ID "U|ARG|RES" (site, args...)      unlifted
 *
 * ID is the primitive's identifier in prims.def in lower case (nesl_string,
 * nesl_pad for ||, nesl_rand, ...), ARG/RES the NESL types of its
 * argument and result (type_to_string), args the flat components of the
 * argument (L or U layout), the result likewise.  site indexes flan->sites
 * (-1: none); errors raised by the primitive are reported there. */

/* The local variables a lambda (an EX_LAMBDA) captures: those free in its
 * body, in order of first occurrence, with the types of their first
 * references.  Arrays in a; returns their length. */
int flat_lambda_captures(Arena *a, Expr *lambda, Binder ***out_binders, Type ***out_types);
/* The captures of the closures of function type t (none unless its identity
 * is a lambda), with their concrete types for this instance. */
int flat_closure_captures(Arena *a, Type *fun_type, Binder ***out_binders, Type ***out_types);
/* The concrete field tuple of a (concrete) datatype instance. */
Type *flat_data_fields(Arena *a, Type *data_type);

/* Value descriptors for the C back end's runtime (describe.c, rt/nesl_host.h):
 * of a concrete type, and of a host-bridge tag (the argument's then the
 * result's; NULL if the tag cannot be read). */
char *flat_describe(Arena *a, Type *t);
char *flat_describe_tag(Compilation *c, const MonoProgram *m, const char *tag);

#endif
