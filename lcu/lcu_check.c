/* lcu_check.c — the stratified λcu type system (DESIGN.md §4, paper §3.3).
 * GPU code sees only scalars, flat tuples, subscripts of vectors and scalar
 * builtins; the kernel level binds SOAC results (lcu_check_soac.c); the CPU
 * level is ordinary first-order code plus `run`, inline SOACs (Flan form),
 * library calls and the CPU-only builtins.  Every expression gets its type
 * in e->type. */
#include <stdlib.h>
#include <string.h>
#include "lcu_check.h"
#include "rt/nesl_scalar.h"

const Env *ck_env_add(Ck *c, const Env *e, Sym x, const LcuType *t)
{
    Env *n = arena_alloc(c->a, sizeof *n);
    n->name = x;
    n->type = t;
    n->next = e;
    return n;
}

const LcuType *ck_env_find(const Env *e, Sym x)
{
    for (; e; e = e->next)
        if (e->name == x) return e->type;
    return NULL;
}

const char *lcu_type_str(Arena *a, const LcuType *t)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return "?";
    lcu_print_type(f, t);
    fclose(f);
    char *s = arena_strndup(a, buf, n);
    free(buf);
    return s;
}

bool ck_is_gpu_type(const LcuType *t)
{
    for (int i = 0; i < lcu_t_arity(t); i++)
        if (lcu_t_component(t, i)->kind != LT_BASE) return false;
    return true;
}

/* [b] and &[b] are interchangeable across run: the transfer is implicit. */
bool ck_compat(const LcuType *x, const LcuType *y)
{
    if (lcu_t_arity(x) != lcu_t_arity(y)) return false;
    for (int i = 0; i < lcu_t_arity(x); i++) {
        const LcuType *a = lcu_t_component(x, i), *b = lcu_t_component(y, i);
        if (ck_is_vec(a) && ck_is_vec(b)) { if (a->base != b->base) return false; }
        else if (!lcu_t_equal(a, b)) return false;
    }
    return true;
}

static const LcuType *check_block(Ck *c, const Env *env, LcuExpr *e)
{
    for (int i = 0; i < e->u.block.nbinds; i++) {
        LcuBind *b = e->u.block.binds[i];
        const LcuType *t = ck_expr(c, env, b->rhs, true);
        if (!t) return NULL;
        const LcuType *decl = lcu_t_tuple(c->a, b->nvars, b->types);
        if (!ck_compat(decl, t)) {
            diag_error(c->d, b->span, "let declares type %s but its right-hand side has type %s", TS(decl), TS(t));
            return NULL;
        }
        for (int j = 0; j < b->nvars; j++) env = ck_env_add(c, env, b->vars[j], b->types[j]);
    }
    return e->type = ck_expr(c, env, e->u.block.result, true);
}

/* "(t1, ..., tn)" for diagnostics. */
static const char *types_str(Ck *c, int n, const LcuType **ts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return "(?)";
    fputc('(', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        lcu_print_type(f, ts[i]);
    }
    fputc(')', f);
    fclose(f);
    char *s = arena_strndup(c->a, buf, len);
    free(buf);
    return s;
}

static const LcuType *gpu_only_error(Ck *c, LcuExpr *e, const char *what)
{
    diag_error(c->d, e->span, "%s is not allowed in GPU code (thunks and SOAC arguments)", what);
    return NULL;
}

static const LcuFun *find_fun(Ck *c, Sym f)
{
    for (int i = 0; i < c->prog->nfuns; i++)
        if (c->prog->funs[i]->name == f) return c->prog->funs[i];
    return NULL;
}

