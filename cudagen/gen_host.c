/* gen_host.c — host code: each λcu CPU function becomes a C function
 * (flat tuple results in a struct), with the CPU-only expressions: calls,
 * run, the CPU builtins, vector and string literals, blocks and library
 * calls.  Every function takes a frame mark on entry and releases its
 * temporaries on return (rt/nesl_rt.h). */
#include <string.h>
#include "cudagen.h"

#define SD_GROUP_MAX 4   /* make_sd's in one call; the runtime scans up to NESL_SD_GROUP_MAX together */

static CExpr *rt_of(Gen *g) { return cx_name(g->a, "rt"); }

static CExpr **one(Gen *g, CExpr *e)
{
    CExpr **v = arena_alloc(g->a, sizeof *v);
    v[0] = e;
    return v;
}

/* Placeholder components after an error or for a call that cannot return. */
static CExpr **zeros(Gen *g, const LcuType *t)
{
    int n = lcu_t_arity(t);
    CExpr **c = arena_alloc(g->a, sizeof *c * (size_t)n);
    for (int k = 0; k < n; k++)
        c[k] = lcu_t_component(t, k)->kind == LT_BASE ? cx_int(g->a, 0) : cx_name(g->a, "NULL");
    return c;
}

/* Arguments, flat and in order, after rt. */
static int flat_args(Gen *g, const CEnv *env, const ErrCtx *ec, int n, LcuExpr **es, CBlock *blk, CExpr ***out)
{
    int total = 0;
    for (int i = 0; i < n; i++) total += lcu_t_arity(es[i]->type);
    CExpr **v = arena_alloc(g->a, sizeof *v * (size_t)(total + 1));
    v[0] = rt_of(g);
    int k = 1;
    for (int i = 0; i < n; i++) {
        CExpr **c = gen_expr(g, env, ec, es[i], blk);
        for (int j = 0; j < lcu_t_arity(es[i]->type); j++) v[k++] = c[j];
    }
    *out = v;
    return total + 1;
}

/* A call of a generated function: its result in a fresh variable. */
static CExpr **call(Gen *g, const char *fn, const char *rtype, const LcuType *rt, int nargs, CExpr **args, CBlock *blk)
{
    const char *t = gen_fresh(g, lcu_t_arity(rt) == 1 ? "t" : "r");
    cs_decl(g->a, blk, rtype, t, cx_call(g->a, fn, nargs, args));
    return gen_unpack(g, rt, cx_name(g->a, t));
}

static CExpr *hoist(Gen *g, CBlock *blk, const char *type, CExpr *e)
{
    const char *t = gen_fresh(g, "t");
    cs_decl(g->a, blk, type, t, e);
    return cx_name(g->a, t);
}

static CExpr **cpu_builtin(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    Arena *a = g->a;
    CExpr **args;
    int n = flat_args(g, env, ec, e->u.call.nargs, e->u.call.args, blk, &args);
    const char *f = e->u.call.name;
    if (!strcmp(f, "check")) {   /* the message (args[3]) is made only on failure */
        CBlock *fail = cb_new(a);
        CExpr *fargs[4] = { args[0], cx_name(a, "true"), args[2], args[3] };
        cs_expr(a, fail, cx_call(a, "nesl_check", n, fargs));
        cs_if(a, blk, args[1], fail, NULL);
        return one(g, cx_int(a, 0));
    }
    if (!strcmp(f, "total")) return one(g, hoist(g, blk, "int32_t", cx_cast(a, "int32_t", cx_call(a, "nesl_sd_total", n, args))));
    if (!strcmp(f, "make_sd") && n == 3) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_make_sd_total", n, args)));
    if (!strcmp(f, "make_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_make_sd", n, args)));
    if (!strcmp(f, "dist_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_dist_sd", n, args)));
    if (!strcmp(f, "sum_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_sum_sd", n, args)));
    if (!strcmp(f, "zip_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_zip_sd", n, args)));
    if (!strcmp(f, "cat_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_cat_sd", n, args)));
    if (!strcmp(f, "filter_sd")) return one(g, hoist(g, blk, "NeslSd *", cx_call(a, "nesl_filter_sd", n, args)));
    const char *fn = !strcmp(f, "lengths") ? "nesl_lengths" : !strcmp(f, "offsets") ? "nesl_offsets" : "nesl_segids";
    return one(g, hoist(g, blk, "NeslVec *", cx_call(a, fn, n, args)));
}

