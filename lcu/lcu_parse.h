/* lcu_parse.h — the parser's internals, shared by lcu_parse.c (tokens,
 * types, expressions) and lcu_parse_top.c (thunks, SOACs, kernels,
 * functions, sites). */
#ifndef NESSLC_LCU_PARSE_H
#define NESSLC_LCU_PARSE_H
#include "lcu_lex.h"
#include "lcu_internal.h"

typedef struct P {
    Arena *a;
    Interner *in;
    Diag *d;
    LcuLexer lx;
    LcuTok tok, next;     /* one token of lookahead beyond the current */
    bool err;
    int depth;            /* expressions being parsed, nested (lp_expr, unary operators) */
} P;

/* Every phase recurses on λcu expressions, so the parser refuses to nest
 * them deeper than this (parser recursion, and chains of binary operators,
 * which build left-deep trees); the flattener's programs stay far below. */
enum { LCU_NESTING_LIMIT = 5000 };

void lp_shift(P *p);
/* Report "expected WHAT" (once) and return NULL. */
void *lp_fail(P *p, Span sp, const char *what);
bool lp_expect(P *p, LcuTokKind k, const char *what);
Sym lp_ident(P *p, Span *sp);
static inline Span lp_here(P *p) { return p->tok.span; }
#define TRY(x) do { if (!(x) || p->err) return NULL; } while (0)

const LcuType *lp_type(P *p);
/* A string literal's text, escapes decoded, in the arena (*len: its
 * length); no_nul for tags and sites, which are C strings. */
const char *lp_string(P *p, const char *what, bool no_nul, int *len);
/* cpu selects the CPU-level forms (if with blocks). */
LcuExpr *lp_expr(P *p, bool cpu);
LcuExpr *lp_primary(P *p, bool cpu);
LcuExpr *lp_block(P *p);
LcuSoac *lp_soac(P *p);
bool lp_soac_of(Sym s, LcuSoacKind *k);

#endif