/* A scalar builtin (GPU or CPU level): base-type arguments, chosen by type. */
static const LcuType *check_builtin(Ck *c, LcuExpr *e, const LcuType **at)
{
    int n = e->u.call.nargs;
    LcuBase bs[3] = { LB_UNIT, LB_UNIT, LB_UNIT };
    bool ok = n <= 3;
    for (int i = 0; ok && i < n; i++) {
        ok = at[i]->kind == LT_BASE;
        bs[i] = at[i]->base;
    }
    const LcuBuiltin *b = ok ? lcu_builtin_find(e->u.call.name, n, bs) : NULL;
    if (!b) {
        diag_error(c->d, e->span, "'%s' cannot be applied to %s; it takes %s", e->u.call.name,
                   types_str(c, n, at), lcu_builtin_sigs(c->a, e->u.call.name));
        return NULL;
    }
    if (b->id == LBI_GUARD) {   /* guard (failed, SITE, KIND): literals, KIND a NESL error (nesl_scalar.h) */
        const LcuExpr *site = e->u.call.args[1], *kind = e->u.call.args[2];
        if (site->kind != LE_INT || kind->kind != LE_INT || kind->u.i < 0 || kind->u.i >= NESL_G_COUNT) {
            diag_error(c->d, e->span, "guard takes a condition, then a site number and an error kind 0..%d as int literals", NESL_G_COUNT - 1);
            return NULL;
        }
    }
    return lcu_t_base(c->a, b->result);
}

/* CPU-only builtins: make_sd dist_sd sum_sd cat_sd zip_sd filter_sd lengths offsets segids total check. */
static const LcuType *check_cpu_builtin(Ck *c, LcuExpr *e, const LcuType **at)
{
    const char *f = e->u.call.name;
    const LcuType *tsd = lcu_t_sd(c->a), *tvi = lcu_t_vec(c->a, LB_INT);
    const LcuType *want[3] = { tsd, NULL, NULL }, *res = tvi;
    int np = 1;
    if (!strcmp(f, "make_sd")) {   /* make_sd (lens) or make_sd (lens, total) */
        np = e->u.call.nargs == 2 ? 2 : 1;
        want[0] = tvi;
        want[1] = lcu_t_base(c->a, LB_INT);
        res = tsd;
    }
    else if (!strcmp(f, "dist_sd")) { np = 2; want[0] = want[1] = lcu_t_base(c->a, LB_INT); res = tsd; }
    else if (!strcmp(f, "sum_sd") || !strcmp(f, "cat_sd") || !strcmp(f, "zip_sd")) { np = 2; want[1] = tsd; res = tsd; }
    else if (!strcmp(f, "filter_sd")) { np = 2; want[1] = tvi; res = tsd; }
    else if (!strcmp(f, "total")) res = lcu_t_base(c->a, LB_INT);
    else if (!strcmp(f, "check")) {
        np = 3;
        want[0] = lcu_t_base(c->a, LB_BOOL);
        want[1] = lcu_t_base(c->a, LB_INT);
        want[2] = lcu_t_vec(c->a, LB_CHAR);
        res = lcu_t_base(c->a, LB_UNIT);
    }   /* else lengths, offsets, segids: sd -> [int] */
    bool ok = e->u.call.nargs == np;
    for (int i = 0; ok && i < np; i++) ok = ck_compat(want[i], at[i]);
    if (!ok) {
        diag_error(c->d, e->span, "'%s' takes %s but is given %s", f, types_str(c, np, want),
                   types_str(c, e->u.call.nargs, at));
        return NULL;
    }
    return res;
}

/* run K (args), f (args).  CPU level: a user function wins over a builtin of
 * the same name; GPU level: scalar builtins only. */
