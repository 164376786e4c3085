/* lcu_interp.h — interpreter internals shared by lcu_interp.c (GPU level),
 * lcu_soac.c (kernels), lcu_run.c (CPU level), lcu_lib.c (library kernels),
 * lcu_api.c (the public API) and lcu_mem.c (memory). */
#ifndef NESSLC_LCU_INTERP_H
#define NESSLC_LCU_INTERP_H
#include <setjmp.h>
#include "lcu_internal.h"

/* ---- memory (lcu_mem.c) ----
 * Values live in arenas with a stack discipline: each CPU function call,
 * kernel run and inline SOAC gets its own, and its result is adopted by the
 * arena below (copied, or for a large block, handed over) before it is
 * freed.  Values of an arena below the top are never modified. */
typedef struct LArena LArena;
LArena *larena_new(void);
void larena_free(LArena *a);
void *larena_alloc(LArena *a, size_t n);   /* zeroed, 16-byte aligned */
/* v with everything that lives in `from` moved to `to`; parts that live
 * elsewhere (older arenas) are shared. */
LcuVal *larena_adopt(LArena *from, LArena *to, LcuVal *v);

/* Kernel-level variables: one stack of slots; scalars are stored on a
 * scalar stack (n components from off), vectors and sds are referenced. */
typedef struct Slot { Sym name; int n, off; const LcuVal *ref; } Slot;

typedef struct BCache { const LcuExpr *key; const LcuBuiltin *b; } BCache;

struct LcuInterp {
    const LcuProgram *prog;
    FILE *out, *err;
    LcuStats *stats, own_stats;
    LcuLibHook hook;
    void *hook_ctx;
    LArena **arenas;          /* [0]: long-lived (API values, results); top: current */
    int narenas, carenas;
    bool running;             /* inside lcu_interp_call */
    jmp_buf jb;
    Slot *slots; int nslots, cslots, base;
    LcuScalar *sc; int nsc, csc;
    int depth;
    bool flan;                /* in an inline SOAC: thunks without `using` see all its slots */
    bool guarded;             /* lcu_interp_set_guarded: the program was flattened from NESL */
    LcuFailure failure;       /* why the last lcu_interp_call failed */
    BCache *bc; int nbc, cbc; /* resolved scalar builtin calls, by expression */
    LcuScalar *recur_to;      /* the innermost iterate's next values (recur writes them) */
    bool recurred;            /* its body just ended in recur */
};

/* Allocation in the current (top) arena. */
void *li_alloc(LcuInterp *I, size_t n);
void li_push_arena(LcuInterp *I);
/* Free the top arena after moving v (its result) to the arena below. */
LcuVal *li_pop_arena(LcuInterp *I, LcuVal *v);

/* Failures unwind to the current lcu_interp_call (lcu.h, LcuFailure):
 *   li_fail       a runtime error of the program whatever produced it (a
 *                 resource limit, a failed check): "RUNTIME ERROR: ..."
 *   li_unguarded  an error that flattened NESL code guards with check()
 *                 (index out of range, division by zero, ...): a runtime
 *                 error in a λcu program, an internal error in a guarded one
 *   li_internal   a state no checked program reaches: an internal error,
 *                 "nesslc: internal error: ..."
 *   li_abort      a failure already reported (check(), the hook). */
_Noreturn void li_fail(LcuInterp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void li_unguarded(LcuInterp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void li_internal(LcuInterp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void li_abort(LcuInterp *I, LcuFailure why);

int lcu_val_arity(const LcuVal *v);
LcuVal *lcu_val_comp(LcuVal *v, int i);
/* Whether v is a value of type t ([b] and &[b] alike). */
bool li_val_has_type(const LcuVal *v, const LcuType *t);

/* ---- GPU level (lcu_interp.c) ---- */
void li_push(LcuInterp *I, Sym name, int n, const LcuScalar *s, const LcuVal *ref);
void li_pop_to(LcuInterp *I, int nslots);
const Slot *li_find(LcuInterp *I, Sym x);
LcuScalar li_binop(LcuInterp *I, LcuBinop op, LcuBase b, LcuScalar x, LcuScalar y);
LcuScalar li_unop(LcuInterp *I, LcuUnop op, LcuBase from, LcuScalar x);
LcuScalar li_index(LcuInterp *I, const LcuVal *v, Sym name, int64_t i);
LcuScalar li_index_at(LcuInterp *I, const LcuVal *v, const LcuExpr *e, int64_t i);   /* e: an LE_INDEX */
/* The scalar builtin of a checked call (by its argument types). */
const LcuBuiltin *li_builtin(LcuInterp *I, const LcuExpr *call);
LcuScalar li_apply_builtin(LcuInterp *I, const LcuBuiltin *b, const LcuScalar *args);
void li_eval_gpu(LcuInterp *I, const LcuExpr *e, LcuScalar *out);
void li_call_thunk(LcuInterp *I, const LcuThunk *t, const LcuScalar *args, LcuScalar *out);

/* ---- kernels (lcu_soac.c) ---- */
/* Run kernel k on argument values; its (flat) result in the current arena. */
LcuVal *li_run_kernel(LcuInterp *I, const LcuKernel *k, LcuVal **args);
/* The CPU variables an inline SOAC reads (free in its thunks and value
 * arguments, or listed in `using`), each once; *n gets their number. */
Sym *li_soac_free_vars(LcuInterp *I, const LcuSoac *s, int *n);
/* Run an inline SOAC whose free variables have the values vals. */
LcuVal *li_run_soac(LcuInterp *I, const LcuSoac *s, const LcuType *result, int nfree, Sym *names, LcuVal **vals);
int64_t li_sd_total(const LcuVal *sd);

/* ---- CPU level (lcu_run.c), library calls (lcu_lib.c) ---- */
LcuVal *li_call_fun(LcuInterp *I, const LcuFun *f, LcuVal **args);
LcuVal *li_lib_call(LcuInterp *I, const LcuExpr *e, int nargs, LcuVal **args);
void li_print_val(FILE *out, const LcuVal *v);

#endif
