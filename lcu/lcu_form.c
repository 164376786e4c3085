/* lcu_form.c — kernel formation: Flan form → unfused λcu.
 *
 * Every inline SOAC (LE_SOAC) of a Flan-form program becomes a kernel of
 * its own, K1, K2, ... in order of appearance (functions in order, each
 * depth first, left to right), and is replaced by `run Ki (params)`.  The
 * kernel's parameters are the CPU variables the SOAC reads — free variables
 * of its thunks and of its value arguments, in order of first occurrence —
 * with their CPU types; its result is the SOAC's (flat) result; each thunk's
 * `using` list is exactly its free variables.
 *
 * A CPU variable of tuple type cannot be a kernel parameter: it is passed as
 * one parameter per component (x_1, x_2, ..., destructured by a CPU `let`
 * before the run) and rebuilt by `let x = (x_1, x_2, ...) in` inside each
 * thunk or value argument that reads it.
 *
 * The input is not modified: the output is a deep copy (sites, existing
 * kernels and type objects are shared where nothing mutates them). */
#include <stdio.h>
#include <string.h>
#include "lcu.h"

typedef struct TEnv TEnv;
struct TEnv { Sym name; const LcuType *type; const TEnv *next; };

typedef struct Form {
    Arena *a;
    Interner *in;
    const LcuProgram *src;
    PtrVec kernels;          /* LcuKernel * of the output */
    int counter;             /* number of the last kernel name handed out */
} Form;

/* A tuple-typed CPU variable passed component-wise. */
typedef struct Split { Sym var; const LcuType *type; Sym *comps; } Split;

/* ------------------------------------------------------------------ name sets */

static bool has(const PtrVec *v, Sym x)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == x) return true;
    return false;
}

static void add_unique(Arena *a, PtrVec *v, Sym x)
{
    if (!has(v, x)) ptrvec_push(a, v, (void *)x);
}

/* base, or base_1, base_2, ... : the first name not in taken (then added). */
static Sym fresh(Form *F, const char *base, PtrVec *taken)
{
    Sym s = intern_cstr(F->in, base);
    char buf[256];
    for (int k = 1; has(taken, s); k++) {
        snprintf(buf, sizeof buf, "%.200s_%d", base, k);
        s = intern_cstr(F->in, buf);
    }
    ptrvec_push(F->a, taken, (void *)s);
    return s;
}

static const TEnv *tenv_add(Form *F, const TEnv *e, Sym x, const LcuType *t)
{
    TEnv *n = arena_alloc(F->a, sizeof *n);
    n->name = x;
    n->type = t;
    n->next = e;
    return n;
}

static const LcuType *tenv_find(const TEnv *e, Sym x)
{
    for (; e; e = e->next)
        if (e->name == x) return e->type;
    return NULL;
}

/* ------------------------------------------------------------------ free variables
 * Names in order of first occurrence (lcu_names_*): a tree's free
 * variables, or (all) every name it mentions or binds. */

typedef struct Names { Arena *a; PtrVec *out; bool all; } Names;

static void collect_name(void *ctx, Sym x, bool free)
{
    Names *n = ctx;
    if (free || n->all) add_unique(n->a, n->out, x);
}

/* Free variables of one SOAC argument into out. */
static void arg_free_vars(Form *F, const LcuArg *g, PtrVec *out)
{
    Names n = { F->a, out, false };
    lcu_names_arg(F->a, g, collect_name, &n);
}

/* ------------------------------------------------------------------ copying */

static LcuExpr *copy_expr(Form *F, const LcuExpr *e, const TEnv *env, const LcuBind *bind, bool cpu);

static LcuExpr **copy_list(Form *F, int n, LcuExpr *const *es, const TEnv *env, bool cpu)
{
    LcuExpr **v = arena_alloc(F->a, sizeof *v * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) v[i] = copy_expr(F, es[i], env, NULL, cpu);
    return v;
}

