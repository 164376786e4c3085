/* prims_common.h — private to the interpreter's primitives (prims_*.c).
 *
 * Every primitive ID in prims.def has an implementation named p_ID; the
 * declarations and the prim_impls table are generated from prims.def, so a
 * missing implementation is a link error rather than a NULL at run time. */
#ifndef NESSLC_PRIMS_COMMON_H
#define NESSLC_PRIMS_COMMON_H

#include "interp_impl.h"

#define PRIM(id, name, arity, sig) Value p_##id(Interp *I, Value *args, Type *ty, Span where);
#include "../frontend/prims.def"
#undef PRIM

/* Parts of a primitive's instantiated type. */
static inline Type *prim_arg_type(Type *ty) { return type_prune(type_prune(ty)->arg); }
static inline Type *prim_res_type(Type *ty) { return type_prune(type_prune(ty)->res); }
/* The type of the k-th top-level component of an arity-n argument tuple. */
static inline Type *prim_arg_k(Type *ty, int k, int n)
{
    Type *t = prim_arg_type(ty);
    for (int j = 0; j < k && j < n - 1; j++)
        t = type_prune(t->snd);
    return k < n - 1 ? type_prune(t->fst) : t;
}


/* A sequence whose length comes from user data: lengths beyond what the
 * interpreter can hold are a runtime error, not an allocation failure. */
#define PRIM_MAX_SEQ_LEN (1LL << 28)
Seq *prim_new_seq(Interp *I, int64_t n, Span where);

/* A C string of a [char] value, in the heap (NUL-terminated). */
char *prim_cstring(Interp *I, Value s);
/* The status pair (ok, message) of NESL's I/O functions. */
Value prim_status(Interp *I, bool ok, const char *msg);

/* Float identity of max/min scans: the reference's CVL uses a
 * single-precision 1e36, which there comes out as 1.0000000409e36, the float
 * just above 1e36 (NESL.md 6.8). */
#define NESL_FLOAT_BIG 0x1.812f9ep+119

#endif