static CExpr **gen_lib(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    Arena *a = g->a;
    const char *name = e->u.lib.name;
    CExpr **args;
    flat_args(g, env, ec, e->u.lib.nargs, e->u.lib.args, blk, &args);
    /* statistics: one call, and the lengths of its vector arguments */
    CExpr *elems = cx_int(a, 0);
    int k = 1;
    for (int i = 0; i < e->u.lib.nargs; i++) {
        const LcuType *t = e->u.lib.args[i]->type;
        for (int j = 0; j < lcu_t_arity(t); j++, k++) {
            LcuTypeKind tk = lcu_t_component(t, j)->kind;
            if (tk == LT_VEC || tk == LT_REF) elems = cx_bin(a, CB_ADD, elems, cx_arrow(a, args[k], "len"));
        }
    }
    cs_expr(a, blk, cx_calln(a, "nesl_stat_lib", 2, args[0], elems));
    if (e->u.lib.tag[0]) {   /* the host bridge of NESL programs */
        CExpr **r = gen_bridge(g, e, args, blk);
        return r ? r : zeros(g, e->type);
    }
    bool seg = !strcmp(name, "seg_rank_up") || !strcmp(name, "seg_rank_down");
    if (seg || !strcmp(name, "rank_up") || !strcmp(name, "rank_down")) {
        bool down = !strcmp(name, "rank_down") || !strcmp(name, "seg_rank_down");
        CExpr *r = cx_calln(a, "nesl_rank", 4, args[0], seg ? args[1] : cx_name(a, "NULL"), args[seg ? 2 : 1],
                            cx_name(a, down ? "true" : "false"));
        return one(g, hoist(g, blk, "NeslVec *", r));
    }
    if (!strcmp(name, "clock")) return one(g, hoist(g, blk, gen_base_ctype(g, LB_FLOAT), cx_calln(a, "nesl_clock", 0)));
    char msg[200];
    snprintf(msg, sizeof msg, "library function %.150s is not available", name);
    cs_expr(a, blk, cx_calln(a, "nesl_fail", 3, args[0], cx_str(a, "%s", 2), cx_str(a, arena_strndup(a, msg, strlen(msg)), (int)strlen(msg))));
    return zeros(g, e->type);
}

static const LcuFun *find_fun(const LcuProgram *p, Sym f)
{
    for (int i = 0; i < p->nfuns; i++)
        if (p->funs[i]->name == f) return p->funs[i];
    return NULL;
}

const LcuKernel *gen_find_kernel(const LcuProgram *p, Sym k)
{
    for (int i = 0; i < p->nkernels; i++)
        if (p->kernels[i]->name == k) return p->kernels[i];
    return NULL;
}

static const char *sname(Gen *g, Sym name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    char *s = arena_alloc(g->a, n + m + 1);
    memcpy(s, name, n);
    memcpy(s + n, suffix, m + 1);
    return s;
}

/* ---- make_sd of a kernel's result in one pass (gen_kernel_sd) ---- */
typedef struct Named { Sym x; bool hit; } Named;

static void on_name(void *ctx, Sym x, bool free)
{
    (void)free;
    Named *n = ctx;
    n->hit |= n->x == x;
}

static bool names(Gen *g, const LcuExpr *e, Sym x)
{
    Named n = { x, false };
    lcu_names_expr(g->a, e, on_name, &n);
    return n.hit;
}

static bool in_vars(const LcuBind *b, Sym x)
{
    for (int k = 0; k < b->nvars; k++)
        if (b->vars[k] == x) return true;
    return false;
}

