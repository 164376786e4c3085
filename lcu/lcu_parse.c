/* lcu_parse.c — recursive-descent parser for the λcu text form: tokens,
 * types and expressions (the kernel and top level: lcu_parse_top.c).
 * Stops at the first syntax error (the text is machine- or test-written, so
 * recovery buys little); every path returns NULL rather than crashing. */
#include <string.h>
#include "lcu_parse.h"

void lp_shift(P *p)
{
    p->tok = p->next;
    if (p->tok.kind == TK_ERROR || p->tok.kind == TK_EOF) { p->next = p->tok; return; }
    if (!lcu_lex_next(&p->lx, &p->next)) p->err = true;
}

void *lp_fail(P *p, Span sp, const char *what)
{
    if (!p->err) {
        if (p->tok.kind == TK_EOF) diag_error(p->d, sp, "expected %s, found end of file", what);
        else diag_error(p->d, sp, "expected %s, found '%.*s'", what, (int)p->tok.len, p->tok.text);
    }
    p->err = true;
    return NULL;
}

bool lp_expect(P *p, LcuTokKind k, const char *what)
{
    if (p->err) return false;
    if (p->tok.kind != k) { lp_fail(p, p->tok.span, what); return false; }
    lp_shift(p);
    return !p->err;
}

Sym lp_ident(P *p, Span *sp)
{
    if (p->err) return NULL;
    if (p->tok.kind != TK_IDENT) return lp_fail(p, p->tok.span, "a name");
    Sym s = intern(p->in, p->tok.text, p->tok.len);
    if (sp) *sp = p->tok.span;
    lp_shift(p);
    return s;
}

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

const LcuType *lp_type(P *p)
{
    LcuBase b;
    if (base_of(p->tok.kind, &b)) { lp_shift(p); return lcu_t_base(p->a, b); }
    if (p->tok.kind == TK_SD) { lp_shift(p); return lcu_t_sd(p->a); }
    bool ref = p->tok.kind == TK_AMP;
    if (ref) lp_shift(p);
    if (p->tok.kind == TK_LBRACK) {
        lp_shift(p);
        if (!base_of(p->tok.kind, &b)) return lp_fail(p, lp_here(p), "a base type (bool, int, float, char, unit)");
        lp_shift(p);
        TRY(lp_expect(p, TK_RBRACK, "']'"));
        return ref ? lcu_t_ref(p->a, b) : lcu_t_vec(p->a, b);
    }
    if (ref) return lp_fail(p, lp_here(p), "'[' after '&'");
    if (p->tok.kind == TK_LPAREN) {
        lp_shift(p);
        PtrVec v = { 0 };
        do {
            const LcuType *t = lp_type(p);
            TRY(t);
            ptrvec_push(p->a, &v, (void *)t);
        } while (p->tok.kind == TK_COMMA && (lp_shift(p), true));
        TRY(lp_expect(p, TK_RPAREN, "',' or ')'"));
        return lcu_t_tuple(p->a, v.len, (const LcuType **)v.items);
    }
    return lp_fail(p, lp_here(p), "a type");
}

/* A string literal's text, escapes decoded, in the arena; NULL after an
 * error.  no_nul: tags and sites are C strings. */
const char *lp_string(P *p, const char *what, bool no_nul, int *len)
{
    if (p->err) return NULL;
    if (p->tok.kind != TK_STRINGLIT) return lp_fail(p, lp_here(p), what);
    char *buf = arena_alloc(p->a, p->tok.len);
    int n = lcu_lex_string(&p->tok, buf);
    if (no_nul && memchr(buf, 0, (size_t)n)) {
        diag_error(p->d, lp_here(p), "%s must not contain \\x00", what);
        p->err = true;
        return NULL;
    }
    if (len) *len = n;
    lp_shift(p);
    return buf;
}

