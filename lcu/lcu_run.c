/* lcu_run.c — CPU-level evaluation: blocks, calls, run, inline SOACs,
 * library calls and the CPU-only builtins. */
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

typedef struct CEnv CEnv;
struct CEnv { Sym name; LcuVal *v; const CEnv *next; };

static const CEnv *cenv_add(LcuInterp *I, const CEnv *e, Sym x, LcuVal *v)
{
    CEnv *n = li_alloc(I, sizeof *n);
    n->name = x;
    n->v = v;
    n->next = e;
    return n;
}

static LcuVal *cenv_find(LcuInterp *I, const CEnv *e, Sym x)
{
    for (; e; e = e->next)
        if (e->name == x) return e->v;
    li_internal(I, "unbound '%s'", x);
}

static const CEnv *bind(LcuInterp *I, const CEnv *env, const LcuBind *b, LcuVal *v)
{
    if (b->nvars == 1) return cenv_add(I, env, b->vars[0], v);
    for (int i = 0; i < b->nvars; i++) env = cenv_add(I, env, b->vars[i], lcu_val_comp(v, i));
    return env;
}

static const LcuFun *find_fun(const LcuProgram *p, Sym f)
{
    for (int i = 0; i < p->nfuns; i++)
        if (p->funs[i]->name == f) return p->funs[i];
    return NULL;
}

static LcuVal *eval_cpu(LcuInterp *I, const CEnv *env, const LcuExpr *e);

/* The helpers of li_call_fun and eval_cpu that are not on the path of a
 * CPU-level recursion are kept out of line, so that deep recursion needs
 * little C stack. */
#define COLD __attribute__((noinline))

/* The components vs of a lifted function's parameters or results (what)
 * are as long as their shape says (LcuLiftShape): parent OUTER the count
 * n, parent k the total of sd vs[k] (a pass over the segments of each sd
 * that is a parent; no per-element work). */
static COLD void check_lift(LcuInterp *I, const LcuFun *f, const char *what, int nv, LcuVal **vs, const int *parent, int64_t n)
{
    int64_t *totals = li_alloc(I, sizeof *totals * (size_t)(nv ? nv : 1));
    for (int i = 0; i < nv; i++) totals[i] = -1;   /* not summed yet */
    for (int i = 0; i < nv; i++) {
        int p = parent[i];
        if (p == LCU_LIFT_UNIFORM) continue;
        const LcuVal *v = vs[i];
        if (v->kind != LV_VEC && v->kind != LV_SD)
            li_internal(I, "lifted function %s: %s %d is not a vector or an sd, but its shape gives it a count", f->name, what, i);
        int64_t want = n;
        if (p != LCU_LIFT_OUTER) {
            if (p < 0 || p >= nv || vs[p]->kind != LV_SD)
                li_internal(I, "lifted function %s: the shape of %s %d names %d, not an sd", f->name, what, i, p);
            if (totals[p] < 0) totals[p] = li_sd_total(vs[p]);
            want = totals[p];
        }
        if (v->len != want)
            li_internal(I, "lifted function %s: %s %d has length %lld, not the count %lld its shape says", f->name, what, i,
                        (long long)v->len, (long long)want);
    }
}

/* A guarded program's lifted function (LcuFun.lift): its arguments' shape
 * on entry, its result's on return; the count n is parameter 0. */
static COLD void check_lift_args(LcuInterp *I, const LcuFun *f, LcuVal **args)
{
    const LcuLiftShape *sh = f->lift;
    if (sh->nparams != f->nparams || f->nparams < 1 || args[0]->kind != LV_SCALAR)
        li_internal(I, "lifted function %s: a shape of %d parameters for %d", f->name, sh->nparams, f->nparams);
    check_lift(I, f, "parameter", f->nparams, args, sh->param_parent, args[0]->s.i);
}

static COLD void check_lift_result(LcuInterp *I, const LcuFun *f, LcuVal **args, LcuVal *r)
{
    const LcuLiftShape *sh = f->lift;
    int nr = lcu_val_arity(r);
    if (nr != sh->nres)
        li_internal(I, "lifted function %s: a shape of %d results for %d", f->name, sh->nres, nr);
    LcuVal **rs = li_alloc(I, sizeof *rs * (size_t)(nr ? nr : 1));
    for (int i = 0; i < nr; i++) rs[i] = lcu_val_comp(r, i);
    check_lift(I, f, "result", nr, rs, sh->res_parent, args[0]->s.i);
}

