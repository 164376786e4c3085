/* lcu_parse_top.c — the kernel and top level of the λcu text form:
 * thunks, SOACs, kernels, functions, sites and programs. */
#include <string.h>
#include "lcu_parse.h"

static LcuThunk *parse_thunk(P *p)
{
    Span sp = lp_here(p);
    TRY(lp_expect(p, TK_LBRACE, "'{'"));
    PtrVec params = { 0 };
    if (p->tok.kind == TK_LPAREN) {
        lp_shift(p);
        if (p->tok.kind != TK_RPAREN) {
            do {
                Sym x = lp_ident(p, NULL);
                TRY(x);
                ptrvec_push(p->a, &params, (void *)x);
            } while (p->tok.kind == TK_COMMA && (lp_shift(p), true));
        }
        TRY(lp_expect(p, TK_RPAREN, "',' or ')'"));
    } else {
        Sym x = lp_ident(p, NULL);
        TRY(x);
        ptrvec_push(p->a, &params, (void *)x);
    }
    TRY(lp_expect(p, TK_DARROW, "'=>'"));
    LcuExpr *body = lp_expr(p, false);
    TRY(body);
    PtrVec uses = { 0 }, spans = { 0 };
    if (p->tok.kind == TK_USING) {
        lp_shift(p);
        do {
            Span *us = arena_alloc(p->a, sizeof *us);
            Sym y = lp_ident(p, us);
            TRY(y);
            ptrvec_push(p->a, &uses, (void *)y);
            ptrvec_push(p->a, &spans, us);
        } while (p->tok.kind == TK_COMMA && (lp_shift(p), true));
    }
    TRY(lp_expect(p, TK_RBRACE, "'using' or '}'"));
    LcuThunk *t = lcu_thunk(p->a, sp, params.len, (Sym *)params.items, body, uses.len, (Sym *)uses.items);
    for (int i = 0; i < uses.len; i++) t->using_spans[i] = *(Span *)spans.items[i];
    return t;
}

bool lp_soac_of(Sym s, LcuSoacKind *k)
{
    for (int i = 0; i < LCU_NSOAC_KINDS; i++)
        if (!strcmp(s, lcu_soac_name((LcuSoacKind)i))) { *k = (LcuSoacKind)i; return true; }
    return false;
}

LcuSoac *lp_soac(P *p)
{
    Span sp = lp_here(p);
    if (p->tok.kind != TK_IDENT) return lp_fail(p, sp, "a SOAC (MAP, REDUCE, ...)");
    LcuSoacKind k;
    Sym name = lp_ident(p, NULL);
    TRY(name);
    if (!lp_soac_of(name, &k)) {
        diag_error(p->d, sp, "unknown SOAC '%s'", name);
        p->err = true;
        return NULL;
    }
    PtrVec args = { 0 };
    for (;;) {
        Span asp = lp_here(p);
        if (p->tok.kind == TK_LBRACE) {
            LcuThunk *t = parse_thunk(p);
            TRY(t);
            ptrvec_push(p->a, &args, lcu_arg_thunk(p->a, t));
        } else if (p->tok.kind == TK_LPAREN || p->tok.kind == TK_HASH) {
            /* (e) or a bare #xs / #(xs) as in the paper's listings. */
            LcuExpr *e = lp_primary(p, false);
            TRY(e);
            ptrvec_push(p->a, &args, lcu_arg_expr(p->a, asp, e));
        } else break;
    }
    LcuSoac *s = lcu_soac(p->a, sp, k, args.len, (LcuArg **)args.items);
    /* kept (e) after the arguments: `kept` is no keyword, so only when a
     * parenthesis follows (nothing else may follow a SOAC's arguments) */
    if (p->tok.kind == TK_IDENT && p->next.kind == TK_LPAREN && p->tok.len == 4 && !memcmp(p->tok.text, "kept", 4)) {
        lp_shift(p);
        s->kept = lp_primary(p, false);
        TRY(s->kept);
    }
    return s;
}

static bool parse_params(P *p, PtrVec *out)
{
    if (!lp_expect(p, TK_LPAREN, "'('")) return false;
    if (p->tok.kind != TK_RPAREN) {
        do {
            LcuParam *prm = arena_alloc(p->a, sizeof *prm);
            prm->name = lp_ident(p, &prm->span);
            if (!prm->name || !lp_expect(p, TK_COLON, "':' and a type")) return false;
            prm->type = lp_type(p);
            if (!prm->type || p->err) return false;
            ptrvec_push(p->a, out, prm);
        } while (p->tok.kind == TK_COMMA && (lp_shift(p), true));
    }
    return lp_expect(p, TK_RPAREN, "',' or ')'");
}

static LcuParam *flat_params(P *p, PtrVec *v)
{
    LcuParam *ps = arena_alloc(p->a, sizeof *ps * (size_t)(v->len ? v->len : 1));
    for (int i = 0; i < v->len; i++) ps[i] = *(LcuParam *)v->items[i];
    return ps;
}

