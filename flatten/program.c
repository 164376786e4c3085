/* program.c — flattening a whole program: one Flan function per value form,
 * and an unlifted and/or a lifted version of each function instance that is
 * reached (compiled from a worklist).
 *
 *   f   (site?, args U...)        -> U(result)
 *   f^  (n, site?, args L...)     -> L(result)    (n > 0 elements)
 *
 * `site` is present in library functions only: the position of the user's
 * call, where the library's runtime errors are reported (as the AST
 * interpreter does).  Globals are read through the host (`lib global`), so
 * forms and functions take no global parameters. */
#include <ctype.h>
#include <string.h>
#include "flatten_impl.h"

struct FunReq {
    FunDecl *fun;
    bool lifted;
    int epoch;
    /* same[i] = j <= i: every call passes argument component i as the same
     * variable as component j (the first such), so the body reads one
     * parameter for both.  Barnes-Hut's lifted split (b, flags) gets b's
     * descriptor twice: its lengths check against itself went away, a
     * REDUCE and a host wait each call. */
    unsigned char same[FL_ALIAS_MAX];
    int nsame;   /* components described by same; 0: none shared */
    Sym name;
    FunReq *next;
};

typedef struct DefForm { FunDecl *generic; int form; } DefForm;

/* The form index that defines generic function g, or -1. */
static int defining_form(Fl *F, FunDecl *g, const PtrVec *defs)
{
    (void)F;
    for (int i = 0; i < defs->len; i++) {
        DefForm *d = defs->items[i];
        if (d->generic == g) return d->form;
    }
    return -1;
}

FunDecl *fl_fun_body(Fl *F, FunDecl *fun, Span sp)
{
    (void)sp;
    while (!fun->body && fun->defined_by && fun->defined_by != fun) fun = fun->defined_by;
    /* A same-typed redefinition whose form precedes the current one takes over. */
    const PtrVec *defs = F->defs;
    while (defs && fun->replacement) {
        FunDecl *g = fun->replacement->generic ? fun->replacement->generic : fun->replacement;
        int k = defining_form(F, g, defs);
        if (k < 0 || k >= F->cur_form) break;
        fun = fun->replacement;
    }
    return fun;
}

/* Argument components shared at a call (FunReq.same): their number, or 0
 * where none is shared or there are too many to say. */
static int shared_components(int n, const Sym *args, unsigned char *same)
{
    if (!args || n > FL_ALIAS_MAX) return 0;
    bool any = false;
    for (int i = 0; i < n; i++) {
        same[i] = (unsigned char)i;
        for (int j = 0; j < i; j++)
            if (args[j] == args[i]) {
                same[i] = (unsigned char)j;
                any = true;
                break;
            }
    }
    return any ? n : 0;
}

Sym fl_request_fun(Fl *F, FunDecl *fun, bool lifted, int nargs, const Sym *args)
{
    int epoch = F->defs ? F->cur_form : 0;
    unsigned char same[FL_ALIAS_MAX];
    int nsame = shared_components(nargs, args, same);
    for (FunReq *r = F->reqs; r; r = r->next)
        if (r->fun == fun && r->lifted == lifted && r->epoch == epoch && r->nsame == nsame && !memcmp(r->same, same, (size_t)nsame))
            return r->name;
    FunReq *r = arena_alloc(F->a, sizeof *r);
    r->fun = fun;
    r->lifted = lifted;
    r->epoch = epoch;
    r->nsame = nsame;
    memcpy(r->same, same, (size_t)nsame);
    char buf[256];
    int k = snprintf(buf, sizeof buf, "%s_", lifted ? "fl" : "f");
    for (const char *s = fun->name; *s && k < 200; s++) buf[k++] = isalnum((unsigned char)*s) ? *s : '_';
    snprintf(buf + k, sizeof buf - (size_t)k, "_%d", ++F->next_var);
    r->name = intern_cstr(F->in, buf);
    r->next = F->reqs;
    F->reqs = r;
    ptrvec_push(F->a, &F->queue, r);
    return r->name;
}