static LcuThunk *copy_thunk(Form *F, const LcuThunk *t, LcuExpr *body, int nusing, Sym *using_)
{
    LcuThunk *n = lcu_thunk(F->a, t->span, t->nparams, t->params, body, nusing, using_);
    return n;
}

/* A SOAC copied as is (thunks keep their `using` lists): existing kernels. */
static LcuSoac *copy_soac_plain(Form *F, const LcuSoac *s)
{
    LcuArg **args = arena_alloc(F->a, sizeof *args * (size_t)(s->nargs ? s->nargs : 1));
    for (int i = 0; i < s->nargs; i++) {
        const LcuArg *g = s->args[i];
        switch (g->kind) {
        case LA_THUNK: {
            const LcuThunk *t = g->u.thunk;
            LcuThunk *n = copy_thunk(F, t, copy_expr(F, t->body, NULL, NULL, false), t->nusing, t->using_);
            memcpy(n->using_spans, t->using_spans, sizeof(Span) * (size_t)t->nusing);
            args[i] = lcu_arg_thunk(F->a, n);
            args[i]->span = g->span;
            continue;
        }
        case LA_EXPR:
            args[i] = lcu_arg_expr(F->a, g->span, copy_expr(F, g->u.expr, NULL, NULL, false));
            continue;
        }
        ICE("kernel formation: bad SOAC argument kind %d", (int)g->kind);
    }
    LcuSoac *n = lcu_soac(F->a, s->span, s->kind, s->nargs, args);
    if (s->kept) n->kept = copy_expr(F, s->kept, NULL, NULL, false);
    return n;
}

static LcuExpr *form_soac(Form *F, const LcuExpr *e, const TEnv *env, const LcuBind *bind);

/* The environment after a CPU-level binding. */
static const TEnv *bind_env(Form *F, const TEnv *env, const LcuBind *b)
{
    const LcuType *rt = b->rhs->type;
    for (int i = 0; i < b->nvars; i++) {
        const LcuType *t = b->types ? b->types[i]
                         : !rt ? NULL
                         : b->nvars == 1 ? rt
                         : i < lcu_t_arity(rt) ? lcu_t_component(rt, i) : NULL;
        env = tenv_add(F, env, b->vars[i], t);
    }
    return env;
}

static LcuBind *copy_bind(Form *F, const LcuBind *b, const TEnv *env, bool cpu)
{
    LcuBind *n = arena_alloc(F->a, sizeof *n);
    *n = *b;
    n->rhs = copy_expr(F, b->rhs, env, b, cpu);
    return n;
}

/* Deep copy; at the CPU level (cpu) inline SOACs become runs of new kernels.
 * bind: the binding whose right-hand side e is (NULL otherwise). */
static LcuExpr *copy_expr(Form *F, const LcuExpr *e, const TEnv *env, const LcuBind *bind, bool cpu)
{
    if (e->kind == LE_SOAC) {
        if (!cpu) ICE("kernel formation: a SOAC inside GPU code");
        return form_soac(F, e, env, bind);
    }
    LcuExpr *n = arena_alloc(F->a, sizeof *n);
    *n = *e;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT:
    case LE_VAR: case LE_LEN: case LE_STRING:
        return n;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        n->u.tuple.elems = copy_list(F, e->u.tuple.n, e->u.tuple.elems, env, cpu);
        return n;
    case LE_LET: case LE_LOOP:
        n->u.let.bind = copy_bind(F, e->u.let.bind, env, cpu);
        n->u.let.body = copy_expr(F, e->u.let.body, bind_env(F, env, e->u.let.bind), NULL, cpu);
        return n;
    case LE_IF:
        n->u.if_.cond = copy_expr(F, e->u.if_.cond, env, NULL, cpu);
        n->u.if_.then_e = copy_expr(F, e->u.if_.then_e, env, NULL, cpu);
        n->u.if_.else_e = copy_expr(F, e->u.if_.else_e, env, NULL, cpu);
        return n;
    case LE_BINOP:
        n->u.bin.l = copy_expr(F, e->u.bin.l, env, NULL, cpu);
        n->u.bin.r = copy_expr(F, e->u.bin.r, env, NULL, cpu);
        return n;
    case LE_UNOP:
        n->u.un.e = copy_expr(F, e->u.un.e, env, NULL, cpu);
        return n;
    case LE_INDEX:
        n->u.index.idx = copy_expr(F, e->u.index.idx, env, NULL, cpu);
        return n;
    case LE_RUN: case LE_CALL:
        n->u.call.args = copy_list(F, e->u.call.nargs, e->u.call.args, env, cpu);
        return n;
    case LE_BLOCK: {
        int nb = e->u.block.nbinds;
        n->u.block.binds = arena_alloc(F->a, sizeof *n->u.block.binds * (size_t)(nb ? nb : 1));
        for (int i = 0; i < nb; i++) {
            n->u.block.binds[i] = copy_bind(F, e->u.block.binds[i], env, cpu);
            env = bind_env(F, env, e->u.block.binds[i]);
        }
        n->u.block.result = copy_expr(F, e->u.block.result, env, NULL, cpu);
        return n;
    }
    case LE_LIB:
        n->u.lib.args = copy_list(F, e->u.lib.nargs, e->u.lib.args, env, cpu);
        return n;
    case LE_SOAC:
        break;      /* handled above */
    }
    ICE("kernel formation: bad expression kind %d", (int)e->kind);
}