/* int is 32-bit: a literal is at most 2147483647, or 2147483648 negated. */
static bool int_lit_ok(P *p, int64_t v, bool neg)
{
    if (v <= (neg ? 2147483648LL : 2147483647LL)) return true;
    diag_error(p->d, lp_here(p), "integer literal %s%lld is out of range (int is 32-bit)", neg ? "-" : "", (long long)v);
    p->err = true;
    return false;
}

/* ---- expressions; cpu selects the CPU-level forms (if with blocks) ---- */

static bool parse_expr_list(P *p, bool cpu, LcuTokKind close, const char *what, PtrVec *v)
{
    if (p->tok.kind != close) {
        do {
            LcuExpr *e = lp_expr(p, cpu);
            if (!e || p->err) return false;
            ptrvec_push(p->a, v, e);
        } while (p->tok.kind == TK_COMMA && (lp_shift(p), true));
    }
    return lp_expect(p, close, what);
}

LcuExpr *lp_primary(P *p, bool cpu)
{
    Span sp = lp_here(p);
    switch (p->tok.kind) {
    case TK_INTLIT: {
        int64_t v = p->tok.ival;
        TRY(int_lit_ok(p, v, false));
        lp_shift(p);
        return lcu_e_int(p->a, sp, v);
    }
    case TK_STRINGLIT: {
        int n;
        const char *str = lp_string(p, "a string", false, &n);
        TRY(str);
        return lcu_e_string(p->a, sp, str, n);
    }
    case TK_LIB: {   /* lib NAME "TAG" (args) -> TYPE */
        lp_shift(p);
        Sym name = lp_ident(p, NULL);
        TRY(name);
        const char *tag = lp_string(p, "a library tag string", true, NULL);
        TRY(tag);
        TRY(lp_expect(p, TK_LPAREN, "'(' before library arguments"));
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        TRY(lp_expect(p, TK_ARROW, "'->' and the result type"));
        const LcuType *t = lp_type(p);
        TRY(t);
        return lcu_e_lib(p->a, sp, name, tag, v.len, (LcuExpr **)v.items, t);
    }
    case TK_FLOATLIT: { double v = p->tok.fval; lp_shift(p); return lcu_e_float(p->a, sp, v); }
    case TK_CHARLIT: { int64_t v = p->tok.ival; lp_shift(p); return lcu_e_char(p->a, sp, v); }
    case TK_TRUE: lp_shift(p); return lcu_e_bool(p->a, sp, true);
    case TK_FALSE: lp_shift(p); return lcu_e_bool(p->a, sp, false);
    case TK_FLOAT: case TK_INT: {
        LcuUnop op = p->tok.kind == TK_FLOAT ? LUOP_TO_FLOAT : LUOP_TO_INT;
        lp_shift(p);
        TRY(lp_expect(p, TK_LPAREN, "'(' after a conversion"));
        LcuExpr *e = lp_expr(p, cpu);
        TRY(e);
        TRY(lp_expect(p, TK_RPAREN, "')'"));
        return lcu_e_unop(p->a, sp, op, e);
    }
    case TK_HASH: {
        lp_shift(p);
        bool paren = p->tok.kind == TK_LPAREN;
        if (paren) lp_shift(p);
        Sym x = lp_ident(p, NULL);
        TRY(x);
        if (paren) TRY(lp_expect(p, TK_RPAREN, "')'"));
        return lcu_e_len(p->a, sp, x, paren);
    }
    case TK_LPAREN: {
        lp_shift(p);
        if (p->tok.kind == TK_RPAREN) { lp_shift(p); return lcu_e_unit(p->a, sp); }
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        if (v.len == 1) return v.items[0];
        return lcu_e_tuple(p->a, sp, v.len, (LcuExpr **)v.items);
    }
    case TK_LBRACK: {
        lp_shift(p);
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RBRACK, "',' or ']'", &v));
        if (v.len == 0) return lp_fail(p, sp, "an element (empty vector literals are not supported yet)");
        return lcu_e_veclit(p->a, sp, v.len, (LcuExpr **)v.items);
    }
    case TK_LBRACE:
        if (cpu) return lp_block(p);
        return lp_fail(p, sp, "an expression");
    case TK_RECUR: {
        lp_shift(p);
        TRY(lp_expect(p, TK_LPAREN, "'(' before recur's arguments"));
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        return lcu_e_recur(p->a, sp, v.len, (LcuExpr **)v.items);
    }
    case TK_RUN: {
        lp_shift(p);
        Sym k = lp_ident(p, NULL);
        TRY(k);
        TRY(lp_expect(p, TK_LPAREN, "'(' before kernel arguments"));
        PtrVec v = { 0 };
        TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
        return lcu_e_run(p->a, sp, k, v.len, (LcuExpr **)v.items);
    }
    case TK_IDENT: {
        LcuSoacKind sk;
        if (p->next.kind == TK_LBRACE && lp_soac_of(intern(p->in, p->tok.text, p->tok.len), &sk)) {
            LcuSoac *s = lp_soac(p);   /* an inline SOAC (Flan form) */
            TRY(s);
            return lcu_e_soac(p->a, sp, s);
        }
        Span xs;
        Sym x = lp_ident(p, &xs);
        TRY(x);
        if (p->tok.kind == TK_LBRACK || p->tok.kind == TK_DOTBRACK) {
            bool inrange = p->tok.kind == TK_DOTBRACK;
            lp_shift(p);
            LcuExpr *i = lp_expr(p, cpu);
            TRY(i);
            TRY(lp_expect(p, TK_RBRACK, "']'"));
            return lcu_e_index(p->a, sp, x, xs, i, inrange);
        }
        if (p->tok.kind == TK_LPAREN) {   /* a call; GPU code may call scalar builtins */
            lp_shift(p);
            PtrVec v = { 0 };
            TRY(parse_expr_list(p, cpu, TK_RPAREN, "',' or ')'", &v));
            return lcu_e_call(p->a, sp, x, v.len, (LcuExpr **)v.items);
        }
        return lcu_e_var(p->a, sp, x);
    }
    default:
        return lp_fail(p, sp, "an expression");
    }
}