static LcuParam param(Fl *F, Sym name, const LcuType *t)
{
    (void)F;
    LcuParam p = { name, t, { 0 } };
    return p;
}

static LcuFun *make_fun(Fl *F, Sym name, int np, LcuParam *ps, FVal result, LcuExpr *body)
{
    LcuFun *f = arena_alloc(F->a, sizeof *f);
    f->name = name;
    f->nparams = np;
    f->params = ps;
    f->result = T_tuple(F, result.n, result.t);
    f->body = body;
    return f;
}

/* The nesting of f^ (n, site?, args L...) -> L(result) (LcuFun.lift): n and
 * the site uniform, the arguments' components after the `extra` of them. */
static const LcuLiftShape *lift_shape(Fl *F, FunDecl *fun, Type *ft, int extra, int nparams, int nres)
{
    LcuLiftShape *sh = arena_alloc(F->a, sizeof *sh);
    int *pp = arena_alloc(F->a, sizeof *pp * (size_t)(nparams + 1));
    for (int i = 0; i < extra; i++) pp[i] = LCU_LIFT_UNIFORM;
    if (flat_arity(ft->arg, true) != nparams - extra)
        ICE("flatten: lifted %s has %d argument components, not its layout's %d", fun->name, nparams - extra,
            flat_arity(ft->arg, true));
    flat_layout_parents(ft->arg, extra, LCU_LIFT_OUTER, pp + extra);
    int want = flat_arity(ft->res, true);
    if (want != nres)
        ICE("flatten: lifted %s returns %d components, not its result type's %d", fun->name, nres, want);
    int *rp = arena_alloc(F->a, sizeof *rp * (size_t)(nres + 1));
    flat_layout_parents(ft->res, 0, LCU_LIFT_OUTER, rp);
    *sh = (LcuLiftShape){ nparams, pp, nres, rp };
    return sh;
}

static void compile_fun(Fl *F, FunReq *r)
{
    FunDecl *fun = r->fun;
    int saved_form = F->cur_form;
    F->cur_form = r->epoch;
    Type *ft = type_prune(fun->type);
    PtrVec ts = { 0 };
    flat_layout(F->a, ft->arg, r->lifted, &ts);
    int extra = (r->lifted ? 1 : 0) + (fun->is_prelude ? 1 : 0);
    LcuParam *ps = arena_alloc(F->a, sizeof *ps * (size_t)(ts.len + extra + 1));
    Ctx cx = { 0 };
    cx.lifted = r->lifted;
    int k = 0;
    if (r->lifted) {
        cx.count = fl_fresh(F, "n");
        ps[k++] = param(F, cx.count, T_int(F));
    }
    if (fun->is_prelude) {
        cx.site = fl_fresh(F, "site");
        ps[k++] = param(F, cx.site, T_int(F));
    }
    Sym *args = arena_alloc(F->a, sizeof *args * (size_t)(ts.len + 1));
    for (int i = 0; i < ts.len; i++) {
        const LcuType *t = ts.items[i];
        args[i] = fl_fresh(F, t->kind == LT_SD ? "s" : t->kind == LT_VEC ? "v" : "x");
        ps[k++] = param(F, args[i], t);
    }
    Sym *bound = args;   /* what the body reads: a shared component's first parameter */
    if (r->nsame == ts.len) {
        bound = arena_alloc(F->a, sizeof *bound * (size_t)(ts.len + 1));
        for (int i = 0; i < ts.len; i++) bound[i] = args[r->same[i]];
    }
    FVal arg = fv_make(F, ft->arg, r->lifted, ts.len, bound);
    cx.env = fl_bind(F, NULL, fun->param, arg);
    Block b;
    fl_block_push(F, &b);
    if (r->lifted) {
        /* Every caller passes n elements; saying so as checks (which never
         * fail, and cost a comparison on the CPU) gives fusion the size
         * facts #v = n of the parameters (fusion/fu_pdg.c). */
        PtrVec outer = { 0 };
        fv_outer_comps(F, ft->arg, bound, &outer);
        for (int i = 0; i < outer.len; i++)
            fl_check(F, &cx, fun->span, X_bin(F, LOP_NE, X_len(F, (Sym)outer.items[i]), X_var(F, cx.count)),
                     "Length mismatch in apply-to-each.");
    }
    FVal res = fl_expr(F, &cx, fun->body);
    if (r->lifted) res = materialize(F, &cx, res);
    LcuExpr *body = fl_block_pop(F, X_rest(F, res.n, res.c));
    LcuFun *made = make_fun(F, r->name, k, ps, res, body);
    if (r->lifted) made->lift = lift_shape(F, fun, ft, extra, k, res.n);
    ptrvec_push(F->a, &F->funs, made);
    F->cur_form = saved_form;
}