/* ------------------------------------------------------------------ one kernel */

static Sym next_kernel_name(Form *F)
{
    char buf[32];
    for (;;) {
        snprintf(buf, sizeof buf, "K%d", ++F->counter);
        Sym s = intern_cstr(F->in, buf);
        bool used = false;
        for (int i = 0; i < F->src->nkernels && !used; i++)
            used = F->src->kernels[i]->name == s;
        if (!used) return s;
    }
}

static const Split *find_split(const Split *sp, int n, Sym x)
{
    for (int i = 0; i < n; i++)
        if (sp[i].var == x) return &sp[i];
    return NULL;
}

/* An argument of the kernel's SOAC: a copy whose tuple-typed free variables
 * are rebuilt from their components; a thunk gets its exact `using` list. */
static LcuArg *form_arg(Form *F, const LcuArg *g, const Split *sp, int nsp)
{
    PtrVec fv = { 0 };
    arg_free_vars(F, g, &fv);
    const LcuExpr *orig = g->kind == LA_THUNK ? g->u.thunk->body : g->u.expr;
    LcuExpr *body = copy_expr(F, orig, NULL, NULL, false);
    PtrVec uses = { 0 };
    for (int i = fv.len - 1; i >= 0; i--) {
        const Split *s = find_split(sp, nsp, fv.items[i]);
        if (!s) continue;
        int m = lcu_t_arity(s->type);
        LcuExpr **cs = arena_alloc(F->a, sizeof *cs * (size_t)m);
        for (int j = 0; j < m; j++) cs[j] = lcu_e_var(F->a, orig->span, s->comps[j]);
        Sym *one = arena_alloc(F->a, sizeof *one);
        one[0] = s->var;
        LcuBind *b = lcu_bind(F->a, orig->span, 1, one, NULL, lcu_e_tuple(F->a, orig->span, m, cs));
        body = lcu_e_let(F->a, orig->span, b, body);
    }
    for (int i = 0; i < fv.len; i++) {
        const Split *s = find_split(sp, nsp, fv.items[i]);
        if (!s) { ptrvec_push(F->a, &uses, fv.items[i]); continue; }
        for (int j = 0; j < lcu_t_arity(s->type); j++) ptrvec_push(F->a, &uses, (void *)s->comps[j]);
    }
    switch (g->kind) {
    case LA_THUNK: {
        LcuThunk *t = copy_thunk(F, g->u.thunk, body, uses.len, (Sym *)uses.items);
        LcuArg *n = lcu_arg_thunk(F->a, t);
        n->span = g->span;
        return n;
    }
    case LA_EXPR:
        return lcu_arg_expr(F->a, g->span, body);
    }
    ICE("kernel formation: bad SOAC argument kind %d", (int)g->kind);
}