static bool nesting_ok(P *p, int more)
{
    if (p->depth + more <= LCU_NESTING_LIMIT) return true;
    lp_fail(p, lp_here(p), "an expression nested less deeply (the limit is 5000 levels)");
    return false;
}

static LcuExpr *parse_unary_(P *p, bool cpu);

static LcuExpr *parse_unary(P *p, bool cpu)
{
    if (!nesting_ok(p, 1)) return NULL;
    p->depth++;
    LcuExpr *e = parse_unary_(p, cpu);
    p->depth--;
    return e;
}

static LcuExpr *parse_unary_(P *p, bool cpu)
{
    Span sp = lp_here(p);
    if (p->tok.kind == TK_MINUS) {
        lp_shift(p);
        /* -3 is one literal, so that negative constants print and re-read alike. */
        if (p->tok.kind == TK_INTLIT) {
            int64_t v = p->tok.ival;
            TRY(int_lit_ok(p, v, true));
            lp_shift(p);
            return lcu_e_int(p->a, sp, -v);
        }
        if (p->tok.kind == TK_FLOATLIT) { double v = p->tok.fval; lp_shift(p); return lcu_e_float(p->a, sp, -v); }
        LcuExpr *e = parse_unary(p, cpu);
        TRY(e);
        return lcu_e_unop(p->a, sp, LUOP_NEG, e);
    }
    if (p->tok.kind == TK_NOT) {
        lp_shift(p);
        LcuExpr *e = parse_unary(p, cpu);
        TRY(e);
        return lcu_e_unop(p->a, sp, LUOP_NOT, e);
    }
    return lp_primary(p, cpu);
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
    int chain = 0;        /* l is a left-deep tree this many levels deep */
    while (binop_of(p->tok.kind, &op) && lcu_binop_prec(op) >= min) {
        if (!nesting_ok(p, ++chain)) return NULL;
        int prec = lcu_binop_prec(op);
        Span sp = lp_here(p);
        lp_shift(p);
        LcuExpr *r = parse_binary(p, cpu, prec + 1);
        TRY(r);
        l = lcu_e_binop(p->a, sp, op, l, r);
        if (prec == 3 && binop_of(p->tok.kind, &op) && lcu_binop_prec(op) == 3)
            return lp_fail(p, lp_here(p), "parentheses around a chained comparison");
    }
    return l;
}

