/* lcu_parse.c — recursive-descent parser for the λcu text form.
 * Stops at the first syntax error (the text is machine- or test-written, so
 * recovery buys little); every path returns NULL rather than crashing. */
#include <string.h>
#include "lcu_lex.h"
#include "lcu_internal.h"

typedef struct P {
    Arena *a;
    Interner *in;
    Diag *d;
    LcuLexer lx;
    LcuTok tok, next;     /* one token of lookahead beyond the current */
    bool err;
} P;

static void shift(P *p)
{
    p->tok = p->next;
    if (p->tok.kind == TK_ERROR || p->tok.kind == TK_EOF) { p->next = p->tok; return; }
    if (!lcu_lex_next(&p->lx, &p->next)) p->err = true;
}

static void *fail(P *p, Span sp, const char *what)
{
    if (!p->err) {
        if (p->tok.kind == TK_EOF) diag_error(p->d, sp, "expected %s, found end of file", what);
        else diag_error(p->d, sp, "expected %s, found '%.*s'", what, (int)p->tok.len, p->tok.text);
    }
    p->err = true;
    return NULL;
}

static bool expect(P *p, LcuTokKind k, const char *what)
{
    if (p->err) return false;
    if (p->tok.kind != k) { fail(p, p->tok.span, what); return false; }
    shift(p);
    return !p->err;
}

static Sym ident(P *p, Span *sp)
{
    if (p->err) return NULL;
    if (p->tok.kind != TK_IDENT) return fail(p, p->tok.span, "a name");
    Sym s = intern(p->in, p->tok.text, p->tok.len);
    if (sp) *sp = p->tok.span;
    shift(p);
    return s;
}

static Span here(P *p) { return p->tok.span; }

#define TRY(x) do { if (!(x) || p->err) return NULL; } while (0)

/* ---- types ---- */
static bool base_of(LcuTokKind k, LcuBase *b)
{
    switch (k) {
    case TK_BOOL: *b = LB_BOOL; return true;
    case TK_INT: *b = LB_INT; return true;
    case TK_FLOAT: *b = LB_FLOAT; return true;
    case TK_CHAR: *b = LB_CHAR; return true;
    case TK_UNIT: *b = LB_UNIT; return true;
    default: return false;
    }
}

static const LcuType *parse_type(P *p)
{
    LcuBase b;
    if (base_of(p->tok.kind, &b)) { shift(p); return lcu_t_base(p->a, b); }
    if (p->tok.kind == TK_SD) { shift(p); return lcu_t_sd(p->a); }
    bool ref = p->tok.kind == TK_AMP;
    if (ref) shift(p);
    if (p->tok.kind == TK_LBRACK) {
        shift(p);
        if (!base_of(p->tok.kind, &b)) return fail(p, here(p), "a base type (bool, int, float, char, unit)");
        shift(p);
        TRY(expect(p, TK_RBRACK, "']'"));
        return ref ? lcu_t_ref(p->a, b) : lcu_t_vec(p->a, b);
    }
    if (ref) return fail(p, here(p), "'[' after '&'");
    if (p->tok.kind == TK_LPAREN) {
        shift(p);
        PtrVec v = { 0 };
        do {
            const LcuType *t = parse_type(p);
            TRY(t);
            ptrvec_push(p->a, &v, (void *)t);
        } while (p->tok.kind == TK_COMMA && (shift(p), true));
        TRY(expect(p, TK_RPAREN, "',' or ')'"));
        return lcu_t_tuple(p->a, v.len, (const LcuType **)v.items);
    }
    return fail(p, here(p), "a type");
}

/* ---- expressions; cpu selects the CPU-level forms (blocks, run, calls) ---- */
static LcuExpr *parse_expr(P *p, bool cpu);
static LcuExpr *parse_block(P *p);

static bool parse_expr_list(P *p, bool cpu, LcuTokKind close, const char *what, PtrVec *v)
{
    if (p->tok.kind != close) {
        do {
            LcuExpr *e = parse_expr(p, cpu);
            if (!e || p->err) return false;
            ptrvec_push(p->a, v, e);
        } while (p->tok.kind == TK_COMMA && (shift(p), true));
    }
    return expect(p, close, what);
}