/* Names of the SOAC's results inside the kernel: the binding's names where
 * it binds one per component, else r (r1, r2, ...); never a parameter's. */
static Sym *result_names(Form *F, int r, const LcuBind *bind, PtrVec *taken)
{
    Sym *names = arena_alloc(F->a, sizeof *names * (size_t)r);
    char buf[32];
    for (int i = 0; i < r; i++) {
        const char *base = bind && bind->nvars == r ? bind->vars[i] : NULL;
        if (!base) {
            if (r == 1) snprintf(buf, sizeof buf, "r");
            else snprintf(buf, sizeof buf, "r%d", i + 1);
            base = buf;
        }
        names[i] = fresh(F, base, taken);
    }
    return names;
}

static LcuExpr *form_soac(Form *F, const LcuExpr *e, const TEnv *env, const LcuBind *bind)
{
    const LcuSoac *s = e->u.soac;
    Span sp = e->span;
    const LcuType *res = e->type;
    if (!res && bind && bind->types) res = lcu_t_tuple(F->a, bind->nvars, bind->types);
    if (!res) ICE("kernel formation: the SOAC at %d:%d has no type (check the program first)", sp.line, sp.col);

    /* Parameters: the SOAC's free variables, in order of first occurrence. */
    PtrVec fv = { 0 }, taken = { 0 };
    Names v = { F->a, &fv, false }, all = { F->a, &taken, true };
    lcu_names_soac(F->a, s, collect_name, &v);
    lcu_names_soac(F->a, s, collect_name, &all);
    Split *splits = arena_alloc(F->a, sizeof *splits * (size_t)(fv.len ? fv.len : 1));
    int nsplits = 0;
    PtrVec params = { 0 }, runargs = { 0 };
    for (int i = 0; i < fv.len; i++) {
        Sym x = fv.items[i];
        const LcuType *t = tenv_find(env, x);
        if (!t) ICE("kernel formation: '%s' read by the SOAC at %d:%d is not a typed CPU variable", x, sp.line, sp.col);
        if (t->kind != LT_TUPLE) {
            LcuParam *p = arena_alloc(F->a, sizeof *p);
            *p = (LcuParam){ x, t, sp };
            ptrvec_push(F->a, &params, p);
            ptrvec_push(F->a, &runargs, lcu_e_var(F->a, sp, x));
            continue;
        }
        Split *sl = &splits[nsplits++];
        sl->var = x;
        sl->type = t;
        sl->comps = arena_alloc(F->a, sizeof *sl->comps * (size_t)t->n);
        for (int j = 0; j < t->n; j++) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.200s_%d", x, j + 1);
            sl->comps[j] = fresh(F, buf, &taken);
            LcuParam *p = arena_alloc(F->a, sizeof *p);
            *p = (LcuParam){ sl->comps[j], t->elems[j], sp };
            ptrvec_push(F->a, &params, p);
            ptrvec_push(F->a, &runargs, lcu_e_var(F->a, sp, sl->comps[j]));
        }
    }

    /* The kernel: one binding of the SOAC, returning its results. */
    LcuKernel *k = arena_alloc(F->a, sizeof *k);
    k->span = sp;
    k->name = next_kernel_name(F);
    k->nparams = params.len;
    k->params = arena_alloc(F->a, sizeof *k->params * (size_t)(params.len ? params.len : 1));
    for (int i = 0; i < params.len; i++) k->params[i] = *(LcuParam *)params.items[i];
    k->result = res;
    int r = lcu_t_arity(res);
    LcuArg **args = arena_alloc(F->a, sizeof *args * (size_t)(s->nargs ? s->nargs : 1));
    for (int i = 0; i < s->nargs; i++) args[i] = form_arg(F, s->args[i], splits, nsplits);
    LcuKBind *kb = arena_alloc(F->a, sizeof *kb);
    kb->span = sp;
    kb->nvars = r;
    PtrVec pnames = { 0 };
    for (int i = 0; i < k->nparams; i++) ptrvec_push(F->a, &pnames, (void *)k->params[i].name);
    kb->vars = result_names(F, r, bind, &pnames);
    kb->var_spans = arena_alloc(F->a, sizeof *kb->var_spans * (size_t)r);
    for (int i = 0; i < r; i++) kb->var_spans[i] = sp;
    kb->soac = lcu_soac(F->a, s->span, s->kind, s->nargs, args);
    if (s->kept) {   /* its free variables are parameters (lcu_names_soac walks it) */
        LcuArg kept = { LA_EXPR, s->kept->span, { .expr = s->kept } };
        kb->soac->kept = form_arg(F, &kept, splits, nsplits)->u.expr;
    }
    k->nbinds = 1;
    k->binds = arena_alloc(F->a, sizeof *k->binds);
    k->binds[0] = kb;
    k->nrets = r;
    k->rets = kb->vars;
    k->ret_spans = kb->var_spans;
    k->ret_paren = r > 1;
    ptrvec_push(F->a, &F->kernels, k);

    LcuExpr *run = lcu_e_run(F->a, sp, k->name, runargs.len, (LcuExpr **)runargs.items);
    run->type = res;
    if (nsplits == 0) return run;
    /* { let (x_1 : t1, ..., x_m : tm) = x ... return run K (...) } */
    LcuBind **binds = arena_alloc(F->a, sizeof *binds * (size_t)nsplits);
    for (int i = 0; i < nsplits; i++) {
        const LcuType *t = splits[i].type;
        binds[i] = lcu_bind(F->a, sp, t->n, splits[i].comps, t->elems, lcu_e_var(F->a, sp, splits[i].var));
        binds[i]->rhs->type = t;
    }
    LcuExpr *blk = lcu_e_block(F->a, sp, nsplits, binds, run);
    blk->type = res;
    return blk;
}