static bool names_any(Gen *g, const LcuExpr *e, const LcuBind *b)
{
    for (int k = 0; k < b->nvars; k++)
        if (names(g, e, b->vars[k])) return true;
    return false;
}

bool gen_builtin_call(const Gen *g, const LcuExpr *e, const char *name)
{
    return e->kind == LE_CALL && !strcmp(e->u.call.name, name) && !find_fun(g->prog, name);
}

/* Can evaluating e neither fail nor launch: a variable, a literal, a
 * length, arithmetic that cannot fail, a descriptor's total, lengths,
 * offsets or segment ids?  A run moved past it then reports its errors in
 * the same order. */
static bool inert(Gen *g, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN:
        return true;
    case LE_BINOP: return !gen_may_fail(e) && inert(g, e->u.bin.l) && inert(g, e->u.bin.r);
    case LE_UNOP: return !gen_may_fail(e) && inert(g, e->u.un.e);
    case LE_CALL:
        return (gen_builtin_call(g, e, "total") || gen_builtin_call(g, e, "lengths") || gen_builtin_call(g, e, "offsets") ||
                gen_builtin_call(g, e, "segids")) && e->u.call.nargs == 1 && e->u.call.args[0]->kind == LE_VAR;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: case LE_LET: case LE_LOOP: case LE_IF: case LE_INDEX: case LE_RUN:
    case LE_STRING: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return false;
    }
    return false;
}

/* Bind i of block blk is let (.., v, ..) = run K (...), and a later bind
 * j is let s = make_sd (v[, t]): when every bind between is inert, names
 * no result of the run and rebinds no name it reads, and the target builds
 * K's results and v's descriptor in one pass (*fn, gen_kernel_sd), the run
 * moves to j: j, else -1. */
static int sd_partner(Gen *g, const LcuExpr *blk, int i, const char **fn)
{
    const LcuBind *b = blk->u.block.binds[i];
    if (!g->skel->gen_map_sd || b->rhs->kind != LE_RUN) return -1;
    for (int j = i + 1; j < blk->u.block.nbinds; j++) {
        const LcuBind *c = blk->u.block.binds[j];
        const LcuExpr *r = c->rhs;
        if (gen_builtin_call(g, r, "make_sd") && c->nvars == 1 && r->u.call.args[0]->kind == LE_VAR &&
            in_vars(b, r->u.call.args[0]->u.var)) {
            if (r->u.call.nargs > 1 && names_any(g, r->u.call.args[1], b)) return -1;
            const LcuKernel *k = gen_find_kernel(g->prog, b->rhs->u.call.name);
            if (!k || k->nrets != b->nvars) return -1;
            int p = 0;
            while (b->vars[p] != r->u.call.args[0]->u.var) p++;
            *fn = gen_kernel_sd(g, k, k->rets[p]);   /* the kernel's name for v */
            return *fn ? j : -1;
        }
        if (!inert(g, r) || names_any(g, r, b) || names_any(g, b->rhs, c)) return -1;
    }
    return -1;
}

/* let (..) = run K (...) moved to let s = make_sd (v[, t]): one call of fn. */
static const CEnv *gen_run_sd(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuBind *run, const LcuBind *mk, const char *fn,
                              CBlock *blk)
{
    Arena *a = g->a;
    const LcuExpr *r = run->rhs, *m = mk->rhs;
    CExpr **args;
    int n = flat_args(g, env, ec, r->u.call.nargs, r->u.call.args, blk, &args);
    CExpr *all[n + 1];
    memcpy(all, args, sizeof *all * (size_t)n);
    all[n] = m->u.call.nargs > 1 ? cx_cast(a, "int64_t", gen_expr(g, env, ec, m->u.call.args[1], blk)[0]) : cx_int(a, -1);
    int nr = lcu_t_arity(r->type);
    const LcuType *ts[nr + 1];
    for (int k = 0; k < nr; k++) ts[k] = lcu_t_component(r->type, k);
    ts[nr] = m->type;
    const LcuType *t = lcu_t_tuple(a, nr + 1, ts);
    CExpr **c = call(g, fn, gen_result_type(g, t, sname(g, r->u.call.name, "_sdr")), t, n + 1, all, blk);
    env = gen_bind(g, env, run, c, blk);
    return gen_bind(g, env, mk, &c[nr], blk);
}

