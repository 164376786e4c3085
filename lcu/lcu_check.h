/* lcu_check.h — the checker's internals, shared by lcu_check.c (CPU and GPU
 * expressions, programs) and lcu_check_soac.c (thunks, SOACs, kernels). */
#ifndef NESSLC_LCU_CHECK_H
#define NESSLC_LCU_CHECK_H
#include "lcu_internal.h"

typedef struct Env Env;
struct Env { Sym name; const LcuType *type; const Env *next; };

typedef struct Ck {
    Arena *a;
    Interner *in;
    Diag *d;
    LcuProgram *prog;
    const Env *kenv;        /* the enclosing kernel's (or CPU) scope, inside a thunk */
    bool flan;              /* checking an inline SOAC: kenv is the CPU scope */
    const Env *kparams;     /* the kernel being checked: its parameters only */
    LcuExpr *tail;          /* the iterate whose body's tail position the next
                               expression checked is in (where recur may be) */
} Ck;

const Env *ck_env_add(Ck *c, const Env *e, Sym x, const LcuType *t);
const LcuType *ck_env_find(const Env *e, Sym x);
#define TS(t) lcu_type_str(c->a, (t))

static inline bool ck_is_base(const LcuType *t, LcuBase b) { return t->kind == LT_BASE && t->base == b; }
static inline bool ck_is_vec(const LcuType *t) { return t->kind == LT_VEC || t->kind == LT_REF; }
/* τ: a base type or a flat tuple of base types. */
bool ck_is_gpu_type(const LcuType *t);
/* Equal up to [b] ~ &[b] (the transfer of run is implicit). */
bool ck_compat(const LcuType *x, const LcuType *y);

const LcuType *ck_expr(Ck *c, const Env *env, LcuExpr *e, bool cpu);
/* A SOAC over kenv: a kernel's scope, or (c->flan) the CPU scope of an
 * inline SOAC.  Its flat result type; NULL after an error. */
const LcuType *ck_soac(Ck *c, const Env *kenv, LcuSoac *s);
void ck_kernel(Ck *c, LcuKernel *k);
bool ck_dup_names(Ck *c, const char *what, int n, const LcuParam *ps);

#endif