/* Each call gets an arena for its temporaries; only the result survives. */
LcuVal *li_call_fun(LcuInterp *I, const LcuFun *f, LcuVal **args)
{
    if (++I->depth > 10000) {
        /* The NESL program's deep recursion: the AST interpreter's words. */
        if (I->guarded) li_fail(I, "Recursion too deep (stack overflow).");
        li_fail(I, "CPU call depth exceeds 10000 (runaway recursion in '%s'?)", f->name);
    }
    li_push_arena(I);
    bool lift = I->guarded && f->lift;
    if (lift) check_lift_args(I, f, args);
    const CEnv *env = NULL;
    for (int i = 0; i < f->nparams; i++) env = cenv_add(I, env, f->params[i].name, args[i]);
    LcuVal *r = eval_cpu(I, env, f->body);
    if (lift) check_lift_result(I, f, args, r);
    r = li_pop_arena(I, r);
    I->depth--;
    return r;
}

static LcuVal *int_vec(LcuInterp *I, int64_t len) { return lcu_val_vec(I, LB_INT, len); }

/* make_sd dist_sd sum_sd cat_sd zip_sd filter_sd lengths offsets segids total check */
static COLD LcuVal *cpu_builtin(LcuInterp *I, const char *f, LcuVal **args, int nargs)
{
    LcuVal *a = args[0];
    LcuScalar s = { 0 };
    if (!strcmp(f, "make_sd")) {
        LcuVal *sd = lcu_val_sd(I, a->len);
        int64_t total = 0;
        for (int64_t i = 0; i < sd->len; i++) {
            if (a->data[i].i < 0) li_unguarded(I, "make_sd: negative segment length %lld", (long long)a->data[i].i);
            sd->data[i] = a->data[i];
            total += a->data[i].i;
        }
        if (nargs == 2 && total != args[1]->s.i)
            li_internal(I, "make_sd: the lengths add up to %lld, not the total %lld given", (long long)total, (long long)args[1]->s.i);
        return sd;
    }
    if (!strcmp(f, "dist_sd")) {   /* dist_sd(n, l): n segments of length l */
        int64_t n = a->s.i, l = args[1]->s.i;
        if (n < 0 || l < 0) li_unguarded(I, "dist_sd: %lld segments of length %lld", (long long)n, (long long)l);
        if (l > 0 && n > INT32_MAX / l) li_unguarded(I, "dist_sd: %lld segments of length %lld: more than 2^31 - 1 elements", (long long)n, (long long)l);
        LcuVal *sd = lcu_val_sd(I, n);
        for (int64_t i = 0; i < n; i++) sd->data[i].i = l;
        return sd;
    }
    if (!strcmp(f, "sum_sd")) {    /* segment k: a's and b's lengths added */
        LcuVal *b = args[1];
        if (a->len != b->len) li_internal(I, "sum_sd of descriptors of %lld and %lld segments", (long long)a->len, (long long)b->len);
        LcuVal *sd = lcu_val_sd(I, a->len);
        for (int64_t i = 0; i < sd->len; i++) sd->data[i].i = a->data[i].i + b->data[i].i;
        return sd;
    }
    if (!strcmp(f, "zip_sd")) {    /* a's segment k at 2k, b's at 2k + 1 */
        LcuVal *b = args[1];
        if (a->len != b->len) li_internal(I, "zip_sd of descriptors of %lld and %lld segments", (long long)a->len, (long long)b->len);
        LcuVal *sd = lcu_val_sd(I, 2 * a->len);
        for (int64_t i = 0; i < a->len; i++) { sd->data[2 * i] = a->data[i]; sd->data[2 * i + 1] = b->data[i]; }
        return sd;
    }
    if (!strcmp(f, "cat_sd")) {    /* a's segments, then b's */
        LcuVal *b = args[1];
        LcuVal *sd = lcu_val_sd(I, a->len + b->len);
        for (int64_t i = 0; i < a->len; i++) sd->data[i] = a->data[i];
        for (int64_t i = 0; i < b->len; i++) sd->data[a->len + i] = b->data[i];
        return sd;
    }
    if (!strcmp(f, "filter_sd")) { /* segment k: the kept positions (ascending) in a's segment k */
        LcuVal *kept = args[1], *sd = lcu_val_sd(I, a->len);
        int64_t total = li_sd_total(a), r = 0, start = 0;
        for (int64_t i = 0; i < kept->len; i++)
            if (kept->data[i].i < 0 || kept->data[i].i >= total || (i > 0 && kept->data[i].i <= kept->data[i - 1].i))
                li_internal(I, "filter_sd: kept position %lld (element %lld) is not ascending within 0..%lld",
                            (long long)kept->data[i].i, (long long)i, (long long)total - 1);
        for (int64_t g = 0; g < a->len; g++) {
            int64_t end = start + a->data[g].i, r0 = r;
            while (r < kept->len && kept->data[r].i < end) r++;
            sd->data[g].i = r - r0;
            start = end;
        }
        return sd;
    }
    if (!strcmp(f, "lengths")) {
        LcuVal *v = int_vec(I, a->len);
        memcpy(v->data, a->data, sizeof *v->data * (size_t)v->len);
        return v;
    }
    if (!strcmp(f, "offsets")) {   /* exclusive scan of the lengths */
        LcuVal *v = int_vec(I, a->len);
        int64_t off = 0;
        for (int64_t i = 0; i < a->len; i++) { v->data[i].i = off; off += a->data[i].i; }
        return v;
    }
    if (!strcmp(f, "segids")) {    /* the segment of each element */
        LcuVal *v = int_vec(I, li_sd_total(a));
        int64_t k = 0;
        for (int64_t g = 0; g < a->len; g++)
            for (int64_t j = 0; j < a->data[g].i; j++) v->data[k++].i = g;
        return v;
    }
    if (!strcmp(f, "total")) {
        s.i = li_sd_total(a);
        return lcu_val_scalar(I, LB_INT, s);
    }
    if (!strcmp(f, "check")) {     /* check(failed, site, message) */
        if (!a->s.i) return lcu_val_scalar(I, LB_UNIT, s);
        int64_t site = args[1]->s.i;
        if (site >= 0 && site < I->prog->nsites) fprintf(I->err, "%s: ", I->prog->sites[site]);
        fputs("RUNTIME ERROR: ", I->err);
        for (int64_t i = 0; i < args[2]->len; i++) fputc((int)args[2]->data[i].i, I->err);
        fputc('\n', I->err);
        li_abort(I, LCU_FAIL_RUNTIME);
    }
    li_internal(I, "unknown function '%s'", f);
}