/* ---- consecutive make_sd's in one scan (nesl_make_sd_group) ---- */
/* Is bind j a make_sd the group can take: its own, of a vector, with
 * inert arguments that name no descriptor the group makes before it? */
static bool sd_groupable(Gen *g, const LcuExpr *blk, int i, int j, const int *from)
{
    const LcuBind *c = blk->u.block.binds[j];
    const LcuExpr *r = c->rhs;
    if (from[j] >= 0 || c->nvars != 1 || !gen_builtin_call(g, r, "make_sd") || r->u.call.args[0]->kind != LE_VAR) return false;
    for (int k = 0; k < r->u.call.nargs; k++) {
        if (!inert(g, r->u.call.args[k])) return false;
        for (int h = i; h < j; h++)
            if (names_any(g, r->u.call.args[k], blk->u.block.binds[h])) return false;
    }
    return true;
}

/* The number of make_sd's from bind i on that one call makes (>= 2: the
 * runtime scans those of equal-length vectors together), else 1.
 * quicksort makes three descriptors of a SEG_REDUCE's three counts at
 * each level, and two of a MAP's results. */
static int sd_group_len(Gen *g, const LcuExpr *blk, int i, const int *from)
{
    if (!g->skel->device || !sd_groupable(g, blk, i, i, from)) return 1;
    int m = 1;
    while (i + m < blk->u.block.nbinds && m < SD_GROUP_MAX && sd_groupable(g, blk, i, i + m, from)) m++;
    return m;
}

/* type NAME[n] declared in cb, NAME fresh from prefix: NAME. */
static const char *decl_array(Gen *g, CBlock *cb, const char *type, const char *prefix, int n)
{
    const char *name = gen_fresh(g, prefix);
    char decl[96];
    snprintf(decl, sizeof decl, "%.80s[%d]", name, n);
    cs_decl(g->a, cb, type, arena_strndup(g->a, decl, strlen(decl)), NULL);
    return name;
}

/* Binds i..i+m-1 of blk (one descriptor each) to the elements of the
 * array sds that a grouped runtime call filled. */
static const CEnv *bind_group(Gen *g, const CEnv *env, const LcuExpr *blk, int i, int m, const char *sds, CBlock *cb)
{
    for (int j = 0; j < m; j++) {
        CExpr *s = cx_index(g->a, cx_name(g->a, sds), cx_int(g->a, j));
        env = gen_bind(g, env, blk->u.block.binds[i + j], &s, cb);
    }
    return env;
}

/* Consecutive filter_sd (s, kept) of one descriptor s and vectors kept
 * (nesl_filter_sd_group): their number from bind i on, else 1. */
static bool fsd_of(Gen *g, const LcuBind *b, Sym sd)
{
    const LcuExpr *r = b->rhs;
    return b->nvars == 1 && gen_builtin_call(g, r, "filter_sd") && r->u.call.args[0]->kind == LE_VAR &&
           r->u.call.args[1]->kind == LE_VAR && (!sd || r->u.call.args[0]->u.var == sd);
}

static int fsd_group_len(Gen *g, const LcuExpr *blk, int i)
{
    if (!g->skel->device || !fsd_of(g, blk->u.block.binds[i], NULL)) return 1;
    Sym sd = blk->u.block.binds[i]->rhs->u.call.args[0]->u.var;
    int m = 1;
    while (i + m < blk->u.block.nbinds && m < SD_GROUP_MAX && fsd_of(g, blk->u.block.binds[i + m], sd)) m++;
    return m;
}

/* Is bind j of blk `let s = op (x, y)` of variables, op a builtin? */
static bool sd_op_bind(Gen *g, const LcuExpr *blk, int j, const char *op)
{
    const LcuBind *b = blk->u.block.binds[j];
    const LcuExpr *r = b->rhs;
    return b->nvars == 1 && gen_builtin_call(g, r, op) && r->u.call.nargs == 2 && r->u.call.args[0]->kind == LE_VAR &&
           r->u.call.args[1]->kind == LE_VAR;
}