/* x or (x1, ..., xn): a kernel's let-bound names or returned names. */
static bool parse_names(P *p, bool *paren, int *n, Sym **names, Span **spans)
{
    PtrVec xs = { 0 }, sps = { 0 };
    *paren = p->tok.kind == TK_LPAREN;
    if (*paren) lp_shift(p);
    do {
        Span *sp = arena_alloc(p->a, sizeof *sp);
        Sym x = lp_ident(p, sp);
        TRY(x);
        ptrvec_push(p->a, &xs, (void *)x);
        ptrvec_push(p->a, &sps, sp);
    } while (*paren && p->tok.kind == TK_COMMA && (lp_shift(p), true));
    if (*paren) TRY(lp_expect(p, TK_RPAREN, "',' or ')'"));
    *n = xs.len;
    *names = (Sym *)xs.items;
    *spans = arena_alloc(p->a, sizeof(Span) * (size_t)xs.len);
    for (int i = 0; i < xs.len; i++) (*spans)[i] = *(Span *)sps.items[i];
    return true;
}

static LcuKernel *parse_kernel(P *p)
{
    LcuKernel *k = arena_alloc(p->a, sizeof *k);
    k->span = lp_here(p);
    lp_shift(p);
    k->name = lp_ident(p, NULL);
    TRY(k->name);
    PtrVec params = { 0 };
    TRY(parse_params(p, &params));
    k->nparams = params.len;
    k->params = flat_params(p, &params);
    TRY(lp_expect(p, TK_ARROW, "'->' and the result type"));
    k->result = lp_type(p);
    TRY(k->result);
    TRY(lp_expect(p, TK_LBRACE, "'{'"));
    PtrVec binds = { 0 };
    while (p->tok.kind == TK_LET) {
        LcuKBind *b = arena_alloc(p->a, sizeof *b);
        b->span = lp_here(p);
        lp_shift(p);
        bool paren;
        TRY(parse_names(p, &paren, &b->nvars, &b->vars, &b->var_spans));
        TRY(lp_expect(p, TK_EQ, "'='"));
        b->soac = lp_soac(p);
        TRY(b->soac);
        ptrvec_push(p->a, &binds, b);
    }
    k->nbinds = binds.len;
    k->binds = (LcuKBind **)binds.items;
    TRY(lp_expect(p, TK_RETURN, "'let' or 'return'"));
    TRY(parse_names(p, &k->ret_paren, &k->nrets, &k->rets, &k->ret_spans));
    TRY(lp_expect(p, TK_RBRACE, "'}'"));
    return k;
}

static LcuFun *parse_fun(P *p)
{
    LcuFun *f = arena_alloc(p->a, sizeof *f);
    f->span = lp_here(p);
    lp_shift(p);
    f->name = lp_ident(p, NULL);
    TRY(f->name);
    PtrVec params = { 0 };
    TRY(parse_params(p, &params));
    f->nparams = params.len;
    f->params = flat_params(p, &params);
    TRY(lp_expect(p, TK_ARROW, "'->' and the result type"));
    f->result = lp_type(p);
    TRY(f->result);
    f->body = lp_block(p);
    TRY(f->body);
    return f;
}

LcuProgram *lcu_parse(Arena *a, Interner *in, Diag *d, const Source *src)
{
    P st = { .a = a, .in = in, .d = d };
    P *p = &st;
    lcu_lex_init(&p->lx, src, d);
    if (!lcu_lex_next(&p->lx, &p->next)) return NULL;
    lp_shift(p);
    if (p->err) return NULL;
    LcuProgram *prog = arena_alloc(a, sizeof *prog);
    PtrVec ks = { 0 }, fs = { 0 }, sites = { 0 };
    while (p->tok.kind != TK_EOF && !p->err) {
        if (p->tok.kind == TK_SITE) {   /* site N "file:line:col", N = 0, 1, ... in order */
            lp_shift(p);
            if (p->tok.kind != TK_INTLIT || p->tok.ival != sites.len) {
                char what[64];
                snprintf(what, sizeof what, "site number %d", sites.len);
                lp_fail(p, lp_here(p), what);
                break;
            }
            lp_shift(p);
            const char *s = lp_string(p, "a site position string", true, NULL);
            if (!s) break;
            ptrvec_push(a, &sites, (void *)s);
        } else if (p->tok.kind == TK_KERNEL) {
            LcuKernel *k = parse_kernel(p);
            if (!k) break;
            ptrvec_push(a, &ks, k);
        } else if (p->tok.kind == TK_FUNCTION) {
            LcuFun *f = parse_fun(p);
            if (!f) break;
            ptrvec_push(a, &fs, f);
        } else lp_fail(p, lp_here(p), "'kernel', 'function' or 'site'");
    }
    if (p->err || d->nerrors) return NULL;
    prog->nsites = sites.len;
    prog->sites = (const char **)sites.items;
    prog->nkernels = ks.len;
    prog->kernels = (LcuKernel **)ks.items;
    prog->nfuns = fs.len;
    prog->funs = (LcuFun **)fs.items;
    return prog;
}