static COLD LcuVal *scalar_builtin(LcuInterp *I, const LcuExpr *e, LcuVal **args)
{
    const LcuBuiltin *b = li_builtin(I, e);
    LcuScalar a[3] = { { 0 }, { 0 }, { 0 } };
    for (int i = 0; i < b->nargs; i++) a[i] = args[i]->s;
    return lcu_val_scalar(I, b->result, li_apply_builtin(I, b, a));
}

static LcuVal *eval_call(LcuInterp *I, const CEnv *env, const LcuExpr *e)
{
    int n = e->u.call.nargs;
    LcuVal **args = li_alloc(I, sizeof *args * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) args[i] = eval_cpu(I, env, e->u.call.args[i]);
    Sym f = e->u.call.name;
    if (e->kind == LE_RUN) {
        for (int i = 0; i < I->prog->nkernels; i++)
            if (I->prog->kernels[i]->name == f) return li_run_kernel(I, I->prog->kernels[i], args);
        li_internal(I, "unknown kernel '%s'", f);
    }
    const LcuFun *fn = find_fun(I->prog, f);   /* a user function wins over a builtin */
    if (fn) return li_call_fun(I, fn, args);
    if (lcu_cpu_builtin_exists(f)) return cpu_builtin(I, f, args, n);
    return scalar_builtin(I, e, args);
}

/* An inline SOAC reads the CPU variables free in it directly. */
static COLD LcuVal *eval_soac(LcuInterp *I, const CEnv *env, const LcuExpr *e)
{
    int n;
    Sym *names = li_soac_free_vars(I, e->u.soac, &n);
    LcuVal **vals = li_alloc(I, sizeof *vals * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) vals[i] = cenv_find(I, env, names[i]);
    return li_run_soac(I, e->u.soac, e->type, n, names, vals);
}