/* The index among binds i..i+m-1 (one variable each) that binds x, else -1. */
static int bound_at(const LcuExpr *blk, int i, int m, Sym x)
{
    for (int j = 0; j < m; j++)
        if (in_vars(blk->u.block.binds[i + j], x)) return j;
    return -1;
}

/* A later bind `let s = zip_sd (a, b)` of two of the m filter_sd's from
 * bind i, with only inert binds between (the zip moves up to the group's
 * launch, which computes it: nesl_filter_sd_group_zip): its index, with
 * a's and b's places in the group, else -1. */
static int fsd_zip_partner(Gen *g, const LcuExpr *blk, int i, int m, int *za, int *zb)
{
    for (int j = i + m; j < blk->u.block.nbinds; j++) {
        if (sd_op_bind(g, blk, j, "zip_sd")) {
            const LcuExpr *r = blk->u.block.binds[j]->rhs;
            *za = bound_at(blk, i, m, r->u.call.args[0]->u.var);
            *zb = bound_at(blk, i, m, r->u.call.args[1]->u.var);
            if (*za >= 0 && *zb >= 0) return j;
        }
        if (!inert(g, blk->u.block.binds[j]->rhs)) return -1;
    }
    return -1;
}

/* The group's call; *zipped: the bind of a zip it also computes, else -1. */
static const CEnv *gen_fsd_group(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *blk, int i, int m, int *zipped, CBlock *cb)
{
    Arena *a = g->a;
    const char *kept = decl_array(g, cb, "const NeslVec *", "fsk", m), *sds = decl_array(g, cb, "NeslSd *", "fss", m);
    for (int j = 0; j < m; j++)
        cs_assign(a, cb, cx_index(a, cx_name(a, kept), cx_int(a, j)), gen_expr(g, env, ec, blk->u.block.binds[i + j]->rhs->u.call.args[1], cb)[0]);
    CExpr *sd = gen_expr(g, env, ec, blk->u.block.binds[i]->rhs->u.call.args[0], cb)[0];
    int za, zb;
    *zipped = fsd_zip_partner(g, blk, i, m, &za, &zb);
    if (*zipped < 0) {
        cs_expr(a, cb, cx_calln(a, "nesl_filter_sd_group", 5, rt_of(g), sd, cx_int(a, m), cx_name(a, kept), cx_name(a, sds)));
        return bind_group(g, env, blk, i, m, sds, cb);
    }
    const char *zip = gen_fresh(g, "t");
    cs_decl(a, cb, "NeslSd *", zip, NULL);
    cs_expr(a, cb, cx_calln(a, "nesl_filter_sd_group_zip", 8, rt_of(g), sd, cx_int(a, m), cx_name(a, kept), cx_name(a, sds), cx_int(a, za),
                            cx_int(a, zb), cx_un(a, CU_ADDR, cx_name(a, zip))));
    env = bind_group(g, env, blk, i, m, sds, cb);
    CExpr *z = cx_name(a, zip);
    return gen_bind(g, env, blk->u.block.binds[*zipped], &z, cb);
}

/* Bind i is `let s1 = sum_sd (a, b)` and a later one `let s2 = sum_sd (s1,
 * c)` of a c bound before i, with only inert binds between: s2's index
 * (both come from one launch, nesl_sum_sd2), else -1. */
static int sum_sd_partner(Gen *g, const LcuExpr *blk, int i)
{
    if (!g->skel->device || !sd_op_bind(g, blk, i, "sum_sd")) return -1;
    Sym s1 = blk->u.block.binds[i]->vars[0];
    for (int j = i + 1; j < blk->u.block.nbinds; j++) {
        if (sd_op_bind(g, blk, j, "sum_sd")) {
            const LcuExpr *r = blk->u.block.binds[j]->rhs;
            if (r->u.call.args[0]->u.var == s1 && bound_at(blk, i, j - i, r->u.call.args[1]->u.var) < 0) return j;
        }
        if (!inert(g, blk->u.block.binds[j]->rhs)) return -1;
    }
    return -1;
}

