/* lcu_run.c — CPU-level evaluation, result printing, and the .lcu driver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

typedef struct CEnv CEnv;
struct CEnv { Sym name; Val *v; const CEnv *next; };

static const CEnv *cenv_add(LI *I, const CEnv *e, Sym x, Val *v)
{
    CEnv *n = arena_alloc(I->a, sizeof *n);
    n->name = x;
    n->v = v;
    n->next = e;
    return n;
}

static Val *cenv_find(LI *I, const CEnv *e, Sym x)
{
    for (; e; e = e->next)
        if (e->name == x) return e->v;
    li_fail(I, "internal: unbound '%s'", x);
}

static Val *scalar(LI *I, LcuBase b, Scalar s)
{
    Val *v = arena_alloc(I->a, sizeof *v);
    v->kind = V_SCALAR;
    v->base = b;
    v->s = s;
    return v;
}

static int val_arity(const Val *v) { return v->kind == V_TUPLE ? v->n : 1; }
static Val *val_comp(Val *v, int i) { return v->kind == V_TUPLE ? v->elems[i] : v; }

/* Flat tuple of the components of vs (× is associative for values too). */
static Val *tuple(LI *I, int n, Val **vs)
{
    int total = 0;
    for (int i = 0; i < n; i++) total += val_arity(vs[i]);
    if (total == 1) for (int i = 0; i < n; i++) if (val_arity(vs[i]) == 1) return vs[i];
    Val *t = arena_alloc(I->a, sizeof *t);
    t->kind = V_TUPLE;
    t->n = total;
    t->elems = arena_alloc(I->a, sizeof *t->elems * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < val_arity(vs[i]); j++) t->elems[k++] = val_comp(vs[i], j);
    return t;
}

static const LcuFun *find_fun(const LcuProgram *p, Sym f)
{
    for (int i = 0; i < p->nfuns; i++)
        if (p->funs[i]->name == f) return p->funs[i];
    return NULL;
}

static Val *eval_cpu(LI *I, const CEnv *env, const LcuExpr *e);

static Val *call_fun(LI *I, const LcuFun *f, Val **args)
{
    if (++I->depth > 10000) li_fail(I, "CPU call depth exceeds 10000 (runaway recursion in '%s'?)", f->name);
    const CEnv *env = NULL;
    for (int i = 0; i < f->nparams; i++) env = cenv_add(I, env, f->params[i].name, args[i]);
    Val *r = eval_cpu(I, env, f->body);
    I->depth--;
    return r;
}

static Val *eval_call(LI *I, const CEnv *env, const LcuExpr *e)
{
    int n = e->u.call.nargs;
    Val **args = arena_alloc(I->a, sizeof *args * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) args[i] = eval_cpu(I, env, e->u.call.args[i]);
    Sym f = e->u.call.name;
    if (e->kind == LE_RUN) {
        for (int i = 0; i < I->prog->nkernels; i++)
            if (I->prog->kernels[i]->name == f) {
                const LcuKernel *k = I->prog->kernels[i];
                return tuple(I, k->nrets, li_run_kernel(I, k, args));
            }
        li_fail(I, "internal: unknown kernel '%s'", f);
    }
    const LcuFun *fn = find_fun(I->prog, f);
    if (fn) return call_fun(I, fn, args);
    if (!strcmp(f, "make_sd")) {
        Val *sd = li_vec(I, LB_INT, args[0]->len);
        sd->kind = V_SD;
        for (int64_t i = 0; i < sd->len; i++) {
            if (args[0]->data[i].i < 0) li_fail(I, "make_sd: negative segment length %lld", (long long)args[0]->data[i].i);
            sd->data[i] = args[0]->data[i];
        }
        return sd;
    }
    if (!strcmp(f, "lengths")) {
        Val *v = li_vec(I, LB_INT, args[0]->len);
        memcpy(v->data, args[0]->data, sizeof *v->data * (size_t)v->len);
        return v;
    }
    li_fail(I, "internal: unknown function '%s'", f);
}

