/* parser.y — NESL grammar (NESL.md §2–§4).
 *
 * Precedence follows the reference parser's table (NESL.md 3.2).  `if`, `let`
 * extend as far right as possible, commas included; the body of `=>` stops at
 * a comma.  Patterns are parsed as expressions and converted (pattern
 * syntax is a subset of expression syntax), which keeps the grammar LALR(1)
 * for `x = e` bindings, generators and lambdas. */
%code requires {
#include "parse_ctx.h"
typedef void *yyscan_t;
typedef struct ExprList { Expr **items; int len, cap; } ExprList;
typedef struct GenList { Generator *items; int len, cap; } GenList;
typedef struct BindList { LetBind *items; int len, cap; } BindList;
typedef struct TypeList { TypeExpr **items; int len, cap; } TypeList;
typedef struct CtxList { Context *items; int len, cap; } CtxList;
typedef struct SigPart { TypeExpr *type; Context *ctx; int nctx; bool present; } SigPart;
}

%code {
#include <string.h>
#include "lexer.h"
#include "parse_build.h"

static void yyerror(YYLTYPE *loc, yyscan_t scanner, ParseCtx *pc, const char *msg)
{
    (void)scanner;
    diag_error(pc->c->diag, LOC_SPAN(pc, *loc), "%s", msg);
}
#define SP(l) LOC_SPAN(pc, l)
#define A (pc->c->arena)
}

%define api.pure full
%define parse.error verbose
%locations
%param {yyscan_t scanner}
%parse-param {ParseCtx *pc}

%union {
    int32_t ival;
    double fval;
    bool bval;
    Sym name;
    struct { const char *s; int n; } str;
    Expr *expr;
    TypeExpr *texpr;
    ExprList elist;
    GenList glist;
    BindList blist;
    TypeList tlist;
    CtxList clist;
    SigPart sig;
    Generator gen;
    LetBind bind;
    TopForm *form;
    Pattern *pat;
}

%token START_PROGRAM START_TYPE
%token END_OF_INPUT 0 "end of file"
%token <ival> INT_LIT "integer" CHAR_LIT "character"
%token <fval> FLOAT_LIT "float"
%token <bval> BOOL_LIT "boolean"
%token <str> STRING_LIT "string"
%token <name> NAME "name"
%token FUNCTION "function" DATATYPE "datatype" IF "if" THEN "then" ELSE "else"
%token LET "let" IN "in" TIME "time"
%token AND "and" OR "or" XOR "xor" NOR "nor" NAND "nand"
%token READ_OP "->" WRITE_OP "<-" APPEND_OP "++" EQ_OP "==" NE_OP "/=" LE_OP "<="
%token GE_OP ">=" COLONCOLON "::" PAD_OP "||" LAMBDA_OP "=>"

%type <expr> exp expnc unary postfix primary juxarg each literal opt_filter
%type <elist> elems
%type <glist> gens
%type <gen> gen
%type <blist> binds
%type <bind> bind
%type <texpr> type tyarrow tyatom
%type <tlist> typelist
%type <clist> ctxlist
%type <sig> opt_sig
%type <str> opt_doc
%type <form> toplevel
%type <pat> argpat

/* Loosest first.  LOWEST is the precedence of rules whose last operand
 * should swallow everything to the right (if/let bodies). */
%precedence LOWEST
%precedence ','
%right LAMBDA_OP
%left OR NOR XOR
%left AND NAND
%left EQ_OP NE_OP '<' '>' LE_OP GE_OP
%left '+' '-' APPEND_OP
%left '*' '/' PAD_OP
%left '^'
%left WRITE_OP
%right READ_OP

%start start
/* The one conflict: after `[] name`, a '(' starts the datatype's type
 * arguments (`[] pair(int)`), not an application of the empty sequence. */
%expect 1

%%

start
    : START_PROGRAM program
    | START_TYPE tyarrow opt_ctx_for_type END_OF_INPUT { pc->type_result = $2; }
    ;

opt_ctx_for_type
    : %empty
    | COLONCOLON '(' ctxlist ')' { pc->type_ctx = $3.items; pc->type_nctx = $3.len; }
    ;

program
    : %empty
    | program toplevel term       { if ($2) ptrvec_push(A, &pc->forms, $2); }
    | program error term          { yyerrok; }
    ;

term : ';' | '$' ;

toplevel
    : FUNCTION NAME argpat opt_sig opt_doc '=' exp
        { $$ = build_fundef(pc, SP(@$), $2, SP(@2), $3, $4, $5.s, $7); }
    | FUNCTION NAME argpat opt_sig opt_doc
        { $$ = build_fundef(pc, SP(@$), $2, SP(@2), $3, $4, $5.s, NULL); }
    | DATATYPE NAME '(' typelist ')'
        { $$ = build_datatype(pc, SP(@$), $2, $4.items, $4.len, NULL, 0); }
    | DATATYPE NAME '(' typelist ')' COLONCOLON '(' ctxlist ')'
        { $$ = build_datatype(pc, SP(@$), $2, $4.items, $4.len, $8.items, $8.len); }
    | exp '=' exp
        { $$ = build_topbind(pc, SP(@$), $1, $3); }
    | exp
        { $$ = build_topexpr(pc, SP(@$), $1); }
    ;

