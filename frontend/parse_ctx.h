/* parse_ctx.h — state shared by the Flex lexer and the Bison parser (internal
 * to frontend/).  The lexer is reentrant: all of its state lives here and in
 * the yyscan_t, none in globals. */
#ifndef NESSLC_PARSE_CTX_H
#define NESSLC_PARSE_CTX_H

#include "frontend.h"

typedef struct ParseCtx {
    Compilation *c;
    const Source *src;
    int line, col;          /* position of the next character to scan */
    int start_token;        /* first token to hand the parser (selects program or type) */
    PtrVec forms;           /* parsed top-level forms */
    TypeExpr *type_result;  /* parse_type_text result */
    Context *type_ctx; int type_nctx;
    int lex_errors;
} ParseCtx;

/* Build a Span from Bison's location. */
#define LOC_SPAN(pc, l) ((Span){ (pc)->src, (l).first_line, (l).first_column, (l).last_line, (l).last_column })

#endif