static LcuExpr *parse_primary(P *p, bool cpu)
{
    Span sp = here(p);
    switch (p->tok.kind) {
    case TK_INTLIT: { int64_t v = p->tok.ival; shift(p); return lcu_e_int(p->a, sp, v); }
    case TK_FLOATLIT: { double v = p->tok.fval; shift(p); return lcu_e_float(p->a, sp, v); }
    case TK_CHARLIT: { int64_t v = p->tok.ival; shift(p); return lcu_e_char(p->a, sp, v); }
    case TK_TRUE: shift(p); return lcu_e_bool(p->a, sp, true);
    case TK_FALSE: shift(p); return lcu_e_bool(p->a, sp, false);
    case TK_FLOAT: case TK_INT: {
        LcuUnop op = p->tok.kind == TK_FLOAT ? LUOP_TO_FLOAT : LUOP_TO_INT;
        shift(p);
        TRY(expect(p, TK_LPAREN, "'(' after a conversion"));
        LcuExpr *e = parse_expr(p, cpu);
        TRY(e);
        TRY(expect(p, TK_RPAREN, "')'"));
        return lcu_e_unop(p->a, sp, op, e);
    }
    case TK_HASH: {
        shift(p);
        bool paren = p->tok.kind == TK_LPAREN;
        if (paren) shift(p);
        Sym x = ident(p, NULL);
        TRY(x);
        if (paren) TRY(expect(p, TK_RPAREN, "')'"));
        return lcu_e_len(p->a, sp, x, paren);
    }
    case TK_LPAREN: {
        shift(p);
        if (p->tok.kind == TK_RPAREN) { shift(p); return lcu_e_unit(p->a, sp); }
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        if (v.len == 1) return v.items[0];
        return lcu_e_tuple(p->a, sp, v.len, (LcuExpr **)v.items);
    }
    case TK_LBRACK: {
        shift(p);
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RBRACK, "',' or ']'", &v));
        if (v.len == 0) return fail(p, sp, "an element (empty vector literals are not supported yet)");
        return lcu_e_veclit(p->a, sp, v.len, (LcuExpr **)v.items);
    }
    case TK_LBRACE:
        if (cpu) return parse_block(p);
        return fail(p, sp, "an expression");
    case TK_RUN: {
        shift(p);
        Sym k = ident(p, NULL);
        TRY(k);
        TRY(expect(p, TK_LPAREN, "'(' before kernel arguments"));
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        return lcu_e_run(p->a, sp, k, v.len, (LcuExpr **)v.items);
    }
    case TK_IDENT: {
        Span xs;
        Sym x = ident(p, &xs);
        TRY(x);
        if (p->tok.kind == TK_LBRACK) {
            shift(p);
            LcuExpr *i = parse_expr(p, cpu);
            TRY(i);
            TRY(expect(p, TK_RBRACK, "']'"));
            return lcu_e_index(p->a, sp, x, xs, i);
        }
        if (cpu && p->tok.kind == TK_LPAREN) {
            shift(p);
            PtrVec v = { 0 };
            TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
            return lcu_e_call(p->a, sp, x, v.len, (LcuExpr **)v.items);
        }
        return lcu_e_var(p->a, sp, x);
    }
    default:
        return fail(p, sp, "an expression");
    }
}

static LcuExpr *parse_unary(P *p, bool cpu)
{
    Span sp = here(p);
    if (p->tok.kind == TK_MINUS) {
        shift(p);
        /* -3 is one literal, so that negative constants print and re-read alike. */
        if (p->tok.kind == TK_INTLIT) { int64_t v = p->tok.ival; shift(p); return lcu_e_int(p->a, sp, -v); }
        if (p->tok.kind == TK_FLOATLIT) { double v = p->tok.fval; shift(p); return lcu_e_float(p->a, sp, -v); }
        LcuExpr *e = parse_unary(p, cpu);
        TRY(e);
        return lcu_e_unop(p->a, sp, LUOP_NEG, e);
    }
    if (p->tok.kind == TK_NOT) {
        shift(p);
        LcuExpr *e = parse_unary(p, cpu);
        TRY(e);
        return lcu_e_unop(p->a, sp, LUOP_NOT, e);
    }
    return parse_primary(p, cpu);
}