/* let-bound names: x | (x, y); with types (x : t) at the CPU level. */
static LcuBind *parse_bind_lhs(P *p, bool typed)
{
    Span sp = lp_here(p);
    PtrVec vars = { 0 }, types = { 0 };
    bool paren = p->tok.kind == TK_LPAREN;
    if (paren) lp_shift(p);
    do {
        Sym x = lp_ident(p, NULL);
        TRY(x);
        ptrvec_push(p->a, &vars, (void *)x);
        if (typed) {
            TRY(lp_expect(p, TK_COLON, "':' and a type (CPU-level lets are typed)"));
            const LcuType *t = lp_type(p);
            TRY(t);
            ptrvec_push(p->a, &types, (void *)t);
        }
    } while (paren && p->tok.kind == TK_COMMA && (lp_shift(p), true));
    if (paren) TRY(lp_expect(p, TK_RPAREN, "',' or ')'"));
    TRY(lp_expect(p, TK_EQ, "'='"));
    return lcu_bind(p->a, sp, vars.len, (Sym *)vars.items,
                    typed ? (const LcuType **)types.items : NULL, NULL);
}

static LcuExpr *parse_expr(P *p, bool cpu);

LcuExpr *lp_expr(P *p, bool cpu)
{
    if (!nesting_ok(p, 1)) return NULL;
    p->depth++;
    LcuExpr *e = parse_expr(p, cpu);
    p->depth--;
    return e;
}

static LcuExpr *parse_expr(P *p, bool cpu)
{
    Span sp = lp_here(p);
    if (p->tok.kind == TK_IF) {
        lp_shift(p);
        LcuExpr *c = lp_expr(p, cpu);
        TRY(c);
        TRY(lp_expect(p, TK_THEN, "'then'"));
        LcuExpr *t = cpu ? lp_block(p) : lp_expr(p, cpu);
        TRY(t);
        TRY(lp_expect(p, TK_ELSE, "'else'"));
        LcuExpr *e = cpu ? lp_block(p) : lp_expr(p, cpu);
        TRY(e);
        return lcu_e_if(p->a, sp, c, t, e);
    }
    if ((p->tok.kind == TK_LET && !cpu) || p->tok.kind == TK_ITERATE) {   /* the checker rejects a CPU iterate */
        bool loop = p->tok.kind == TK_ITERATE;
        lp_shift(p);
        LcuBind *b = parse_bind_lhs(p, false);
        TRY(b);
        b->rhs = lp_expr(p, cpu);
        TRY(b->rhs);
        TRY(lp_expect(p, TK_IN, "'in'"));
        LcuExpr *body = lp_expr(p, cpu);
        TRY(body);
        return loop ? lcu_e_loop(p->a, sp, b, body) : lcu_e_let(p->a, sp, b, body);
    }
    return parse_binary(p, cpu, 1);
}

LcuExpr *lp_block(P *p)
{
    Span sp = lp_here(p);
    TRY(lp_expect(p, TK_LBRACE, "'{'"));
    PtrVec binds = { 0 };
    while (p->tok.kind == TK_LET) {
        lp_shift(p);
        LcuBind *b = parse_bind_lhs(p, true);
        TRY(b);
        b->rhs = lp_expr(p, true);
        TRY(b->rhs);
        ptrvec_push(p->a, &binds, b);
    }
    TRY(lp_expect(p, TK_RETURN, "'let' or 'return'"));
    LcuExpr *r = lp_expr(p, true);
    TRY(r);
    TRY(lp_expect(p, TK_RBRACE, "'}'"));
    return lcu_e_block(p->a, sp, binds.len, (LcuBind **)binds.items, r);
}

