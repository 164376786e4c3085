/* prims.c — the primitive table (from prims.def) and the operator names. */
#include "prims.h"

const PrimInfo prim_info[PRIM__COUNT] = {
#define PRIM(id, name, arity, sig) [PRIM_##id] = { name, arity, sig },
#include "prims.def"
#undef PRIM
};

/* Serial-only primitives (NESL.md 3.9 item 6, 6.20): file and stdin I/O,
 * rand_seed, the environment.  Calling one inside an apply-to-each, directly
 * or through a function, is a compile-time error.  Terminal output and
 * write_string are allowed in parallel. */
static const bool prim_serial[PRIM__COUNT] = {
    [PRIM_RAND_SEED] = true,
    [PRIM_READ_CHAR] = true,
    [PRIM_READ_STRING] = true,
    [PRIM_OPEN_FILE] = true,
    [PRIM_CLOSE_FILE] = true,
    [PRIM_READ_FILE] = true,
    [PRIM_WRITE_FILE] = true,
    [PRIM_READ_INT_SEQ] = true,
    [PRIM_READ_FLOAT_SEQ] = true,
    [PRIM_GETENV] = true,
    [PRIM_SHELL_COMMAND] = true,
};

static const char *const prim_ids[PRIM__COUNT] = {
#define PRIM(id, name, arity, sig) [PRIM_##id] = #id,
#include "prims.def"
#undef PRIM
};

const char *prim_id_name(int prim)
{
    static char buf[PRIM__COUNT][32];
    char *b = buf[prim];
    if (!b[0]) {
        const char *s = prim_ids[prim];
        int i = 0;
        for (; s[i] && i < 31; i++) b[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
        b[i] = 0;
    }
    return b;
}

bool prim_is_serial(int prim)
{
    return prim >= 0 && prim < PRIM__COUNT && prim_serial[prim];
}

const char *op_function_name(Op op)
{
    switch (op) {
    case OP_OR: return "or";
    case OP_NOR: return "nor";
    case OP_XOR: return "xor";
    case OP_AND: return "and";
    case OP_NAND: return "nand";
    case OP_EQ: return "==";
    case OP_NE: return "/=";
    case OP_LT: return "<";
    case OP_GT: return ">";
    case OP_LE: return "<=";
    case OP_GE: return ">=";
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_APPEND: return "append";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_PAD: return "||";
    case OP_POW: return "^";
    case OP_WRITE: return "write";
    case OP_READ: return "read";
    case OP_LENGTH: return "length";
    case OP_STRING: return "string";
    case OP_NEG: return "negate";
    case OP__COUNT: break;
    }
    return NULL;
}
