/* check_impl.h — the checker's state (internal to frontend/). */
#ifndef NESSLC_CHECK_IMPL_H
#define NESSLC_CHECK_IMPL_H

#include "frontend.h"
#include "prims.h"
#include "scope.h"
#include "types.h"

typedef struct LocalEntry { Sym name; Binder *binder; } LocalEntry;

typedef struct Checker {
    Compilation *c;
    TypeCtx tc;
    Scope *user;                /* the user's globals; NULL while checking the library */
    bool in_prelude;
    LocalEntry *locals; int nlocals, caplocals;
    int nslots;                 /* frame slots allocated in the current function/form */
    PtrVec lambdas;             /* lambdas of the current frame (they share its size) */
    FunDecl *current_fn;        /* the function whose body is being checked */
    Type *current_fn_type;      /* its monomorphic type, used by recursive calls */
    PtrVec forwards;            /* forward declarations, to check they get defined */
    int each_depth;             /* apply-to-each bodies around the current expression */
} Checker;

Type *check_expr(Checker *ck, Expr *e);
void ck_bind_pattern(Checker *ck, Pattern *p, Type *t, bool global);
Entity *lookup_global(Checker *ck, Sym name);
DataDecl *lookup_datatype(Checker *ck, Sym name);
/* A fresh instance of datatype d: its field tuple type and its own type. */
void datatype_instance(Checker *ck, DataDecl *d, Type **field, Type **self);
/* Type syntax to a type.  Names in ctx become the given variables; with
 * `free_vars`, other unknown lower-case names become fresh variables. */
Type *convert_texpr(Checker *ck, TypeExpr *te, Context *ctx, int nctx, bool free_vars);

char *show_type(Checker *ck, Type *t);
void type_error(Checker *ck, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool expect_type(Checker *ck, Span sp, Type *actual, Type *expected, const char *what);

#endif
