/* parse_build.h — AST construction helpers called from parser.y's actions. */
#ifndef NESSLC_PARSE_BUILD_H
#define NESSLC_PARSE_BUILD_H

#include "parser.h"

Expr *build_var(ParseCtx *pc, Span sp, Sym name);
Expr *build_op1(ParseCtx *pc, Span sp, Op op, Expr *a);
Expr *build_op2(ParseCtx *pc, Span sp, Op op, Expr *a, Expr *b);
Expr *build_lambda(ParseCtx *pc, Span sp, Expr *pat, Expr *body);
Expr *build_each(ParseCtx *pc, Span sp, Expr *body, GenList gens, Expr *filter);
Generator build_short_gen(ParseCtx *pc, Span sp, Sym name);
Pattern *build_pattern(ParseCtx *pc, Expr *e);     /* expression syntax -> pattern */
TypeExpr *build_type_name(ParseCtx *pc, Span sp, Sym name, TypeExpr **args, int nargs);
TopForm *build_fundef(ParseCtx *pc, Span sp, Sym name, Span name_sp, Pattern *param,
                      SigPart sig, const char *doc, Expr *body);
TopForm *build_datatype(ParseCtx *pc, Span sp, Sym name, TypeExpr **fields, int nfields,
                        Context *ctx, int nctx);
TopForm *build_topbind(ParseCtx *pc, Span sp, Expr *lhs, Expr *rhs);
TopForm *build_topexpr(ParseCtx *pc, Span sp, Expr *e);

/* Whether f nests deeper than the limit (reported; parse_depth.c). */
bool form_too_deep(ParseCtx *pc, const TopForm *f);

void push_expr(ParseCtx *pc, ExprList *l, Expr *e);
void push_gen(ParseCtx *pc, GenList *l, Generator g);
void push_bind(ParseCtx *pc, BindList *l, LetBind b);
void push_type(ParseCtx *pc, TypeList *l, TypeExpr *t);
void push_ctx(ParseCtx *pc, CtxList *l, Sym var, Sym cls, Span sp);

#endif
