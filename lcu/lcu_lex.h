/* lcu_lex.h — the λcu lexer (internal to lcu/). */
#ifndef NESSLC_LCU_LEX_H
#define NESSLC_LCU_LEX_H
#include "lcu.h"

typedef enum {
    TK_EOF, TK_ERROR, TK_IDENT, TK_INTLIT, TK_FLOATLIT, TK_CHARLIT, TK_STRINGLIT,
    TK_KERNEL, TK_FUNCTION, TK_LET, TK_IN, TK_IF, TK_THEN, TK_ELSE, TK_RETURN,
    TK_RUN, TK_USING, TK_TRUE, TK_FALSE, TK_NOT, TK_LIB, TK_SITE, TK_ITERATE, TK_RECUR,
    TK_BOOL, TK_INT, TK_FLOAT, TK_CHAR, TK_UNIT, TK_SD,
    TK_DARROW, TK_ARROW, TK_EQEQ, TK_NE, TK_LE, TK_GE, TK_ANDAND, TK_OROR,
    TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LBRACK, TK_DOTBRACK, TK_RBRACK, TK_COMMA,
    TK_COLON, TK_EQ, TK_LT, TK_GT, TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH,
    TK_PERCENT, TK_HASH, TK_AMP,
} LcuTokKind;

typedef struct LcuTok {
    LcuTokKind kind;
    Span span;
    const char *text;
    size_t len;
    int64_t ival;
    double fval;
} LcuTok;

typedef struct LcuLexer {
    const Source *src;
    Diag *diag;
    size_t pos;
    int line, col;
} LcuLexer;

void lcu_lex_init(LcuLexer *lx, const Source *src, Diag *d);
/* False (after reporting) on a lexical error. */
bool lcu_lex_next(LcuLexer *lx, LcuTok *t);
/* The characters of a (lexically valid) TK_STRINGLIT token, escapes
 * decoded, into out (room for t->len bytes); returns their number. */
int lcu_lex_string(const LcuTok *t, char *out);

#endif
