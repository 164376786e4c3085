/* lcu_internal.h — helpers shared by the λcu phase's own files. */
#ifndef NESSLC_LCU_INTERNAL_H
#define NESSLC_LCU_INTERNAL_H
#include "lcu.h"

void lcu_print_type(FILE *out, const LcuType *t);
void lcu_print_expr(FILE *out, const LcuExpr *e);
void lcu_format_float(char *buf, size_t n, double x);
/* One character of a char ('...') or string ("...") literal, escaped as
 * the lexer reads it back: \n \t \\ \' or \" (the quote), \xHH. */
void lcu_print_char_escaped(FILE *out, int c, char quote);
const char *lcu_binop_text(LcuBinop op);
int lcu_binop_prec(LcuBinop op);
/* Type rendered into an arena string, for diagnostics. */
const char *lcu_type_str(Arena *a, const LcuType *t);

/* ---- scalar builtins (lcu_builtins.c): the table behind f(args) ---- */
typedef enum {
    LBI_REM, LBI_MOD, LBI_LSHIFT, LBI_RSHIFT, LBI_BAND, LBI_BOR, LBI_BXOR, LBI_BNOT,
    LBI_IPOW, LBI_FPOW, LBI_ISQRT,
    LBI_SQRT, LBI_LN, LBI_EXP, LBI_SIN, LBI_COS, LBI_TAN, LBI_ASIN, LBI_ACOS, LBI_ATAN,
    LBI_SINH, LBI_COSH, LBI_TANH, LBI_FABS, LBI_EXPT,
    LBI_TRUNC, LBI_FLOOR, LBI_CEIL, LBI_ROUND, LBI_CODE_CHAR, LBI_CHAR_CODE, LBI_BTOI,
    LBI_IMIN, LBI_IMAX, LBI_FMIN, LBI_FMAX, LBI_CMIN, LBI_CMAX, LBI_IABS,
    LBI_GUARD, LBI_DIV_IN, LBI_POS_IN,
} LcuBuiltinId;

typedef struct LcuBuiltin {
    const char *name;
    LcuBuiltinId id;
    int nargs;
    LcuBase args[3];
    LcuBase result;
} LcuBuiltin;

/* The version of `name` taking these argument types; NULL if none does. */
const LcuBuiltin *lcu_builtin_find(const char *name, int nargs, const LcuBase *args);
bool lcu_builtin_exists(const char *name);
/* Its signatures for diagnostics: "(int, int), (float, float) or (char, char)". */
const char *lcu_builtin_sigs(Arena *a, const char *name);
/* Apply to valid arguments; *err gets a message (and the result is 0) for
 * the inputs that would be C undefined behaviour: rem/mod by zero, isqrt of
 * a negative. */
LcuScalar lcu_builtin_apply(const LcuBuiltin *b, const LcuScalar *args, const char **err);


/* Library kernels of the interpreter itself (LE_LIB with tag ""). */
typedef enum { LLIB_NONE, LLIB_RANK_UP, LLIB_RANK_DOWN, LLIB_SEG_RANK_UP, LLIB_SEG_RANK_DOWN, LLIB_CLOCK } LcuLibKind;
LcuLibKind lcu_lib_kind(const char *name, const char *tag);

#endif