static const CEnv *gen_sum_sd2(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *blk, int i, int j, CBlock *cb)
{
    Arena *a = g->a;
    const LcuExpr *r1 = blk->u.block.binds[i]->rhs, *r2 = blk->u.block.binds[j]->rhs;
    const char *s1 = gen_fresh(g, "t"), *s2 = gen_fresh(g, "t");
    cs_decl(a, cb, "NeslSd *", s1, NULL);
    cs_decl(a, cb, "NeslSd *", s2, NULL);
    CExpr *x = gen_expr(g, env, ec, r1->u.call.args[0], cb)[0], *y = gen_expr(g, env, ec, r1->u.call.args[1], cb)[0];
    CExpr *z = gen_expr(g, env, ec, r2->u.call.args[1], cb)[0];
    cs_expr(a, cb, cx_calln(a, "nesl_sum_sd2", 6, rt_of(g), x, y, z, cx_un(a, CU_ADDR, cx_name(a, s1)), cx_un(a, CU_ADDR, cx_name(a, s2))));
    CExpr *e1 = cx_name(a, s1), *e2 = cx_name(a, s2);
    env = gen_bind(g, env, blk->u.block.binds[i], &e1, cb);
    return gen_bind(g, env, blk->u.block.binds[j], &e2, cb);
}

static const CEnv *gen_sd_group(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *blk, int i, int m, CBlock *cb)
{
    Arena *a = g->a;
    const char *lens = decl_array(g, cb, "const NeslVec *", "sdl", m), *tots = decl_array(g, cb, "int64_t", "sdt", m),
               *sds = decl_array(g, cb, "NeslSd *", "sds", m);
    for (int j = 0; j < m; j++) {
        const LcuExpr *r = blk->u.block.binds[i + j]->rhs;
        cs_assign(a, cb, cx_index(a, cx_name(a, lens), cx_int(a, j)), gen_expr(g, env, ec, r->u.call.args[0], cb)[0]);
        CExpr *t = r->u.call.nargs > 1 ? cx_cast(a, "int64_t", gen_expr(g, env, ec, r->u.call.args[1], cb)[0]) : cx_int(a, -1);
        cs_assign(a, cb, cx_index(a, cx_name(a, tots), cx_int(a, j)), t);
    }
    cs_expr(a, cb, cx_calln(a, "nesl_make_sd_group", 5, rt_of(g), cx_int(a, m), cx_name(a, lens), cx_name(a, tots), cx_name(a, sds)));
    return bind_group(g, env, blk, i, m, sds, cb);
}

/* ---- segment ids not filled (CVal.segids_of) ---- */
/* run K (...) whose arguments include segment ids not filled, of one
 * descriptor, that K can find itself (gen_kernel_ids): its call, else NULL
 * (nothing emitted; the ids are filled where the arguments are made). */
static CExpr **run_ids(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, const LcuKernel *k, CBlock *blk)
{
    int n = e->u.call.nargs;
    if (!g->skel->gen_map_seg || n != k->nparams || n == 0) return NULL;
    bool virt[n];
    CExpr *sd = NULL;
    for (int i = 0; i < n; i++) {
        const LcuExpr *x = e->u.call.args[i];
        const CVal *v = x->kind == LE_VAR ? cenv_find(env, x->u.var) : NULL;
        if (lcu_t_arity(x->type) != 1) return NULL;
        virt[i] = v && v->segids_of && (!sd || v->segids_of == sd);
        if (virt[i]) sd = v->segids_of;
    }
    const char *fn = sd ? gen_kernel_ids(g, k, virt) : NULL;
    if (!fn) return NULL;
    CExpr *args[n + 1];
    args[0] = rt_of(g);
    for (int i = 0; i < n; i++) args[1 + i] = virt[i] ? sd : gen_expr(g, env, ec, e->u.call.args[i], blk)[0];
    return call(g, fn, gen_result_type(g, k->result, sname(g, k->name, "_kr")), k->result, n + 1, args, blk);
}