static bool binop_of(LcuTokKind k, LcuBinop *op)
{
    switch (k) {
    case TK_PLUS: *op = LOP_ADD; return true;
    case TK_MINUS: *op = LOP_SUB; return true;
    case TK_STAR: *op = LOP_MUL; return true;
    case TK_SLASH: *op = LOP_DIV; return true;
    case TK_PERCENT: *op = LOP_MOD; return true;
    case TK_EQEQ: *op = LOP_EQ; return true;
    case TK_NE: *op = LOP_NE; return true;
    case TK_LT: *op = LOP_LT; return true;
    case TK_LE: *op = LOP_LE; return true;
    case TK_GT: *op = LOP_GT; return true;
    case TK_GE: *op = LOP_GE; return true;
    case TK_ANDAND: *op = LOP_AND; return true;
    case TK_OROR: *op = LOP_OR; return true;
    default: return false;
    }
}

/* Precedence climbing over levels 1 (||) .. 5 (* / %). */
static LcuExpr *parse_binary(P *p, bool cpu, int min)
{
    LcuExpr *l = parse_unary(p, cpu);
    TRY(l);
    LcuBinop op;
    while (binop_of(p->tok.kind, &op) && lcu_binop_prec(op) >= min) {
        int prec = lcu_binop_prec(op);
        Span sp = here(p);
        shift(p);
        LcuExpr *r = parse_binary(p, cpu, prec + 1);
        TRY(r);
        l = lcu_e_binop(p->a, sp, op, l, r);
        if (prec == 3 && binop_of(p->tok.kind, &op) && lcu_binop_prec(op) == 3)
            return fail(p, here(p), "parentheses around a chained comparison");
    }
    return l;
}

/* let-bound names: x | (x, y); with types (x : t) at the CPU level. */
static LcuBind *parse_bind_lhs(P *p, bool typed)
{
    Span sp = here(p);
    PtrVec vars = { 0 }, types = { 0 };
    bool paren = p->tok.kind == TK_LPAREN;
    if (paren) shift(p);
    do {
        Sym x = ident(p, NULL);
        TRY(x);
        ptrvec_push(p->a, &vars, (void *)x);
        if (typed) {
            TRY(expect(p, TK_COLON, "':' and a type (CPU-level lets are typed)"));
            const LcuType *t = parse_type(p);
            TRY(t);
            ptrvec_push(p->a, &types, (void *)t);
        }
    } while (paren && p->tok.kind == TK_COMMA && (shift(p), true));
    if (paren) TRY(expect(p, TK_RPAREN, "',' or ')'"));
    TRY(expect(p, TK_EQ, "'='"));
    return lcu_bind(p->a, sp, vars.len, (Sym *)vars.items,
                    typed ? (const LcuType **)types.items : NULL, NULL);
}

static LcuExpr *parse_expr(P *p, bool cpu)
{
    Span sp = here(p);
    if (p->tok.kind == TK_IF) {
        shift(p);
        LcuExpr *c = parse_expr(p, cpu);
        TRY(c);
        TRY(expect(p, TK_THEN, "'then'"));
        LcuExpr *t = cpu ? parse_block(p) : parse_expr(p, cpu);
        TRY(t);
        TRY(expect(p, TK_ELSE, "'else'"));
        LcuExpr *e = cpu ? parse_block(p) : parse_expr(p, cpu);
        TRY(e);
        return lcu_e_if(p->a, sp, c, t, e);
    }
    if (p->tok.kind == TK_LET && !cpu) {
        shift(p);
        LcuBind *b = parse_bind_lhs(p, false);
        TRY(b);
        b->rhs = parse_expr(p, cpu);
        TRY(b->rhs);
        TRY(expect(p, TK_IN, "'in'"));
        LcuExpr *body = parse_expr(p, cpu);
        TRY(body);
        return lcu_e_let(p->a, sp, b, body);
    }
    return parse_binary(p, cpu, 1);
}

static LcuExpr *parse_block(P *p)
{
    Span sp = here(p);
    TRY(expect(p, TK_LBRACE, "'{'"));
    PtrVec binds = { 0 };
    while (p->tok.kind == TK_LET) {
        shift(p);
        LcuBind *b = parse_bind_lhs(p, true);
        TRY(b);
        b->rhs = parse_expr(p, true);
        TRY(b->rhs);
        ptrvec_push(p->a, &binds, b);
    }
    TRY(expect(p, TK_RETURN, "'let' or 'return'"));
    LcuExpr *r = parse_expr(p, true);
    TRY(r);
    TRY(expect(p, TK_RBRACE, "'}'"));
    return lcu_e_block(p->a, sp, binds.len, (LcuBind **)binds.items, r);
}

