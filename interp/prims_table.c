/* prims_table.c — the interpreter's primitive table, generated from
 * prims.def so that every primitive has an entry (a missing p_ID is a link
 * error, never a NULL slot). */
#include "prims_common.h"

const PrimImpl prim_impls[PRIM__COUNT] = {
#define PRIM(id, name, arity, sig) [PRIM_##id] = p_##id,
#include "../frontend/prims.def"
#undef PRIM
};
