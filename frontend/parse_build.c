/* parse_build.c — AST construction for the parser's actions, and the entry
 * points parse_program / parse_type_text. */
#include <string.h>
#include "parse_ctx.h"
#include "parser.h"
#include "lexer.h"
#include "parse_build.h"

#define A (pc->c->arena)

/* Grow an arena array of `size`-byte items to hold one more. */
static void *grow(Arena *a, void *items, int len, int *cap, size_t size)
{
    if (len < *cap) return items;
    int ncap = *cap ? *cap * 2 : 4;
    void *n = arena_alloc(a, size * (size_t)ncap);
    if (len) memcpy(n, items, size * (size_t)len);
    *cap = ncap;
    return n;
}

void push_expr(ParseCtx *pc, ExprList *l, Expr *e)
{ l->items = grow(A, l->items, l->len, &l->cap, sizeof *l->items); l->items[l->len++] = e; }
void push_gen(ParseCtx *pc, GenList *l, Generator g)
{ l->items = grow(A, l->items, l->len, &l->cap, sizeof *l->items); l->items[l->len++] = g; }
void push_bind(ParseCtx *pc, BindList *l, LetBind b)
{ l->items = grow(A, l->items, l->len, &l->cap, sizeof *l->items); l->items[l->len++] = b; }
void push_type(ParseCtx *pc, TypeList *l, TypeExpr *t)
{ l->items = grow(A, l->items, l->len, &l->cap, sizeof *l->items); l->items[l->len++] = t; }

void push_ctx(ParseCtx *pc, CtxList *l, Sym var, Sym cls, Span sp)
{
    TypeClass k = CLS_ANY;
    if (!strcmp(cls, "any")) k = CLS_ANY;
    else if (!strcmp(cls, "number")) k = CLS_NUMBER;
    else if (!strcmp(cls, "ordinal")) k = CLS_ORDINAL;
    else if (!strcmp(cls, "logical")) k = CLS_LOGICAL;
    else diag_error(pc->c->diag, sp, "unknown type class '%s' (expected any, number, ordinal or logical)", cls);
    l->items = grow(A, l->items, l->len, &l->cap, sizeof *l->items);
    l->items[l->len++] = (Context){ var, k, sp };
}

Expr *build_var(ParseCtx *pc, Span sp, Sym name)
{
    Expr *e = expr_new(A, EX_VAR, sp);
    e->name = name;
    return e;
}

Expr *build_op1(ParseCtx *pc, Span sp, Op op, Expr *a)
{
    Expr *e = expr_new(A, EX_OP, sp);
    e->op = op; e->args[0] = a; e->nargs = 1;
    return e;
}

static bool is_indexing(const Expr *e)
{
    return e->kind == EX_OP && !e->parenthesized && (e->op == OP_READ || e->op == OP_WRITE);
}

static bool is_additive_or_multiplicative(const Expr *e)
{
    /* Only these operators change meaning between the dialects. */
    return e->kind == EX_OP && !e->parenthesized && e->nargs == 2 &&
           (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_APPEND ||
            e->op == OP_MUL || e->op == OP_DIV || e->op == OP_PAD);
}

/* NESL dialects put `->`/`<-` at different levels (NESL.md 3.2); a mix with
 * arithmetic or `++` without parentheses reads differently in each. */
static void warn_ambiguous_mix(ParseCtx *pc, Span sp, Op op, Expr *a, Expr *b)
{
    const Expr *idx = NULL, *arith = NULL;
    if (op == OP_READ || op == OP_WRITE) {
        if (is_additive_or_multiplicative(a)) arith = a;
        else if (is_additive_or_multiplicative(b)) arith = b;
        if (arith) idx = NULL;
    } else if (op == OP_ADD || op == OP_SUB || op == OP_APPEND || op == OP_MUL || op == OP_DIV || op == OP_PAD) {
        if (is_indexing(a)) idx = a;
        else if (is_indexing(b)) idx = b;
    }
    if (!arith && !idx) return;
    Op inner = arith ? arith->op : idx->op;
    diag_warning(pc->c->diag, sp, "'%s' mixed with '%s' without parentheses; NESL dialects disagree on "
                 "their precedence (this reads as NESL 3.1 does): add parentheses",
                 op_spelling(op), op_spelling(inner));
}

