/* lcu_interp.h — interpreter internals shared by lcu_interp*.c. */
#ifndef NESSLC_LCU_INTERP_H
#define NESSLC_LCU_INTERP_H
#include <setjmp.h>
#include "lcu_internal.h"

typedef union Scalar { int64_t i; double f; } Scalar;   /* bool, char, unit in i */

typedef enum { V_SCALAR, V_TUPLE, V_VEC, V_SD } ValKind;
typedef struct Val Val;
struct Val {
    ValKind kind;
    LcuBase base;       /* V_SCALAR, V_VEC */
    Scalar s;           /* V_SCALAR */
    int n;              /* V_TUPLE: flat components */
    Val **elems;
    int64_t len;        /* V_VEC: elements; V_SD: segments */
    Scalar *data;       /* V_VEC: elements; V_SD: segment lengths (i) */
};

typedef struct Slot { Sym name; int n, off; const Val *ref; } Slot;

typedef struct LI {
    Arena *a;
    const LcuProgram *prog;
    FILE *err;
    LcuStats *stats;
    jmp_buf jb;
    Slot *slots; int nslots, cslots, base;
    Scalar *sc; int nsc, csc;
    int depth;
} LI;

_Noreturn void li_fail(LI *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void li_push(LI *I, Sym name, int n, const Scalar *s, const Val *ref);
const Slot *li_find(LI *I, Sym x);
Scalar li_binop(LI *I, LcuBinop op, LcuBase b, Scalar x, Scalar y);
Scalar li_unop(LI *I, LcuUnop op, LcuBase from, Scalar x);
Scalar li_index(LI *I, const Val *v, Sym name, int64_t i);
void li_eval_gpu(LI *I, const LcuExpr *e, Scalar *out);
void li_call_thunk(LI *I, const LcuThunk *t, const Scalar *args, Scalar *out);
/* Run kernel k on argument values; the result is a flat list of values. */
Val **li_run_kernel(LI *I, const LcuKernel *k, Val **args);
Val *li_vec(LI *I, LcuBase b, int64_t len);

#endif