CExpr **gen_cpu_expr(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    Arena *a = g->a;
    switch (e->kind) {
    case LE_CALL: {
        const LcuFun *f = find_fun(g->prog, e->u.call.name);
        if (!f) return cpu_builtin(g, env, ec, e, blk);
        CExpr **args;
        int n = flat_args(g, env, ec, e->u.call.nargs, e->u.call.args, blk, &args);
        return call(g, gen_fun_name(g, f->name), gen_result_type(g, f->result, sname(g, f->name, "_fr")), f->result, n, args, blk);
    }
    case LE_RUN: {
        const LcuKernel *k = gen_find_kernel(g->prog, e->u.call.name);
        if (!k) ICE("code generation: unknown kernel '%s'", e->u.call.name);
        CExpr **r = run_ids(g, env, ec, e, k, blk);
        if (r) return r;
        CExpr **args;
        int n = flat_args(g, env, ec, e->u.call.nargs, e->u.call.args, blk, &args);
        return call(g, gen_kernel(g, k), gen_result_type(g, k->result, sname(g, k->name, "_kr")), k->result, n, args, blk);
    }
    case LE_VECLIT: {
        LcuBase b = e->type->base;
        int n = e->u.tuple.n;
        CExpr *el[n];
        for (int i = 0; i < n; i++) el[i] = gen_expr(g, env, ec, e->u.tuple.elems[i], blk)[0];
        if (g->skel->device && n > 0) {   /* a host array, copied to the device */
            const char *h = decl_array(g, blk, gen_base_ctype(g, b), "lit", n);
            for (int i = 0; i < n; i++) cs_assign(a, blk, cx_index(a, cx_name(a, h), cx_int(a, i)), el[i]);
            return one(g, hoist(g, blk, "NeslVec *", cx_calln(a, "nesl_vec_from_host", 4, rt_of(g), cx_name(a, gen_base_enum(g, b)),
                                                              cx_int(a, n), cx_name(a, h))));
        }
        CExpr *v = hoist(g, blk, "NeslVec *", cx_calln(a, "nesl_vec_new", 3, rt_of(g), cx_name(a, gen_base_enum(g, b)), cx_int(a, n)));
        char pt[32];
        snprintf(pt, sizeof pt, "%s *", gen_base_ctype(g, b));
        CExpr *d = cx_cast(a, arena_strndup(a, pt, strlen(pt)), cx_arrow(a, v, "data"));
        for (int i = 0; i < n; i++) cs_assign(a, blk, cx_index(a, d, cx_int(a, i)), el[i]);
        return one(g, v);
    }
    case LE_STRING:   /* not hoisted: see is_string_const */
        return one(g, cx_calln(a, "nesl_string", 3, rt_of(g), cx_str(a, e->u.str.s, e->u.str.len), cx_int(a, e->u.str.len)));
    case LE_BLOCK: {
        int nb = e->u.block.nbinds;
        int from[nb + 1];   /* from[j]: the run that bind j's make_sd takes in, else -1 */
        bool done[nb + 1];  /* bind j generated with an earlier one's call */
        const char *sdfn[nb + 1];
        for (int j = 0; j < nb; j++) from[j] = -1, done[j] = false;
        for (int i = 0; i < nb; i++) {
            const LcuBind *b = e->u.block.binds[i];
            if (done[i]) continue;
            if (from[i] >= 0) {
                env = gen_run_sd(g, env, ec, e->u.block.binds[from[i]], b, sdfn[i], blk);
                continue;
            }
            if (g->skel->gen_map_seg && gen_builtin_call(g, b->rhs, "segids") && b->nvars == 1) {   /* filled where used */
                CExpr *sd = gen_expr(g, env, ec, b->rhs->u.call.args[0], blk)[0];
                CExpr *fill = cx_calln(g->a, "nesl_segids", 2, rt_of(g), sd);
                CVal *v = cval_new(g, b->rhs->type, 1, &fill);
                v->segids_of = sd;
                env = cenv_bind(g, env, b->vars[0], v);
                continue;
            }
            int mf = fsd_group_len(g, e, i);
            if (mf > 1) {
                int zipped;
                env = gen_fsd_group(g, env, ec, e, i, mf, &zipped, blk);
                if (zipped >= 0) done[zipped] = true;
                i += mf - 1;
                continue;
            }
            int s2 = sum_sd_partner(g, e, i);
            if (s2 >= 0) {
                env = gen_sum_sd2(g, env, ec, e, i, s2, blk);
                done[s2] = true;
                continue;
            }
            int m = sd_group_len(g, e, i, from);
            if (m > 1) {
                env = gen_sd_group(g, env, ec, e, i, m, blk);
                i += m - 1;
                continue;
            }
            const char *fn;
            int j = sd_partner(g, e, i, &fn);
            if (j >= 0) {   /* generated at j */
                from[j] = i;
                sdfn[j] = fn;
                continue;
            }
            env = gen_bind(g, env, b, gen_expr(g, env, ec, b->rhs, blk), blk);
        }
        return gen_expr(g, env, ec, e->u.block.result, blk);
    }
    case LE_LIB: return gen_lib(g, env, ec, e, blk);
    case LE_SOAC:
        gen_error(g, e->span, "an inline SOAC reached code generation (the program is not kernel-formed)");
        return zeros(g, e->type);
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_TUPLE:
    case LE_LET: case LE_IF: case LE_BINOP: case LE_UNOP: case LE_INDEX: case LE_LEN:
        break;
    case LE_LOOP: case LE_RECUR:
        ICE("gen_cpu_expr of GPU-only iterate/recur");
    }
    ICE("gen_cpu_expr of a shared form");
}