Expr *build_op2(ParseCtx *pc, Span sp, Op op, Expr *a, Expr *b)
{
    warn_ambiguous_mix(pc, sp, op, a, b);
    Expr *e = expr_new(A, EX_OP, sp);
    e->op = op; e->args[0] = a; e->args[1] = b; e->nargs = 2;
    return e;
}

Pattern *build_pattern(ParseCtx *pc, Expr *e)
{
    Pattern *p;
    switch (e->kind) {
    case EX_VAR:
        p = pattern_new(A, PAT_VAR, e->span);
        p->binder = binder_new(A, e->name, e->span);
        return p;
    case EX_PAIR:
        p = pattern_new(A, PAT_PAIR, e->span);
        p->fst = build_pattern(pc, e->a);
        p->snd = build_pattern(pc, e->b);
        return p;
    case EX_APPLY:
        if (e->a->kind == EX_VAR) {
            p = pattern_new(A, PAT_CON, e->span);
            p->con = e->a->name;
            p->sub = build_pattern(pc, e->b);
            return p;
        }
        break;
    case EX_BOOL:
        diag_error(pc->c->diag, e->span, "'%s' is the boolean constant %s and cannot be bound as a variable",
                   e->bval ? "t" : "f", e->bval ? "true" : "false");
        goto recover;
    case EX_INT: case EX_FLOAT: case EX_CHAR: case EX_STRING:
    case EX_IF: case EX_LET: case EX_LAMBDA: case EX_OP: case EX_SUBSCRIPT:
    case EX_EACH: case EX_SEQ: case EX_EMPTY: case EX_RANGE: case EX_TIME:
        break;
    }
    diag_error(pc->c->diag, e->span,
               "expected a pattern (a name, a tuple of patterns or a constructor applied to a pattern)");
recover:
    p = pattern_new(A, PAT_VAR, e->span);
    p->binder = binder_new(A, intern_cstr(pc->c->names, "<error>"), e->span);
    return p;
}

Expr *build_lambda(ParseCtx *pc, Span sp, Expr *pat, Expr *body)
{
    Expr *e = expr_new(A, EX_LAMBDA, sp);
    e->param = build_pattern(pc, pat);
    e->a = body;
    return e;
}

/* `{sqrt(v) : v}` means `v in v`. */
Generator build_short_gen(ParseCtx *pc, Span sp, Sym name)
{
    Generator g;
    g.pat = pattern_new(A, PAT_VAR, sp);
    g.pat->binder = binder_new(A, name, sp);
    g.seq = build_var(pc, sp, name);
    return g;
}

/* Re-read a pattern as the expression that rebuilds its value (the body of
 * `{x in s | c}` is the first generator's pattern). */
static Expr *pattern_as_expr(ParseCtx *pc, Pattern *p)
{
    Expr *e;
    switch (p->kind) {
    case PAT_VAR: return build_var(pc, p->span, p->binder->name);
    case PAT_PAIR:
        e = expr_new(A, EX_PAIR, p->span);
        e->a = pattern_as_expr(pc, p->fst);
        e->b = pattern_as_expr(pc, p->snd);
        return e;
    case PAT_CON:
        e = expr_new(A, EX_APPLY, p->span);
        e->a = build_var(pc, p->span, p->con);
        e->b = pattern_as_expr(pc, p->sub);
        return e;
    }
    ICE("bad pattern kind");
}

Expr *build_each(ParseCtx *pc, Span sp, Expr *body, GenList gens, Expr *filter)
{
    Expr *e = expr_new(A, EX_EACH, sp);
    e->gens = gens.items; e->ngens = gens.len;
    e->b = filter;
    if (!body) {
        body = pattern_as_expr(pc, gens.items[0].pat);
        e->body_from_pattern = true;
    }
    e->a = body;
    return e;
}