argpat
    : NAME              { $$ = build_pattern(pc, build_var(pc, SP(@1), $1)); }
    | '(' exp ')'       { $$ = build_pattern(pc, $2); }
    ;

opt_sig
    : %empty                                   { $$ = (SigPart){0}; }
    | ':' tyarrow                              { $$ = (SigPart){ $2, NULL, 0, true }; }
    | ':' tyarrow COLONCOLON '(' ctxlist ')'   { $$ = (SigPart){ $2, $5.items, $5.len, true }; }
    ;

opt_doc
    : %empty        { $$.s = NULL; $$.n = 0; }
    | STRING_LIT    { $$ = $1; }
    ;

ctxlist
    : NAME IN NAME              { $$ = (CtxList){0}; push_ctx(pc, &$$, $1, $3, SP(@$)); }
    | ctxlist ';' NAME IN NAME  { $$ = $1; push_ctx(pc, &$$, $3, $5, SP(@3)); }
    ;

/* ---- types: `->` binds tighter than `,`; commas only inside parentheses ---- */
tyarrow
    : tyatom                    { $$ = $1; }
    | tyatom READ_OP tyarrow    { $$ = texpr_new(A, TE_FUN, SP(@$)); $$->a = $1; $$->b = $3; }
    ;

tyatom
    : NAME                      { $$ = build_type_name(pc, SP(@1), $1, NULL, 0); }
    | NAME '(' typelist ')'     { $$ = build_type_name(pc, SP(@$), $1, $3.items, $3.len); }
    | '[' type ']'              { $$ = texpr_new(A, TE_SEQ, SP(@$)); $$->a = $2; }
    | '(' type ')'              { $$ = $2; }
    ;

type
    : tyarrow                   { $$ = $1; }
    | tyarrow ',' type          { $$ = texpr_new(A, TE_PAIR, SP(@$)); $$->a = $1; $$->b = $3; }
    ;

typelist
    : tyarrow                   { $$ = (TypeList){0}; push_type(pc, &$$, $1); }
    | typelist ',' tyarrow      { $$ = $1; push_type(pc, &$$, $3); }
    ;

/* ---- expressions ---- */
exp
    : expnc %prec LOWEST        { $$ = $1; }
    | expnc ',' exp             { $$ = expr_new(A, EX_PAIR, SP(@$)); $$->a = $1; $$->b = $3; }
    ;

expnc
    : IF exp THEN exp ELSE exp %prec LOWEST
        { $$ = expr_new(A, EX_IF, SP(@$)); $$->a = $2; $$->b = $4; $$->c = $6; }
    | LET binds IN exp %prec LOWEST
        { $$ = expr_new(A, EX_LET, SP(@$)); $$->binds = $2.items; $$->nbinds = $2.len; $$->a = $4; }
    | LET binds ';' IN exp %prec LOWEST
        { $$ = expr_new(A, EX_LET, SP(@$)); $$->binds = $2.items; $$->nbinds = $2.len; $$->a = $5; }
    | expnc LAMBDA_OP expnc     { $$ = build_lambda(pc, SP(@$), $1, $3); }
    | expnc OR expnc            { $$ = build_op2(pc, SP(@$), OP_OR, $1, $3); }
    | expnc NOR expnc           { $$ = build_op2(pc, SP(@$), OP_NOR, $1, $3); }
    | expnc XOR expnc           { $$ = build_op2(pc, SP(@$), OP_XOR, $1, $3); }
    | expnc AND expnc           { $$ = build_op2(pc, SP(@$), OP_AND, $1, $3); }
    | expnc NAND expnc          { $$ = build_op2(pc, SP(@$), OP_NAND, $1, $3); }
    | expnc EQ_OP expnc         { $$ = build_op2(pc, SP(@$), OP_EQ, $1, $3); }
    | expnc NE_OP expnc         { $$ = build_op2(pc, SP(@$), OP_NE, $1, $3); }
    | expnc '<' expnc           { $$ = build_op2(pc, SP(@$), OP_LT, $1, $3); }
    | expnc '>' expnc           { $$ = build_op2(pc, SP(@$), OP_GT, $1, $3); }
    | expnc LE_OP expnc         { $$ = build_op2(pc, SP(@$), OP_LE, $1, $3); }
    | expnc GE_OP expnc         { $$ = build_op2(pc, SP(@$), OP_GE, $1, $3); }
    | expnc '+' expnc           { $$ = build_op2(pc, SP(@$), OP_ADD, $1, $3); }
    | expnc '-' expnc           { $$ = build_op2(pc, SP(@$), OP_SUB, $1, $3); }
    | expnc APPEND_OP expnc     { $$ = build_op2(pc, SP(@$), OP_APPEND, $1, $3); }
    | expnc '*' expnc           { $$ = build_op2(pc, SP(@$), OP_MUL, $1, $3); }
    | expnc '/' expnc           { $$ = build_op2(pc, SP(@$), OP_DIV, $1, $3); }
    | expnc PAD_OP expnc        { $$ = build_op2(pc, SP(@$), OP_PAD, $1, $3); }
    | expnc '^' expnc           { $$ = build_op2(pc, SP(@$), OP_POW, $1, $3); }
    | expnc WRITE_OP expnc      { $$ = build_op2(pc, SP(@$), OP_WRITE, $1, $3); }
    | expnc READ_OP expnc       { $$ = build_op2(pc, SP(@$), OP_READ, $1, $3); }
    | unary                     { $$ = $1; }
    ;