/* ---- kernel level ---- */
static LcuThunk *parse_thunk(P *p)
{
    Span sp = here(p);
    TRY(expect(p, TK_LBRACE, "'{'"));
    PtrVec params = { 0 };
    if (p->tok.kind == TK_LPAREN) {
        shift(p);
        if (p->tok.kind != TK_RPAREN) {
            do {
                Sym x = ident(p, NULL);
                TRY(x);
                ptrvec_push(p->a, &params, (void *)x);
            } while (p->tok.kind == TK_COMMA && (shift(p), true));
        }
        TRY(expect(p, TK_RPAREN, "',' or ')'"));
    } else {
        Sym x = ident(p, NULL);
        TRY(x);
        ptrvec_push(p->a, &params, (void *)x);
    }
    TRY(expect(p, TK_DARROW, "'=>'"));
    LcuExpr *body = parse_expr(p, false);
    TRY(body);
    PtrVec uses = { 0 }, spans = { 0 };
    if (p->tok.kind == TK_USING) {
        shift(p);
        do {
            Span *us = arena_alloc(p->a, sizeof *us);
            Sym y = ident(p, us);
            TRY(y);
            ptrvec_push(p->a, &uses, (void *)y);
            ptrvec_push(p->a, &spans, us);
        } while (p->tok.kind == TK_COMMA && (shift(p), true));
    }
    TRY(expect(p, TK_RBRACE, "'using' or '}'"));
    LcuThunk *t = lcu_thunk(p->a, sp, params.len, (Sym *)params.items, body, uses.len, (Sym *)uses.items);
    for (int i = 0; i < uses.len; i++) t->using_spans[i] = *(Span *)spans.items[i];
    return t;
}

static bool soac_of(Sym s, LcuSoacKind *k)
{
    for (int i = 0; i < LCU_NSOAC_KINDS; i++)
        if (!strcmp(s, lcu_soac_name((LcuSoacKind)i))) { *k = (LcuSoacKind)i; return true; }
    return false;
}

static LcuSoac *parse_soac(P *p)
{
    Span sp = here(p);
    if (p->tok.kind != TK_IDENT) return fail(p, sp, "a SOAC (MAP, REDUCE, ...)");
    LcuSoacKind k;
    Sym name = ident(p, NULL);
    TRY(name);
    if (!soac_of(name, &k)) {
        diag_error(p->d, sp, "unknown SOAC '%s'", name);
        p->err = true;
        return NULL;
    }
    PtrVec args = { 0 };
    for (;;) {
        Span asp = here(p);
        if (p->tok.kind == TK_LBRACE) {
            LcuThunk *t = parse_thunk(p);
            TRY(t);
            ptrvec_push(p->a, &args, lcu_arg_thunk(p->a, t));
        } else if (p->tok.kind == TK_LPAREN || p->tok.kind == TK_HASH) {
            /* (e) or a bare #xs / #(xs) as in the paper's listings. */
            LcuExpr *e = parse_primary(p, false);
            TRY(e);
            ptrvec_push(p->a, &args, lcu_arg_expr(p->a, asp, e));
        } else break;
    }
    return lcu_soac(p->a, sp, k, args.len, (LcuArg **)args.items);
}

static bool parse_params(P *p, PtrVec *out)
{
    if (!expect(p, TK_LPAREN, "'('")) return false;
    if (p->tok.kind != TK_RPAREN) {
        do {
            LcuParam *prm = arena_alloc(p->a, sizeof *prm);
            prm->name = ident(p, &prm->span);
            if (!prm->name || !expect(p, TK_COLON, "':' and a type")) return false;
            prm->type = parse_type(p);
            if (!prm->type || p->err) return false;
            ptrvec_push(p->a, out, prm);
        } while (p->tok.kind == TK_COMMA && (shift(p), true));
    }
    return expect(p, TK_RPAREN, "',' or ')'");
}

static LcuParam *flat_params(P *p, PtrVec *v)
{
    LcuParam *ps = arena_alloc(p->a, sizeof *ps * (size_t)(v->len ? v->len : 1));
    for (int i = 0; i < v->len; i++) ps[i] = *(LcuParam *)v->items[i];
    return ps;
}