/* Library calls get their arguments flat. */
static COLD LcuVal *eval_lib(LcuInterp *I, const CEnv *env, const LcuExpr *e)
{
    int n = e->u.lib.nargs, total = 0;
    LcuVal **vs = li_alloc(I, sizeof *vs * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        vs[i] = eval_cpu(I, env, e->u.lib.args[i]);
        total += lcu_val_arity(vs[i]);
    }
    LcuVal **flat = li_alloc(I, sizeof *flat * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < lcu_val_arity(vs[i]); j++) flat[k++] = lcu_val_comp(vs[i], j);
    return li_lib_call(I, e, total, flat);
}

static LcuVal *eval_cpu(LcuInterp *I, const CEnv *env, const LcuExpr *e)
{
    LcuScalar s = { 0 };
    switch (e->kind) {
    case LE_INT: case LE_CHAR: s.i = e->u.i; return lcu_val_scalar(I, e->kind == LE_INT ? LB_INT : LB_CHAR, s);
    case LE_FLOAT: s.f = e->u.f; return lcu_val_scalar(I, LB_FLOAT, s);
    case LE_BOOL: s.i = e->u.b; return lcu_val_scalar(I, LB_BOOL, s);
    case LE_UNIT: return lcu_val_scalar(I, LB_UNIT, s);
    case LE_VAR: return cenv_find(I, env, e->u.var);
    case LE_TUPLE: {
        LcuVal **vs = li_alloc(I, sizeof *vs * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) vs[i] = eval_cpu(I, env, e->u.tuple.elems[i]);
        return lcu_val_tuple(I, e->u.tuple.n, vs);
    }
    case LE_LET: {
        const LcuBind *b = e->u.let.bind;
        env = bind(I, env, b, eval_cpu(I, env, b->rhs));
        return eval_cpu(I, env, e->u.let.body);
    }
    case LE_IF:
        return eval_cpu(I, env, eval_cpu(I, env, e->u.if_.cond)->s.i ? e->u.if_.then_e : e->u.if_.else_e);
    case LE_BINOP: {
        LcuVal *l = eval_cpu(I, env, e->u.bin.l);
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR)
            if ((e->u.bin.op == LOP_AND) != (l->s.i != 0)) return l;
        LcuVal *r = eval_cpu(I, env, e->u.bin.r);
        return lcu_val_scalar(I, e->type->base, li_binop(I, e->u.bin.op, l->base, l->s, r->s));
    }
    case LE_UNOP: {
        LcuVal *x = eval_cpu(I, env, e->u.un.e);
        return lcu_val_scalar(I, e->type->base, li_unop(I, e->u.un.op, x->base, x->s));
    }
    case LE_INDEX: {
        LcuVal *v = cenv_find(I, env, e->u.index.vec);
        LcuVal *i = eval_cpu(I, env, e->u.index.idx);
        return lcu_val_scalar(I, v->base, li_index_at(I, v, e, i->s.i));
    }
    case LE_LEN:   /* vector length, or an sd's segment count */
        s.i = cenv_find(I, env, e->u.len.vec)->len;
        return lcu_val_scalar(I, LB_INT, s);
    case LE_VECLIT: {
        LcuVal *v = lcu_val_vec(I, e->type->base, e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++) v->data[i] = eval_cpu(I, env, e->u.tuple.elems[i])->s;
        return v;
    }
    case LE_STRING: {
        LcuVal *v = lcu_val_vec(I, LB_CHAR, e->u.str.len);
        for (int i = 0; i < e->u.str.len; i++) v->data[i].i = (unsigned char)e->u.str.s[i];
        return v;
    }
    case LE_RUN: case LE_CALL: return eval_call(I, env, e);
    case LE_SOAC: return eval_soac(I, env, e);
    case LE_LIB: return eval_lib(I, env, e);
    case LE_LOOP: case LE_RECUR: li_internal(I, "GPU-only expression in CPU code");
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) {
            const LcuBind *b = e->u.block.binds[i];
            env = bind(I, env, b, eval_cpu(I, env, b->rhs));
        }
        return eval_cpu(I, env, e->u.block.result);
    }
    li_internal(I, "bad expression");
}