void gen_function(Gen *g, const LcuFun *fn)
{
    Arena *a = g->a;
    CFunc *f = arena_alloc(a, sizeof *f);
    f->is_static = true;
    f->name = gen_fun_name(g, fn->name);
    f->ret = gen_result_type(g, fn->result, sname(g, fn->name, "_fr"));
    int np = 1;
    for (int i = 0; i < fn->nparams; i++) np += lcu_t_arity(fn->params[i].type);
    f->nparams = np;
    f->params = arena_alloc(a, sizeof *f->params * (size_t)np);
    f->params[0] = (CParam){ "NeslRt *", "rt" };
    f->body = cb_new(a);
    char c[96];
    snprintf(c, sizeof c, "function %.80s", fn->name);
    f->comment = arena_strndup(a, c, strlen(c));
    const CEnv *env = NULL;
    int k = 1;
    for (int i = 0; i < fn->nparams; i++) {
        const LcuType *t = fn->params[i].type;
        int n = lcu_t_arity(t);
        CExpr *comps[n];
        for (int j = 0; j < n; j++, k++) {
            const char *pn = gen_fresh(g, fn->params[i].name);
            f->params[k] = (CParam){ gen_ctype(g, lcu_t_component(t, j)), pn };
            comps[j] = cx_name(a, pn);
        }
        env = cenv_bind(g, env, fn->params[i].name, cval_new(g, t, n, comps));
    }
    CExpr *rt = rt_of(g);
    cs_expr(a, f->body, cx_calln(a, "nesl_enter", 2, rt, cx_str(a, fn->name, (int)strlen(fn->name))));
    const char *mark = gen_fresh(g, "mark");
    cs_decl(a, f->body, "size_t", mark, cx_calln(a, "nesl_mark", 1, rt));
    ErrCtx ec = { cx_calln(a, "nesl_herr", 1, rt), cx_int(a, 0), true, true };
    CExpr **res = gen_expr(g, env, &ec, fn->body, f->body);
    CExpr *r = gen_return(g, f->body, fn->result, f->ret, res, rt, cx_name(a, mark));
    cs_expr(a, f->body, cx_calln(a, "nesl_leave", 1, rt));
    cs_return(a, f->body, r);
    ptrvec_push(a, &g->unit->funcs, f);
}
