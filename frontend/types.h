/* types.h — unification with class bounds, generalisation, instantiation
 * (internal to frontend/). */
#ifndef NESSLC_TYPES_H
#define NESSLC_TYPES_H

#include "frontend.h"

/* Level of quantified variables in a generalised type. */
#define GENERIC_LEVEL (1 << 30)

typedef struct TypeCtx {
    Compilation *c;
    int level;                  /* current let-level: 0 at top level */
} TypeCtx;

Type *tc_fresh(TypeCtx *tc, TypeClass cls);
Type *tc_funid(TypeCtx *tc, FunIdKind k, const void *id);

/* Why a unification failed, for the error message. */
typedef enum { UNIFY_OK, UNIFY_MISMATCH, UNIFY_OCCURS, UNIFY_CLASS, UNIFY_FUNID } UnifyResult;
UnifyResult unify(TypeCtx *tc, Type *a, Type *b);

void generalize(TypeCtx *tc, Type *t);          /* mark variables above tc->level generic */
Type *instantiate(TypeCtx *tc, Type *t);        /* fresh copies of generic variables */
bool type_in_class(Type *t, TypeClass cls);     /* for a non-variable t */
const char *class_name(TypeClass cls);
bool type_has_vars(Type *t);
bool type_equal_concrete(Type *a, Type *b);
bool type_equal_ident(Type *a, Type *b);        /* also function identities */     /* structural, ignoring function identities */

#endif