binds
    : bind                      { $$ = (BindList){0}; push_bind(pc, &$$, $1); }
    | binds ';' bind            { $$ = $1; push_bind(pc, &$$, $3); }
    ;

bind
    : exp '=' exp               { $$.pat = build_pattern(pc, $1); $$.value = $3; }
    ;

/* Prefix operators take a postfix operand: -x^2 = (-x)^2, #a[i] = #(a[i]). */
unary
    : '-' unary    { $$ = build_op1(pc, SP(@$), OP_NEG, $2); }
    | '#' unary    { $$ = build_op1(pc, SP(@$), OP_LENGTH, $2); }
    | '@' unary    { $$ = build_op1(pc, SP(@$), OP_STRING, $2); }
    | postfix                   { $$ = $1; }
    ;

postfix
    : primary                   { $$ = $1; }
    | postfix '[' exp ']'       { $$ = expr_new(A, EX_SUBSCRIPT, SP(@$)); $$->a = $1; $$->b = $3; }
    | postfix '(' exp ')'       { $$ = expr_new(A, EX_APPLY, SP(@$)); $$->a = $1; $$->b = $3; }
    | postfix '(' ')'
        { diag_error(pc->c->diag, SP(@2), "a function takes exactly one argument; '()' is not a value");
          $$ = $1; }
    | postfix juxarg            { $$ = expr_new(A, EX_APPLY, SP(@$)); $$->a = $1; $$->b = $2; }
    ;

/* Juxtaposition (NESL.md 3.5): an operand that cannot continue the function
 * expression any other way is its argument: `not x`, `(float) n`. */
juxarg
    : NAME                      { $$ = build_var(pc, SP(@1), $1); }
    | literal                   { $$ = $1; }
    | each                      { $$ = $1; }
    ;

primary
    : NAME                      { $$ = build_var(pc, SP(@1), $1); }
    | literal                   { $$ = $1; }
    | '(' exp ')'               { $$ = $2; $$->span = SP(@$); $$->parenthesized = true; }
    | TIME '(' exp ')'          { $$ = expr_new(A, EX_TIME, SP(@$)); $$->a = $3; }
    | each                      { $$ = $1; }
    | '[' elems ']'             { $$ = expr_new(A, EX_SEQ, SP(@$)); $$->elems = $2.items; $$->nelems = $2.len; }
    | '[' ']' tyatom            { $$ = expr_new(A, EX_EMPTY, SP(@$)); $$->texpr = $3; }
    | '[' expnc ':' expnc ']'   { $$ = expr_new(A, EX_RANGE, SP(@$)); $$->a = $2; $$->b = $4; }
    | '[' expnc ':' expnc ':' expnc ']'
        { $$ = expr_new(A, EX_RANGE, SP(@$)); $$->a = $2; $$->b = $4; $$->c = $6; }
    ;

literal
    : INT_LIT       { $$ = expr_new(A, EX_INT, SP(@$)); $$->ival = $1; }
    | FLOAT_LIT     { $$ = expr_new(A, EX_FLOAT, SP(@$)); $$->fval = $1; }
    | BOOL_LIT      { $$ = expr_new(A, EX_BOOL, SP(@$)); $$->bval = $1; }
    | CHAR_LIT      { $$ = expr_new(A, EX_CHAR, SP(@$)); $$->ival = $1; }
    | STRING_LIT    { $$ = expr_new(A, EX_STRING, SP(@$)); $$->str = $1.s; $$->slen = $1.n; }
    ;

elems
    : expnc                     { $$ = (ExprList){0}; push_expr(pc, &$$, $1); }
    | elems ',' expnc           { $$ = $1; push_expr(pc, &$$, $3); }
    ;

/* Apply-to-each.  `{e : gens | c}`, and `{gens | c}` whose body is the first
 * generator's pattern. */
each
    : '{' exp ':' gens opt_filter '}'   { $$ = build_each(pc, SP(@$), $2, $4, $5); }
    | '{' gens opt_filter '}'           { $$ = build_each(pc, SP(@$), NULL, $2, $3); }
    ;

opt_filter
    : %empty        { $$ = NULL; }
    | '|' exp       { $$ = $2; }
    ;

gens
    : gen               { $$ = (GenList){0}; push_gen(pc, &$$, $1); }
    | gens ';' gen      { $$ = $1; push_gen(pc, &$$, $3); }
    ;

gen
    : exp IN exp        { $$.pat = build_pattern(pc, $1); $$.seq = $3; }
    | NAME              { $$ = build_short_gen(pc, SP(@1), $1); }
    ;

%%
