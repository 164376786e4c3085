/* lcu_internal.h — helpers shared by the λcu phase's own files. */
#ifndef NESSLC_LCU_INTERNAL_H
#define NESSLC_LCU_INTERNAL_H
#include "lcu.h"

void lcu_print_type(FILE *out, const LcuType *t);
void lcu_print_expr(FILE *out, const LcuExpr *e);
void lcu_format_float(char *buf, size_t n, double x);
const char *lcu_binop_text(LcuBinop op);
int lcu_binop_prec(LcuBinop op);
/* Type rendered into an arena string, for diagnostics. */
const char *lcu_type_str(Arena *a, const LcuType *t);

#endif