static LcuKernel *parse_kernel(P *p)
{
    LcuKernel *k = arena_alloc(p->a, sizeof *k);
    k->span = here(p);
    shift(p);
    k->name = ident(p, NULL);
    TRY(k->name);
    PtrVec params = { 0 };
    TRY(parse_params(p, &params));
    k->nparams = params.len;
    k->params = flat_params(p, &params);
    TRY(expect(p, TK_ARROW, "'->' and the result type"));
    k->result = parse_type(p);
    TRY(k->result);
    TRY(expect(p, TK_LBRACE, "'{'"));
    PtrVec binds = { 0 };
    while (p->tok.kind == TK_LET) {
        LcuKBind *b = arena_alloc(p->a, sizeof *b);
        b->span = here(p);
        shift(p);
        PtrVec vars = { 0 }, spans = { 0 };
        bool paren = p->tok.kind == TK_LPAREN;
        if (paren) shift(p);
        do {
            Span *vs = arena_alloc(p->a, sizeof *vs);
            Sym x = ident(p, vs);
            TRY(x);
            ptrvec_push(p->a, &vars, (void *)x);
            ptrvec_push(p->a, &spans, vs);
        } while (paren && p->tok.kind == TK_COMMA && (shift(p), true));
        if (paren) TRY(expect(p, TK_RPAREN, "',' or ')'"));
        TRY(expect(p, TK_EQ, "'='"));
        b->nvars = vars.len;
        b->vars = (Sym *)vars.items;
        b->var_spans = arena_alloc(p->a, sizeof(Span) * (size_t)vars.len);
        for (int i = 0; i < vars.len; i++) b->var_spans[i] = *(Span *)spans.items[i];
        b->soac = parse_soac(p);
        TRY(b->soac);
        ptrvec_push(p->a, &binds, b);
    }
    k->nbinds = binds.len;
    k->binds = (LcuKBind **)binds.items;
    TRY(expect(p, TK_RETURN, "'let' or 'return'"));
    PtrVec rets = { 0 }, spans = { 0 };
    k->ret_paren = p->tok.kind == TK_LPAREN;
    if (k->ret_paren) shift(p);
    do {
        Span *rs = arena_alloc(p->a, sizeof *rs);
        Sym y = ident(p, rs);
        TRY(y);
        ptrvec_push(p->a, &rets, (void *)y);
        ptrvec_push(p->a, &spans, rs);
    } while (k->ret_paren && p->tok.kind == TK_COMMA && (shift(p), true));
    if (k->ret_paren) TRY(expect(p, TK_RPAREN, "',' or ')'"));
    k->nrets = rets.len;
    k->rets = (Sym *)rets.items;
    k->ret_spans = arena_alloc(p->a, sizeof(Span) * (size_t)rets.len);
    for (int i = 0; i < rets.len; i++) k->ret_spans[i] = *(Span *)spans.items[i];
    TRY(expect(p, TK_RBRACE, "'}'"));
    return k;
}

static LcuFun *parse_fun(P *p)
{
    LcuFun *f = arena_alloc(p->a, sizeof *f);
    f->span = here(p);
    shift(p);
    f->name = ident(p, NULL);
    TRY(f->name);
    PtrVec params = { 0 };
    TRY(parse_params(p, &params));
    f->nparams = params.len;
    f->params = flat_params(p, &params);
    TRY(expect(p, TK_ARROW, "'->' and the result type"));
    f->result = parse_type(p);
    TRY(f->result);
    f->body = parse_block(p);
    TRY(f->body);
    return f;
}

LcuProgram *lcu_parse(Arena *a, Interner *in, Diag *d, const Source *src)
{
    P st = { .a = a, .in = in, .d = d };
    P *p = &st;
    lcu_lex_init(&p->lx, src, d);
    if (!lcu_lex_next(&p->lx, &p->next)) return NULL;
    shift(p);
    if (p->err) return NULL;
    LcuProgram *prog = arena_alloc(a, sizeof *prog);
    PtrVec ks = { 0 }, fs = { 0 };
    while (p->tok.kind != TK_EOF && !p->err) {
        if (p->tok.kind == TK_KERNEL) {
            LcuKernel *k = parse_kernel(p);
            if (!k) break;
            ptrvec_push(a, &ks, k);
        } else if (p->tok.kind == TK_FUNCTION) {
            LcuFun *f = parse_fun(p);
            if (!f) break;
            ptrvec_push(a, &fs, f);
        } else fail(p, here(p), "'kernel' or 'function'");
    }
    if (p->err || d->nerrors) return NULL;
    prog->nkernels = ks.len;
    prog->kernels = (LcuKernel **)ks.items;
    prog->nfuns = fs.len;
    prog->funs = (LcuFun **)fs.items;
    return prog;
}