/* ------------------------------------------------------------------ program */

static LcuKernel *copy_kernel(Form *F, const LcuKernel *k)
{
    LcuKernel *n = arena_alloc(F->a, sizeof *n);
    *n = *k;
    n->binds = arena_alloc(F->a, sizeof *n->binds * (size_t)(k->nbinds ? k->nbinds : 1));
    for (int i = 0; i < k->nbinds; i++) {
        LcuKBind *b = arena_alloc(F->a, sizeof *b);
        *b = *k->binds[i];
        b->soac = copy_soac_plain(F, k->binds[i]->soac);
        n->binds[i] = b;
    }
    return n;
}

LcuProgram *lcu_form_kernels(Arena *a, Interner *in, const LcuProgram *flan)
{
    Form st = { .a = a, .in = in, .src = flan };
    Form *F = &st;
    for (int i = 0; i < flan->nkernels; i++) ptrvec_push(a, &F->kernels, copy_kernel(F, flan->kernels[i]));
    LcuProgram *p = arena_alloc(a, sizeof *p);
    p->nsites = flan->nsites;
    p->sites = arena_alloc(a, sizeof *p->sites * (size_t)(flan->nsites ? flan->nsites : 1));
    for (int i = 0; i < flan->nsites; i++) p->sites[i] = flan->sites[i];
    p->nfuns = flan->nfuns;
    p->funs = arena_alloc(a, sizeof *p->funs * (size_t)(flan->nfuns ? flan->nfuns : 1));
    for (int i = 0; i < flan->nfuns; i++) {
        const LcuFun *f = flan->funs[i];
        LcuFun *n = arena_alloc(a, sizeof *n);
        *n = *f;
        const TEnv *env = NULL;
        for (int j = 0; j < f->nparams; j++) env = tenv_add(F, env, f->params[j].name, f->params[j].type);
        n->body = copy_expr(F, f->body, env, NULL, true);
        p->funs[i] = n;
    }
    p->nkernels = F->kernels.len;
    p->kernels = (LcuKernel **)F->kernels.items;
    return p;
}