static Val *eval_cpu(LI *I, const CEnv *env, const LcuExpr *e)
{
    Scalar s = { 0 };
    switch (e->kind) {
    case LE_INT: case LE_CHAR: s.i = e->u.i; return scalar(I, e->kind == LE_INT ? LB_INT : LB_CHAR, s);
    case LE_FLOAT: s.f = e->u.f; return scalar(I, LB_FLOAT, s);
    case LE_BOOL: s.i = e->u.b; return scalar(I, LB_BOOL, s);
    case LE_UNIT: return scalar(I, LB_UNIT, s);
    case LE_VAR: return cenv_find(I, env, e->u.var);
    case LE_TUPLE: {
        Val **vs = arena_alloc(I->a, sizeof *vs * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) vs[i] = eval_cpu(I, env, e->u.tuple.elems[i]);
        return tuple(I, e->u.tuple.n, vs);
    }
    case LE_LET: {
        const LcuBind *b = e->u.let.bind;
        Val *v = eval_cpu(I, env, b->rhs);
        if (b->nvars == 1) env = cenv_add(I, env, b->vars[0], v);
        else for (int i = 0; i < b->nvars; i++) env = cenv_add(I, env, b->vars[i], val_comp(v, i));
        return eval_cpu(I, env, e->u.let.body);
    }
    case LE_IF:
        return eval_cpu(I, env, eval_cpu(I, env, e->u.if_.cond)->s.i ? e->u.if_.then_e : e->u.if_.else_e);
    case LE_BINOP: {
        Val *l = eval_cpu(I, env, e->u.bin.l);
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR)
            if ((e->u.bin.op == LOP_AND) != (l->s.i != 0)) return l;
        Val *r = eval_cpu(I, env, e->u.bin.r);
        return scalar(I, e->type->base, li_binop(I, e->u.bin.op, l->base, l->s, r->s));
    }
    case LE_UNOP: {
        Val *x = eval_cpu(I, env, e->u.un.e);
        return scalar(I, e->type->base, li_unop(I, e->u.un.op, x->base, x->s));
    }
    case LE_INDEX: {
        Val *v = cenv_find(I, env, e->u.index.vec);
        Val *i = eval_cpu(I, env, e->u.index.idx);
        return scalar(I, v->base, li_index(I, v, e->u.index.vec, i->s.i));
    }
    case LE_LEN: s.i = cenv_find(I, env, e->u.len.vec)->len; return scalar(I, LB_INT, s);
    case LE_VECLIT: {
        Val *v = li_vec(I, e->type->base, e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) v->data[i] = eval_cpu(I, env, e->u.tuple.elems[i])->s;
        return v;
    }
    case LE_RUN: case LE_CALL: return eval_call(I, env, e);
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) {
            const LcuBind *b = e->u.block.binds[i];
            Val *v = eval_cpu(I, env, b->rhs);
            if (b->nvars == 1) env = cenv_add(I, env, b->vars[0], v);
            else for (int j = 0; j < b->nvars; j++) env = cenv_add(I, env, b->vars[j], val_comp(v, j));
        }
        return eval_cpu(I, env, e->u.block.result);
    }
    li_fail(I, "internal: bad expression");
}

/* ---- printing results: NESL-like; floats %.15g plus ".0" when integral ---- */
static void print_scalar(FILE *out, LcuBase b, Scalar s)
{
    char buf[64];
    switch (b) {
    case LB_BOOL: fputs(s.i ? "T" : "F", out); return;
    case LB_INT: fprintf(out, "%lld", (long long)s.i); return;
    case LB_FLOAT:
        snprintf(buf, sizeof buf, "%.15g", s.f);
        if (!strpbrk(buf, ".enia")) strcat(buf, ".0");
        fputs(buf, out);
        return;
    case LB_CHAR:
        switch (s.i) {
        case '\n': fputs("'\\n'", out); return;
        case '\t': fputs("'\\t'", out); return;
        case '\\': fputs("'\\\\'", out); return;
        case '\'': fputs("'\\''", out); return;
        default: fprintf(out, "'%c'", (int)s.i); return;
        }
    case LB_UNIT: fputs("()", out); return;
    }
}

static void print_val(FILE *out, const Val *v)
{
    switch (v->kind) {
    case V_SCALAR: print_scalar(out, v->base, v->s); return;
    case V_TUPLE:
        for (int i = 0; i < v->n; i++) { if (i) fputc('\n', out); print_val(out, v->elems[i]); }
        return;
    case V_VEC: case V_SD:
        fputs(v->kind == V_SD ? "sd[" : "[", out);
        for (int64_t i = 0; i < v->len; i++) {
            if (i) fputs(", ", out);
            print_scalar(out, v->kind == V_SD ? LB_INT : v->base, v->data[i]);
        }
        fputc(']', out);
        return;
    }
}

bool lcu_interp(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats)
{
    const LcuFun *m = NULL;
    for (int i = 0; i < p->nfuns; i++)
        if (!strcmp(p->funs[i]->name, "main")) m = p->funs[i];
    if (!m) { fprintf(err, "nesslc: error: no function 'main' to run\n"); return false; }
    if (m->nparams) { fprintf(err, "nesslc: error: 'main' must take no parameters\n"); return false; }
    LI st = { 0 };
    LI *I = &st;
    I->a = arena_new();
    I->prog = p;
    I->err = err;
    I->stats = stats;
    bool ok = false;
    if (!setjmp(I->jb)) {
        Val *r = call_fun(I, m, NULL);
        print_val(out, r);
        fputc('\n', out);
        ok = true;
    }
    free(I->slots);
    free(I->sc);
    arena_free(I->a);
    return ok;
}

void lcu_print_stats(FILE *out, const LcuStats *s)
{
    fprintf(out, "stats: kernel launches: %ld\n", s->kernel_launches);
    for (int k = 0; k < LCU_NSOAC_KINDS; k++)
        if (s->soac_launches[k])
            fprintf(out, "stats: %s: %ld launch%s, %ld elements\n", lcu_soac_name((LcuSoacKind)k),
                    s->soac_launches[k], s->soac_launches[k] == 1 ? "" : "es", s->soac_elements[k]);
}

int lcu_drive(const Source *src, FILE *out, Diag *d, LcuDriveOptions o)
{
    Arena *a = arena_new();
    Interner *in = interner_new();
    int status = 1;
    LcuProgram *p = lcu_parse(a, in, d, src);
    if (p && lcu_check(a, in, d, p)) {
        if (o.emit) { lcu_print(out, p); status = 0; }
        else {
            LcuStats stats = { 0 };
            fflush(out);
            status = lcu_interp(p, out, stderr, &stats) ? 0 : 1;
            if (o.stats) lcu_print_stats(out, &stats);
        }
    }
    interner_free(in);
    arena_free(a);
    return status;
}