static void drain(Fl *F)
{
    while (F->queue.len > 0) {
        FunReq *r = F->queue.items[--F->queue.len];
        compile_fun(F, r);
    }
}

FlatProgram *flatten_program(Compilation *c, const MonoProgram *m)
{
    Fl st = { 0 };
    Fl *F = &st;
    F->c = c;
    F->a = c->arena;
    F->in = c->names;
    F->d = c->diag;
    jmp_buf jb;
    F->fail = &jb;
    if (setjmp(jb)) return NULL;

    /* Redefinitions: functions are compiled per form (epoch) only if some
     * function of the program has a same-typed redefinition. */
    PtrVec *defs = arena_alloc(F->a, sizeof *defs);
    bool redefs = false;
    for (int k = 0; k < m->prog.nforms; k++) {
        TopForm *form = m->prog.forms[k];
        if (form->kind != TOP_FUN || !form->fun) continue;
        FunDecl *g = form->fun->generic ? form->fun->generic : form->fun;
        DefForm *d = arena_alloc(F->a, sizeof *d);
        d->generic = g;
        d->form = k;
        ptrvec_push(F->a, defs, d);
        if (g->replaced_by) redefs = true;
    }
    if (redefs) F->defs = defs;

    for (int i = 0; i < m->ninstances; i++) fl_collect_lambdas(F, m->instances[i]->body);
    for (int k = 0; k < m->prog.nforms; k++) fl_collect_lambdas(F, m->prog.forms[k]->expr);

    FlatProgram *fp = arena_alloc(F->a, sizeof *fp);
    fp->forms = arena_alloc(F->a, sizeof *fp->forms * (size_t)(m->prog.nforms + 1));
    for (int k = 0; k < m->prog.nforms; k++) {
        TopForm *form = m->prog.forms[k];
        if (form->failed || (form->kind != TOP_BIND && form->kind != TOP_EXPR)) continue;
        F->cur_form = k;
        Ctx cx = { 0 };
        Block b;
        fl_block_push(F, &b);
        FVal r = fl_expr(F, &cx, form->expr);
        LcuExpr *body = fl_block_pop(F, X_rest(F, r.n, r.c));
        char buf[32];
        snprintf(buf, sizeof buf, "form%d", k);
        Sym name = intern_cstr(F->in, buf);
        ptrvec_push(F->a, &F->funs, make_fun(F, name, 0, NULL, r, body));
        FlatForm *ff = &fp->forms[fp->nforms++];
        ff->form = form;
        ff->fun = name;
        drain(F);
    }
    LcuProgram *p = arena_alloc(F->a, sizeof *p);
    p->nfuns = F->funs.len;
    p->funs = (LcuFun **)F->funs.items;
    p->nsites = F->sites.len;
    p->sites = (const char **)F->sites.items;
    lcu_prune_dead(F->a, p);
    fp->flan = p;
    fp->site_spans = arena_alloc(F->a, sizeof *fp->site_spans * (size_t)(F->site_spans.len + 1));
    for (int i = 0; i < F->site_spans.len; i++) fp->site_spans[i] = *(Span *)F->site_spans.items[i];
    return fp;
}