static const LcuType *check_call(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    Sym f = e->u.call.name;
    const LcuFun *fn = e->kind == LE_CALL ? find_fun(c, f) : NULL;
    if (!cpu) {
        if (e->kind == LE_RUN) return gpu_only_error(c, e, "'run'");
        if (lcu_builtin_exists(f)) fn = NULL;   /* GPU code calls no functions */
        else if (fn || lcu_cpu_builtin_exists(f)) {
            char what[160];
            snprintf(what, sizeof what, "a call of %s '%.100s'", fn ? "function" : "the CPU builtin", f);
            return gpu_only_error(c, e, what);
        }
    }
    const LcuType **at = arena_alloc(c->a, sizeof *at * (size_t)(e->u.call.nargs + 1));
    for (int i = 0; i < e->u.call.nargs; i++)
        if (!(at[i] = ck_expr(c, env, e->u.call.args[i], cpu))) return NULL;
    int np = 0;
    const LcuParam *ps = NULL;
    const LcuType *res = NULL;
    if (e->kind == LE_RUN) {
        for (int i = 0; i < c->prog->nkernels; i++)
            if (c->prog->kernels[i]->name == f) {
                np = c->prog->kernels[i]->nparams; ps = c->prog->kernels[i]->params; res = c->prog->kernels[i]->result;
            }
        if (!res) { diag_error(c->d, e->span, "unknown kernel '%s'", f); return NULL; }
    } else if (fn) {
        np = fn->nparams; ps = fn->params; res = fn->result;
    } else if (cpu && lcu_cpu_builtin_exists(f)) {
        return check_cpu_builtin(c, e, at);
    } else if (lcu_builtin_exists(f)) {
        return check_builtin(c, e, at);
    } else {
        diag_error(c->d, e->span, "unknown function '%s'", f);
        return NULL;
    }
    if (np != e->u.call.nargs) {
        diag_error(c->d, e->span, "'%s' expects %d argument%s but is given %d", f, np, np == 1 ? "" : "s", e->u.call.nargs);
        return NULL;
    }
    for (int i = 0; i < np; i++)
        if (!ck_compat(ps[i].type, at[i])) {
            diag_error(c->d, e->u.call.args[i]->span, "argument %d of '%s' has type %s but %s is expected",
                       i + 1, f, TS(at[i]), TS(ps[i].type));
            return NULL;
        }
    return res;
}

/* lib NAME "TAG" (args) -> TYPE: the interpreter's own library kernels are
 * checked against their signatures; any other is trusted (its arguments
 * need only be well typed). */