TypeExpr *build_type_name(ParseCtx *pc, Span sp, Sym name, TypeExpr **args, int nargs)
{
    TypeExprKind k = TE_NAME;
    if (nargs == 0) {
        if (!strcmp(name, "int")) k = TE_INT;
        else if (!strcmp(name, "float")) k = TE_FLOAT;
        else if (!strcmp(name, "bool")) k = TE_BOOL;
        else if (!strcmp(name, "char")) k = TE_CHAR;
    }
    TypeExpr *t = texpr_new(A, k, sp);
    t->name = name; t->args = args; t->nargs = nargs;
    return t;
}

TopForm *build_fundef(ParseCtx *pc, Span sp, Sym name, Span name_sp, Pattern *param,
                      SigPart sig, const char *doc, Expr *body)
{
    (void)name_sp;
    if (!body && !sig.present) {
        diag_error(pc->c->diag, sp, "function '%s' has neither a body nor a signature "
                   "(a forward declaration needs a signature)", name);
        return NULL;
    }
    FunDecl *f = arena_alloc(A, sizeof *f);
    f->name = name; f->span = sp; f->param = param;
    f->sig = sig.type; f->ctx = sig.ctx; f->nctx = sig.nctx;
    f->doc = doc; f->body = body;
    TopForm *t = arena_alloc(A, sizeof *t);
    t->kind = TOP_FUN; t->span = sp; t->fun = f;
    return t;
}

TopForm *build_datatype(ParseCtx *pc, Span sp, Sym name, TypeExpr **fields, int nfields,
                        Context *ctx, int nctx)
{
    DataDecl *d = arena_alloc(A, sizeof *d);
    d->name = name; d->span = sp;
    d->fields = fields; d->nfields = nfields;
    d->ctx = ctx; d->nctx = nctx;
    TopForm *t = arena_alloc(A, sizeof *t);
    t->kind = TOP_DATA; t->span = sp; t->data = d;
    return t;
}

TopForm *build_topbind(ParseCtx *pc, Span sp, Expr *lhs, Expr *rhs)
{
    TopForm *t = arena_alloc(A, sizeof *t);
    t->kind = TOP_BIND; t->span = sp;
    t->pat = build_pattern(pc, lhs);
    t->expr = rhs;
    return t;
}

TopForm *build_topexpr(ParseCtx *pc, Span sp, Expr *e)
{
    TopForm *t = arena_alloc(A, sizeof *t);
    t->kind = TOP_EXPR; t->span = sp; t->expr = e;
    return t;
}

/* ---------------------------------------------------------------- entry points */

static int run_parser(ParseCtx *pc, int start)
{
    yyscan_t scanner;
    if (yylex_init_extra(pc, &scanner)) ICE("cannot initialise the lexer");
    YY_BUFFER_STATE buf = yy_scan_bytes(pc->src->text, (int)pc->src->len, scanner);
    pc->line = 1; pc->col = 1;
    pc->start_token = start;
    int rc = yyparse(scanner, pc);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    return rc;
}

Program *parse_program(Compilation *c, const Source *src)
{
    ParseCtx pc = { .c = c, .src = src };
    int before = c->diag->nerrors;
    run_parser(&pc, START_PROGRAM);
    /* A form nested too deeply is reported and dropped: no later phase,
     * all of them recursive, ever sees it. */
    int kept = 0;
    for (int i = 0; i < pc.forms.len; i++)
        if (!form_too_deep(&pc, pc.forms.items[i])) pc.forms.items[kept++] = pc.forms.items[i];
    pc.forms.len = kept;
    if (pc.forms.len == 0 && c->diag->nerrors > before) return NULL;
    Program *p = arena_alloc(c->arena, sizeof *p);
    p->forms = (TopForm **)pc.forms.items;
    p->nforms = pc.forms.len;
    return p;
}

TypeExpr *parse_type_text(Compilation *c, const Source *src, Context **ctx, int *nctx)
{
    ParseCtx pc = { .c = c, .src = src };
    int rc = run_parser(&pc, START_TYPE);
    if (rc != 0) return NULL;
    *ctx = pc.type_ctx; *nctx = pc.type_nctx;
    return pc.type_result;
}
