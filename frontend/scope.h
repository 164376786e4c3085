/* scope.h — global name tables (internal to frontend/). */
#ifndef NESSLC_SCOPE_H
#define NESSLC_SCOPE_H

#include "frontend.h"

/* What a global name denotes. */
typedef enum { ENT_FUN, ENT_PRIM, ENT_CON, ENT_GLOBAL } EntityKind;
typedef struct Entity {
    EntityKind kind;
    FunDecl *fun;       /* ENT_FUN */
    int prim;           /* ENT_PRIM */
    Type *type;         /* ENT_PRIM, ENT_CON: generalised type */
    DataDecl *data;     /* ENT_CON */
    Binder *binder;     /* ENT_GLOBAL */
} Entity;

Scope *scope_new(void);
void scope_free(Scope *s);
void scope_put_value(Scope *s, Sym name, Entity *e);
Entity *scope_get_value(const Scope *s, Sym name);
void scope_put_type(Scope *s, Sym name, DataDecl *d);
DataDecl *scope_get_type(const Scope *s, Sym name);

#endif