static const LcuType *check_lib(Ck *c, const Env *env, LcuExpr *e)
{
    int n = e->u.lib.nargs;
    const LcuType **at = arena_alloc(c->a, sizeof *at * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        if (!(at[i] = ck_expr(c, env, e->u.lib.args[i], true))) return NULL;
    const LcuType *res = e->u.lib.result, *want = NULL;
    const char *sigs = NULL;
    bool ok = true;
    switch (lcu_lib_kind(e->u.lib.name, e->u.lib.tag)) {
    case LLIB_NONE: return res;
    case LLIB_RANK_UP: case LLIB_RANK_DOWN:
        sigs = "([int]) or ([float])";
        ok = n == 1 && ck_is_vec(at[0]) && (at[0]->base == LB_INT || at[0]->base == LB_FLOAT);
        want = lcu_t_vec(c->a, LB_INT);
        break;
    case LLIB_SEG_RANK_UP: case LLIB_SEG_RANK_DOWN:
        sigs = "(sd, [int]) or (sd, [float])";
        ok = n == 2 && at[0]->kind == LT_SD && ck_is_vec(at[1]) && (at[1]->base == LB_INT || at[1]->base == LB_FLOAT);
        want = lcu_t_vec(c->a, LB_INT);
        break;
    case LLIB_CLOCK:
        sigs = "()";
        ok = n == 0;
        want = lcu_t_base(c->a, LB_FLOAT);
        break;
    }
    if (!ok) {
        diag_error(c->d, e->span, "library kernel '%s' takes %s but is given %s", e->u.lib.name, sigs, types_str(c, n, at));
        return NULL;
    }
    if (!ck_compat(want, res)) {
        diag_error(c->d, e->span, "library kernel '%s' returns %s but is declared to return %s", e->u.lib.name, TS(want), TS(res));
        return NULL;
    }
    return res;
}

static const LcuType *check_binop(Ck *c, LcuExpr *e, const LcuType *l, const LcuType *r)
{
    const char *op = lcu_binop_text(e->u.bin.op);
    if (!lcu_t_equal(l, r) || l->kind != LT_BASE) {
        diag_error(c->d, e->span, "operands of '%s' have types %s and %s", op, TS(l), TS(r));
        return NULL;
    }
    LcuBase b = l->base;
    switch (e->u.bin.op) {
    case LOP_ADD: case LOP_SUB: case LOP_MUL: case LOP_DIV:
        if (b == LB_INT || b == LB_FLOAT) return l;
        break;
    case LOP_MOD:
        if (b == LB_INT) return l;
        break;
    case LOP_LT: case LOP_LE: case LOP_GT: case LOP_GE:
        if (b == LB_INT || b == LB_FLOAT || b == LB_CHAR) return lcu_t_base(c->a, LB_BOOL);
        break;
    case LOP_EQ: case LOP_NE:
        if (b != LB_UNIT) return lcu_t_base(c->a, LB_BOOL);
        break;
    case LOP_AND: case LOP_OR:
        if (b == LB_BOOL) return l;
        break;
    }
    diag_error(c->d, e->span, "'%s' cannot be applied to %s", op, TS(l));
    return NULL;
}

/* The type of recur (...): it has no value of its own; an if with it as one
 * branch has the other's type, and the enclosing iterate sets the type of
 * every such node to its own once that is known (fix_tail_types). */
static const LcuType recur_type = { LT_TUPLE, LB_UNIT, 0, NULL };

static void fix_tail_types(LcuExpr *e, const LcuType *t)
{
    if (e->type != &recur_type) return;
    e->type = t;
    if (e->kind == LE_IF) {
        fix_tail_types(e->u.if_.then_e, t);
        fix_tail_types(e->u.if_.else_e, t);
    } else if (e->kind == LE_LET) {
        fix_tail_types(e->u.let.body, t);
    }
}

static const Env *bind_vars(Ck *c, const Env *env, const LcuBind *b, const LcuType *t, const char *what)
{
    if (b->nvars == 1) return ck_env_add(c, env, b->vars[0], t);
    if (lcu_t_arity(t) != b->nvars) {
        diag_error(c->d, b->span, "%s binds %d names to a value of type %s", what, b->nvars, TS(t));
        return NULL;
    }
    for (int i = 0; i < b->nvars; i++) env = ck_env_add(c, env, b->vars[i], lcu_t_component(t, i));
    return env;
}

static const LcuType *check_loop(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    if (cpu) {
        diag_error(c->d, e->span, "'iterate' is allowed only in GPU code (thunks)");
        return NULL;
    }
    LcuBind *b = e->u.let.bind;
    const LcuType *t = ck_expr(c, env, b->rhs, cpu);
    if (!t || !(env = bind_vars(c, env, b, t, "iterate"))) return NULL;
    c->tail = e;
    const LcuType *r = ck_expr(c, env, e->u.let.body, cpu);
    if (!r) return NULL;
    if (r == &recur_type) {
        diag_error(c->d, e->span, "this 'iterate' never ends: every path through its body ends in 'recur'");
        return NULL;
    }
    fix_tail_types(e->u.let.body, r);
    return r;
}

static const LcuType *check_recur(Ck *c, const Env *env, LcuExpr *e, LcuExpr *loop, bool cpu)
{
    if (!loop) {
        diag_error(c->d, e->span, "'recur' may appear only in a tail position of an 'iterate' body");
        return NULL;
    }
    const LcuType **v = arena_alloc(c->a, sizeof *v * (size_t)(e->u.tuple.n ? e->u.tuple.n : 1));
    for (int i = 0; i < e->u.tuple.n; i++)
        if (!(v[i] = ck_expr(c, env, e->u.tuple.elems[i], cpu))) return NULL;
    const LcuType *t = lcu_t_tuple(c->a, e->u.tuple.n, v), *want = loop->u.let.bind->rhs->type;
    if (!lcu_t_equal(t, want)) {
        diag_error(c->d, e->span, "'recur' passes %s to an 'iterate' over %s", TS(t), TS(want));
        return NULL;
    }
    return &recur_type;
}

static const LcuType *check_expr_(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    LcuExpr *tail = c->tail;   /* only if branches and let bodies inherit it */
    c->tail = NULL;
    switch (e->kind) {
    case LE_INT:
        if (e->u.i < INT32_MIN || e->u.i > INT32_MAX) {
            diag_error(c->d, e->span, "integer literal %lld is out of range (int is 32-bit)", (long long)e->u.i);
            return NULL;
        }
        return lcu_t_base(c->a, LB_INT);
    case LE_FLOAT: return lcu_t_base(c->a, LB_FLOAT);
    case LE_BOOL: return lcu_t_base(c->a, LB_BOOL);
    case LE_CHAR: return lcu_t_base(c->a, LB_CHAR);
    case LE_UNIT: return lcu_t_base(c->a, LB_UNIT);
    case LE_VAR: {
        const LcuType *t = ck_env_find(env, e->u.var);
        if (!t) {
            if (c->kenv && ck_env_find(c->kenv, e->u.var))
                diag_error(c->d, e->span, "'%s' is free in this thunk but missing from its 'using' list", e->u.var);
            else diag_error(c->d, e->span, "unbound variable '%s'", e->u.var);
            return NULL;
        }
        if (!cpu && !ck_is_gpu_type(t)) {
            diag_error(c->d, e->span, "'%s' has type %s; GPU code can only subscript vectors", e->u.var, TS(t));
            return NULL;
        }
        return t;
    }
    case LE_TUPLE: {
        const LcuType **v = arena_alloc(c->a, sizeof *v * (size_t)e->u.tuple.n);
        for (int i = 0; i < e->u.tuple.n; i++)
            if (!(v[i] = ck_expr(c, env, e->u.tuple.elems[i], cpu))) return NULL;
        return lcu_t_tuple(c->a, e->u.tuple.n, v);
    }
    case LE_LET: {
        LcuBind *b = e->u.let.bind;
        const LcuType *t = ck_expr(c, env, b->rhs, cpu);
        if (!t || !(env = bind_vars(c, env, b, t, "let"))) return NULL;
        c->tail = tail;
        return ck_expr(c, env, e->u.let.body, cpu);
    }
    case LE_LOOP: return check_loop(c, env, e, cpu);
    case LE_RECUR: return check_recur(c, env, e, tail, cpu);
    case LE_IF: {
        const LcuType *ct = ck_expr(c, env, e->u.if_.cond, cpu);
        if (!ct) return NULL;
        if (!ck_is_base(ct, LB_BOOL)) { diag_error(c->d, e->u.if_.cond->span, "condition has type %s, not bool", TS(ct)); return NULL; }
        c->tail = tail;
        const LcuType *t = ck_expr(c, env, e->u.if_.then_e, cpu);
        c->tail = tail;
        const LcuType *f = t ? ck_expr(c, env, e->u.if_.else_e, cpu) : NULL;
        if (!f) return NULL;
        if (t == &recur_type) return f;
        if (f == &recur_type) return t;
        if (!lcu_t_equal(t, f)) { diag_error(c->d, e->span, "branches of 'if' have types %s and %s", TS(t), TS(f)); return NULL; }
        return t;
    }
    case LE_BINOP: {
        const LcuType *l = ck_expr(c, env, e->u.bin.l, cpu);
        const LcuType *r = l ? ck_expr(c, env, e->u.bin.r, cpu) : NULL;
        return r ? check_binop(c, e, l, r) : NULL;
    }
    case LE_UNOP: {
        const LcuType *t = ck_expr(c, env, e->u.un.e, cpu);
        if (!t) return NULL;
        bool ok = false;
        const LcuType *res = t;
        switch (e->u.un.op) {
        case LUOP_NEG: ok = ck_is_base(t, LB_INT) || ck_is_base(t, LB_FLOAT); break;
        case LUOP_NOT: ok = ck_is_base(t, LB_BOOL); break;
        case LUOP_TO_FLOAT: ok = ck_is_base(t, LB_INT) || ck_is_base(t, LB_FLOAT); res = lcu_t_base(c->a, LB_FLOAT); break;
        case LUOP_TO_INT: ok = ck_is_base(t, LB_INT) || ck_is_base(t, LB_FLOAT) || ck_is_base(t, LB_CHAR); res = lcu_t_base(c->a, LB_INT); break;
        }
        if (!ok) { diag_error(c->d, e->span, "operator cannot be applied to %s", TS(t)); return NULL; }
        return res;
    }
    case LE_INDEX: case LE_LEN: {
        Sym x = e->kind == LE_INDEX ? e->u.index.vec : e->u.len.vec;
        const LcuType *t = ck_env_find(env, x);
        if (!t) {
            if (c->kenv && ck_env_find(c->kenv, x))
                diag_error(c->d, e->span, "'%s' is free in this thunk but missing from its 'using' list", x);
            else diag_error(c->d, e->span, "unbound variable '%s'", x);
            return NULL;
        }
        /* #s on an sd (its segment count) is CPU-level only. */
        if (e->kind == LE_LEN && t->kind == LT_SD) {
            if (cpu) return lcu_t_base(c->a, LB_INT);
            char what[160];
            snprintf(what, sizeof what, "the segment count #%.100s", x);
            return gpu_only_error(c, e, what);
        }
        if (!ck_is_vec(t)) { diag_error(c->d, e->span, "'%s' has type %s, not a vector", x, TS(t)); return NULL; }
        if (e->kind == LE_LEN) return lcu_t_base(c->a, LB_INT);
        const LcuType *it = ck_expr(c, env, e->u.index.idx, cpu);
        if (!it) return NULL;
        if (!ck_is_base(it, LB_INT)) { diag_error(c->d, e->u.index.idx->span, "index has type %s, not int", TS(it)); return NULL; }
        return lcu_t_base(c->a, t->base);
    }
    case LE_VECLIT: {
        if (!cpu) return gpu_only_error(c, e, "a vector literal");
        const LcuType *t0 = NULL;
        for (int i = 0; i < e->u.tuple.n; i++) {
            const LcuType *t = ck_expr(c, env, e->u.tuple.elems[i], cpu);
            if (!t) return NULL;
            if (t->kind != LT_BASE || (t0 && !lcu_t_equal(t, t0))) {
                diag_error(c->d, e->u.tuple.elems[i]->span, "vector element has type %s; elements must share one base type", TS(t));
                return NULL;
            }
            t0 = t;
        }
        return lcu_t_vec(c->a, t0->base);
    }
    case LE_RUN: case LE_CALL: return check_call(c, env, e, cpu);
    case LE_BLOCK:
        if (!cpu) return gpu_only_error(c, e, "a block");
        return check_block(c, env, e);
    case LE_STRING:
        if (!cpu) return gpu_only_error(c, e, "a string literal");
        return lcu_t_vec(c->a, LB_CHAR);
    case LE_SOAC: {
        if (!cpu) return gpu_only_error(c, e, "an inline SOAC");
        bool saved = c->flan;
        c->flan = true;
        const LcuType *t = ck_soac(c, env, e->u.soac);
        c->flan = saved;
        return t;
    }
    case LE_LIB:
        if (!cpu) return gpu_only_error(c, e, "a library call");
        return check_lib(c, env, e);
    }
    return NULL;
}

const LcuType *ck_expr(Ck *c, const Env *env, LcuExpr *e, bool cpu)
{
    const LcuType *t = check_expr_(c, env, e, cpu);
    c->tail = NULL;   /* set for one child at a time, never left behind */
    if (t) e->type = t;
    return t;
}

bool lcu_check(Arena *a, Interner *in, Diag *d, LcuProgram *p)
{
    Ck ck = { .a = a, .in = in, .d = d, .prog = p };
    Ck *c = &ck;
    int before = d->nerrors;
    for (int i = 0; i < p->nkernels; i++) {
        for (int j = 0; j < i; j++)
            if (p->kernels[j]->name == p->kernels[i]->name)
                diag_error(d, p->kernels[i]->span, "kernel '%s' is defined twice", p->kernels[i]->name);
        ck_kernel(c, p->kernels[i]);
    }
    for (int i = 0; i < p->nfuns; i++) {
        LcuFun *f = p->funs[i];
        for (int j = 0; j < i; j++)
            if (p->funs[j]->name == f->name) diag_error(d, f->span, "function '%s' is defined twice", f->name);
        if (ck_dup_names(c, "parameter", f->nparams, f->params)) continue;
        const Env *env = NULL;
        for (int j = 0; j < f->nparams; j++) env = ck_env_add(c, env, f->params[j].name, f->params[j].type);
        const LcuType *t = ck_expr(c, env, f->body, true);
        if (t && !ck_compat(t, f->result))
            diag_error(d, f->body->u.block.result->span, "function '%s' returns %s but is declared to return %s",
                       f->name, TS(t), TS(f->result));
    }
    return d->nerrors == before;
}
