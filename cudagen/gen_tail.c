/* gen_tail.c — the block-local tail (doc/codegen.md, "The block-local
 * tail"; rt/nesl_cuda_bt.cuh): for each lifted recursive function, its
 * host code and every function and kernel it reaches printed again as
 * __device__ code that one block runs, a kernel that runs it for a group
 * of calls a block, and a dispatcher that the grid function calls first.
 *
 * The device copy is the same C tree with the runtime's calls renamed
 * (nesl_X -> nesl_bt_X, the names rt/nesl_cuda_bt.cuh defines), the
 * statistics left out, and NeslBt * for NeslRt *.  A function whose code
 * calls anything else (the host bridge, printing, a library kernel) gets
 * no tail: its calls all run on the grid, as before. */
#include <stdlib.h>
#include <string.h>
#include "cudagen.h"

/* The runtime calls a tail has, renamed nesl_X -> nesl_bt_X. */
static const char *const bt_renamed[] = {
    "vec_new", "vec_zero", "string", "tmp", "tmp_zero", "cu_tmp", "mark", "release", "enter", "leave", "check", "size",
    "same_len", "cu_index_short", "cu_raise", "vec_get", "sd_new", "sd_lens", "sd_offs", "sd_total", "sd_segids", "lengths",
    "offsets", "segids", "make_sd", "make_sd_total", "make_sd_group", "dist_sd", "sum_sd", "sum_sd2", "cat_sd", "zip_sd",
    "cu_kept_rank", "cu_kept_rank_only", "filter_sd", "filter_sd_group", "filter_sd_group_zip", "cu_map", "cu_map_each",
    "cu_map_tiled", "cu_map_seg", "cu_map_sd", "map_and", "cu_once", "cu_reduce", "cu_scan", "cu_seg_fold", "cu_seg_lens",
    "cu_permute", "cu_filter", "cu_filter_later", "cu_filter_kept", "cu_count", "filter_out", "cu_filter_multi_later",
};
/* Calls whose statement the copy leaves out (statistics, host error records). */
static const char *const bt_dropped[] = { "nesl_stat_kernel", "nesl_stat_soac", "nesl_stat_lib", "nesl_err_init" };

/* Scalar helpers of rt/nesl_scalar.h and the math wrappers: host and device code. */
static bool bt_shared_call(const char *fn)
{
    static const char *const shared[] = {
        "nesl_wrap32", "nesl_iadd", "nesl_isub", "nesl_imul", "nesl_ineg", "nesl_idiv", "nesl_rem", "nesl_mod", "nesl_iabs",
        "nesl_div_in", "nesl_pos_in", "nesl_band", "nesl_bor", "nesl_bxor", "nesl_bnot", "nesl_lshift", "nesl_rshift",
        "nesl_ipow", "nesl_fpow", "nesl_fpowf", "nesl_isqrt", "nesl_expt", "nesl_exptf", "nesl_f2i", "nesl_trunc",
        "nesl_floor", "nesl_ceil", "nesl_round", "nesl_imax", "nesl_imin", "nesl_fmax", "nesl_fmin", "nesl_fmaxf",
        "nesl_fminf", "nesl_code_char", "nesl_btoi",
    };
    for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
        if (!strcmp(fn, shared[i])) return true;
    return !strncmp(fn, "nesl_m_", 7) || !strncmp(fn, "nesl_mf_", 8);
}

/* fn's name without template arguments, into buf. */
static const char *bare(const char *fn, char *buf, size_t cap)
{
    size_t n = strcspn(fn, "<");
    if (n >= cap) n = cap - 1;
    memcpy(buf, fn, n);
    buf[n] = 0;
    return buf;
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i])) return true;
    return false;
}

/* ---- the unit's call graph ----
 * Each function's body is walked once, for its events in the order the
 * walk meets them: a call of a unit function, or a call or name a tail
 * cannot have.  A function's closure (what its calls reach), and whether
 * it is on a cycle (its closure holds it), are walks of the graph. */
typedef struct CallEv {
    int callee;            /* the unit function called, or -1 */
    const char *bad;       /* callee -1: the call or name a tail cannot have */
} CallEv;

typedef struct CallGraph {
    const Gen *g;
    Arena *a;
    int n;                 /* the unit's functions (g->unit->funcs.items[0..n)) */
    PtrVec *events;        /* per function: CallEv *, in walk order */
    bool *in;              /* per function: reached (closure) */
    int *order, norder;    /* the functions reached, in the order first met (closure) */
} CallGraph;

static int func_index(const CallGraph *cg, const char *name)
{
    for (int i = 0; i < cg->n; i++)
        if (!strcmp(((CFunc *)cg->g->unit->funcs.items[i])->name, name)) return i;
    return -1;
}

static void add_event(CallGraph *cg, int from, int callee, const char *bad)
{
    CallEv *e = arena_alloc(cg->a, sizeof *e);
    *e = (CallEv){ callee, bad };
    ptrvec_push(cg->a, &cg->events[from], e);
}

static void walk_block(CallGraph *cg, int from, const CBlock *b);

static bool is_dropped_call(const CExpr *e)
{
    return e && e->kind == CX_CALL && in_list(e->u.call.fn, bt_dropped, sizeof bt_dropped / sizeof *bt_dropped);
}

static bool is_stats_if(const CStmt *s)
{
    return s->kind == CS_IF && s->u.if_.c->kind == CX_CALL && !strcmp(s->u.if_.c->u.call.fn, "nesl_kstats_on");
}

static void walk_expr(CallGraph *cg, int from, const CExpr *e)
{
    if (!e) return;
    switch (e->kind) {
    case CX_INT: case CX_FLOAT: case CX_STR: case CX_SIZEOF: return;
    case CX_NAME:
        if (!strncmp(e->u.name, "nesl_", 5)) add_event(cg, from, -1, e->u.name);
        return;
    case CX_BIN: walk_expr(cg, from, e->u.bin.l); walk_expr(cg, from, e->u.bin.r); return;
    case CX_UN: walk_expr(cg, from, e->u.un.e); return;
    case CX_INDEX: walk_expr(cg, from, e->u.index.a); walk_expr(cg, from, e->u.index.i); return;
    case CX_ARROW: case CX_MEMBER: walk_expr(cg, from, e->u.member.e); return;
    case CX_COND: walk_expr(cg, from, e->u.cond.c); walk_expr(cg, from, e->u.cond.t); walk_expr(cg, from, e->u.cond.e); return;
    case CX_CAST: walk_expr(cg, from, e->u.cast.e); return;
    case CX_CALL: {
        for (int i = 0; i < e->u.call.nargs; i++) walk_expr(cg, from, e->u.call.args[i]);
        char buf[128];
        const char *fn = bare(e->u.call.fn, buf, sizeof buf);
        int callee = func_index(cg, fn);
        if (callee >= 0) add_event(cg, from, callee, NULL);
        else if (strncmp(fn, "nesl_", 5) || !(bt_shared_call(fn) || in_list(fn + 5, bt_renamed, sizeof bt_renamed / sizeof *bt_renamed)))
            add_event(cg, from, -1, e->u.call.fn);
        return;
    }
    }
}

static void walk_block(CallGraph *cg, int from, const CBlock *b)
{
    for (int i = 0; b && i < b->n; i++) {
        const CStmt *s = b->stmts[i];
        if (is_stats_if(s) || (s->kind == CS_EXPR && is_dropped_call(s->u.expr))) continue;
        switch (s->kind) {
        case CS_DECL:
            if (!strcmp(s->u.decl.type, "NeslErr")) continue;   /* the copy leaves it out (with nesl_err_init) */
            walk_expr(cg, from, s->u.decl.init);
            break;
        case CS_ASSIGN: walk_expr(cg, from, s->u.assign.lhs); walk_expr(cg, from, s->u.assign.rhs); break;
        case CS_EXPR: case CS_RETURN: walk_expr(cg, from, s->u.expr); break;
        case CS_IF: walk_expr(cg, from, s->u.if_.c); walk_block(cg, from, s->u.if_.then_b); walk_block(cg, from, s->u.if_.else_b); break;
        case CS_FOR: walk_expr(cg, from, s->u.for_.lo); walk_expr(cg, from, s->u.for_.hi); walk_block(cg, from, s->u.for_.body); break;
        case CS_BLOCK: case CS_LOOP: walk_block(cg, from, s->u.block); break;
        case CS_PRAGMA: case CS_COMMENT: case CS_JUMP: break;
        }
    }
}

static CallGraph call_graph(Gen *g)
{
    CallGraph cg = { g, g->a, g->unit->funcs.len, NULL, NULL, NULL, 0 };
    cg.events = arena_alloc(g->a, sizeof *cg.events * (size_t)(cg.n + 1));
    cg.in = arena_alloc(g->a, sizeof *cg.in * (size_t)(cg.n + 1));
    cg.order = arena_alloc(g->a, sizeof *cg.order * (size_t)(cg.n + 1));
    for (int i = 0; i < cg.n; i++) cg.events[i] = (PtrVec){ 0 };
    for (int i = 0; i < cg.n; i++) walk_block(&cg, i, ((CFunc *)g->unit->funcs.items[i])->body);
    return cg;
}

/* What function i's calls reach (cg->in, cg->order), and the first call
 * or name a tail cannot have. */
static void reach_from(CallGraph *cg, int i, const char **bad)
{
    for (int k = 0; k < cg->events[i].len; k++) {
        const CallEv *e = cg->events[i].items[k];
        if (e->callee < 0) {
            if (!*bad) *bad = e->bad;
            continue;
        }
        if (cg->in[e->callee]) continue;
        cg->in[e->callee] = true;
        cg->order[cg->norder++] = e->callee;
        reach_from(cg, e->callee, bad);
    }
}

static void closure(CallGraph *cg, int i, const char **bad)
{
    memset(cg->in, 0, sizeof *cg->in * (size_t)cg->n);
    cg->norder = 0;
    reach_from(cg, i, bad);
}

/* Whether function i is on a cycle: its calls come back to it. */
static bool recurses(CallGraph *cg, int i)
{
    const char *bad = NULL;
    closure(cg, i, &bad);
    return cg->in[i];
}

/* ---- the device copy ---- */
static const char *bt_name(Arena *a, const char *name)
{
    size_t n = strlen(name);
    char *s = arena_alloc(a, n + 4);
    memcpy(s, name, n);
    memcpy(s + n, "_bt", 4);
    return s;
}

static CBlock *copy_block(Arena *a, const CBlock *b);

static CExpr *copy_expr(Arena *a, const CExpr *e)
{
    if (!e) return NULL;
    CExpr *r = arena_alloc(a, sizeof *r);
    *r = *e;
    switch (e->kind) {
    case CX_INT: case CX_FLOAT: case CX_STR: case CX_SIZEOF: case CX_NAME: return r;
    case CX_BIN: r->u.bin.l = copy_expr(a, e->u.bin.l); r->u.bin.r = copy_expr(a, e->u.bin.r); return r;
    case CX_UN: r->u.un.e = copy_expr(a, e->u.un.e); return r;
    case CX_INDEX: r->u.index.a = copy_expr(a, e->u.index.a); r->u.index.i = copy_expr(a, e->u.index.i); return r;
    case CX_ARROW: case CX_MEMBER: r->u.member.e = copy_expr(a, e->u.member.e); return r;
    case CX_COND:
        r->u.cond.c = copy_expr(a, e->u.cond.c);
        r->u.cond.t = copy_expr(a, e->u.cond.t);
        r->u.cond.e = copy_expr(a, e->u.cond.e);
        return r;
    case CX_CAST: r->u.cast.e = copy_expr(a, e->u.cast.e); return r;
    case CX_CALL: {
        r->u.call.args = arena_alloc(a, sizeof *r->u.call.args * (size_t)(e->u.call.nargs + 1));
        for (int i = 0; i < e->u.call.nargs; i++) r->u.call.args[i] = copy_expr(a, e->u.call.args[i]);
        const char *fn = e->u.call.fn;
        if (!strncmp(fn, "nesl_", 5) && !bt_shared_call(fn)) {   /* nesl_X<...> -> nesl_bt_X<...> */
            size_t n = strlen(fn);
            char *s = arena_alloc(a, n + 4);
            memcpy(s, "nesl_bt_", 8);
            memcpy(s + 8, fn + 5, n - 4);
            r->u.call.fn = s;
        } else if (strncmp(fn, "nesl_", 5)) {   /* a function of the closure */
            r->u.call.fn = bt_name(a, fn);
        }
        return r;
    }
    }
    return r;
}

static CBlock *copy_block(Arena *a, const CBlock *b)
{
    if (!b) return NULL;
    CBlock *r = cb_new(a);
    for (int i = 0; i < b->n; i++) {
        const CStmt *s = b->stmts[i];
        if (is_stats_if(s) || (s->kind == CS_EXPR && is_dropped_call(s->u.expr))) continue;
        if (s->kind == CS_DECL && !strcmp(s->u.decl.type, "NeslErr")) continue;
        CStmt *t = arena_alloc(a, sizeof *t);
        *t = *s;
        switch (s->kind) {
        case CS_DECL: t->u.decl.init = copy_expr(a, s->u.decl.init); break;
        case CS_ASSIGN: t->u.assign.lhs = copy_expr(a, s->u.assign.lhs); t->u.assign.rhs = copy_expr(a, s->u.assign.rhs); break;
        case CS_EXPR: case CS_RETURN: t->u.expr = copy_expr(a, s->u.expr); break;
        case CS_IF:
            t->u.if_.c = copy_expr(a, s->u.if_.c);
            t->u.if_.then_b = copy_block(a, s->u.if_.then_b);
            t->u.if_.else_b = copy_block(a, s->u.if_.else_b);
            break;
        case CS_FOR:
            t->u.for_.lo = copy_expr(a, s->u.for_.lo);
            t->u.for_.hi = copy_expr(a, s->u.for_.hi);
            t->u.for_.body = copy_block(a, s->u.for_.body);
            break;
        case CS_BLOCK: case CS_LOOP: t->u.block = copy_block(a, s->u.block); break;
        case CS_PRAGMA: case CS_COMMENT: case CS_JUMP: break;
        }
        cb_add(a, r, t);
    }
    return r;
}

/* A function on a cycle of calls stays a call (a recursion cannot be
 * inlined); a leaf (a kernel's launch, a helper that never comes back to
 * itself) is NESL_BT_LEAF, which rt/nesl_cuda_bt.cuh defines
 * (doc/codegen.md, "The block-local tail"). */
static CFunc *device_copy(Gen *g, const CFunc *f, bool leaf)
{
    Arena *a = g->a;
    CFunc *d = arena_alloc(a, sizeof *d);
    *d = *f;
    d->attr = leaf ? "__device__ NESL_BT_LEAF" : "__device__ __noinline__";
    d->is_static = true;
    d->name = bt_name(a, f->name);
    d->comment = NULL;
    d->params = arena_alloc(a, sizeof *d->params * (size_t)f->nparams);
    for (int i = 0; i < f->nparams; i++) d->params[i] = f->params[i];
    d->params[0].type = "NeslBt *";
    d->body = copy_block(a, f->body);
    return d;
}

/* ---- the tail kernel and the dispatcher of lifted function fn ---- */
/* The components of fn's result as C expressions of variable var. */
static CExpr *result_comp(Gen *g, const LcuFun *fn, CExpr *var, int k)
{
    if (lcu_t_arity(fn->result) == 1) return var;
    char field[16];
    snprintf(field, sizeof field, "c%d", k);
    return cx_member(g->a, var, arena_strndup(g->a, field, strlen(field)));
}

static void gen_tail_kernel(Gen *g, const LcuFun *fn, const CFunc *host, const char *kname)
{
    Arena *a = g->a;
    CFunc *k = arena_alloc(a, sizeof *k);
    k->attr = "__global__ __launch_bounds__(NESL_BLOCK, NESL_BT_MINB)";
    k->is_static = true;
    k->ret = "void";
    k->name = kname;
    k->nparams = 1;
    k->params = arena_alloc(a, sizeof *k->params);
    k->params[0] = (CParam){ "const NeslBtLaunch", "L" };
    char c[128];
    snprintf(c, sizeof c, "the block-local tail of %.80s", fn->name);
    k->comment = arena_strndup(a, c, strlen(c));
    CBlock *b = k->body = cb_new(a);
    CExpr *rt = cx_name(a, "rt"), *L = cx_name(a, "L");
    cs_expr(a, b, cx_calln(a, "NESL_PDL_WAIT", 0));
    cs_decl(a, b, "char", "stack0", NULL);
    cs_decl(a, b, "NeslBt", "bt", NULL);
    cs_decl(a, b, "NeslBt *", "rt", cx_un(a, CU_ADDR, cx_name(a, "bt")));
    cs_expr(a, b, cx_calln(a, "nesl_bt_begin", 3, rt, L, cx_un(a, CU_ADDR, cx_name(a, "stack0"))));
    CExpr **args = arena_alloc(a, sizeof *args * (size_t)host->nparams);
    args[0] = rt;
    for (int i = 0; i < fn->nparams; i++) {
        const LcuType *t = fn->params[i].type;
        CExpr *x = NULL;
        switch (t->kind) {
        case LT_BASE: x = cx_cast(a, host->params[i + 1].type, cx_calln(a, "nesl_bt_arg_int", 3, rt, L, cx_int(a, i))); break;
        case LT_VEC: case LT_REF: x = cx_calln(a, "nesl_bt_arg_vec", 2, rt, cx_int(a, i)); break;
        case LT_SD: x = cx_calln(a, "nesl_bt_arg_sd", 2, rt, cx_int(a, i)); break;
        case LT_TUPLE: ICE("gen_tail_kernel: a tuple parameter");
        }
        args[i + 1] = x;
    }
    cs_decl(a, b, host->ret, "r", cx_call(a, bt_name(a, host->name), host->nparams, args));
    CExpr *r = cx_name(a, "r");
    for (int k2 = 0; k2 < lcu_t_arity(fn->result); k2++) {
        bool sd = lcu_t_component(fn->result, k2)->kind == LT_SD;
        cs_expr(a, b, cx_calln(a, sd ? "nesl_bt_put_sd" : "nesl_bt_put_vec", 4, rt, L, cx_int(a, k2), result_comp(g, fn, r, k2)));
    }
    cs_expr(a, b, cx_calln(a, "nesl_bt_end", 2, rt, L));
    ptrvec_push(a, &g->unit->funcs, k);
}

/* static bool F_btd (rt, F's parameters, result *res): the tail, or false. */
static const char *gen_dispatcher(Gen *g, const LcuFun *fn, const CFunc *host, const char *kname)
{
    Arena *a = g->a;
    int nr = lcu_t_arity(fn->result);
    CFunc *d = arena_alloc(a, sizeof *d);
    d->is_static = true;
    d->ret = "bool";
    char nm[160];
    snprintf(nm, sizeof nm, "%s_btd", host->name);
    d->name = arena_strndup(a, nm, strlen(nm));
    d->nparams = host->nparams + 1;
    d->params = arena_alloc(a, sizeof *d->params * (size_t)d->nparams);
    for (int i = 0; i < host->nparams; i++) d->params[i] = host->params[i];
    char rtp[160];
    snprintf(rtp, sizeof rtp, "%s *", host->ret);
    d->params[host->nparams] = (CParam){ arena_strndup(a, rtp, strlen(rtp)), "res" };
    CBlock *b = d->body = cb_new(a);
    CExpr *rt = cx_name(a, "rt"), *Lp = cx_un(a, CU_ADDR, cx_name(a, "L"));
    cs_decl(a, b, "NeslBtLaunch", "L", NULL);
    CBlock *no = cb_new(a);
    cs_return(a, no, cx_name(a, "false"));
    cs_if(a, b, cx_un(a, CU_NOT, cx_calln(a, "nesl_bt_open", 4, rt, Lp, cx_int(a, fn->nparams), cx_int(a, nr))), no, NULL);
    const LcuLiftShape *sh = fn->lift;
    for (int i = 0; i < fn->nparams; i++) {
        CExpr *p = cx_name(a, host->params[i + 1].name);
        switch (fn->params[i].type->kind) {
        case LT_BASE: cs_expr(a, b, cx_calln(a, "nesl_bt_param_int", 3, Lp, cx_int(a, i), p)); break;
        case LT_VEC: case LT_REF:
            cs_expr(a, b, cx_calln(a, "nesl_bt_param_vec", 5, rt, Lp, cx_int(a, i), cx_int(a, sh->param_parent[i]), p));
            break;
        case LT_SD: cs_expr(a, b, cx_calln(a, "nesl_bt_param_sd", 5, rt, Lp, cx_int(a, i), cx_int(a, sh->param_parent[i]), p)); break;
        case LT_TUPLE: ICE("gen_dispatcher: a tuple parameter");
        }
    }
    char rb[32];
    snprintf(rb, sizeof rb, "rb[%d]", nr);
    cs_decl(a, b, "NeslBase", arena_strndup(a, rb, strlen(rb)), NULL);
    snprintf(rb, sizeof rb, "out[%d]", nr);
    cs_decl(a, b, "void *", arena_strndup(a, rb, strlen(rb)), NULL);
    for (int k = 0; k < nr; k++) {
        const LcuType *t = lcu_t_component(fn->result, k);
        bool sd = t->kind == LT_SD;
        cs_expr(a, b, cx_calln(a, "nesl_bt_result", 3, Lp, cx_int(a, k), cx_name(a, sd ? "NESL_BT_PSD" : "NESL_BT_PVEC")));
        cs_assign(a, b, cx_index(a, cx_name(a, "rb"), cx_int(a, k)), cx_name(a, sd ? "NESL_INT" : gen_base_enum(g, t->base)));
    }
    CExpr *run = cx_calln(a, "nesl_bt_run", 5, rt, Lp, cx_cast(a, "const void *", cx_name(a, kname)), cx_name(a, "rb"), cx_name(a, "out"));
    CBlock *no2 = cb_new(a);
    cs_return(a, no2, cx_name(a, "false"));
    cs_if(a, b, cx_un(a, CU_NOT, run), no2, NULL);
    CExpr *res = cx_un(a, CU_DEREF, cx_name(a, "res"));
    for (int k = 0; k < nr; k++) {
        const char *ct = lcu_t_component(fn->result, k)->kind == LT_SD ? "NeslSd *" : "NeslVec *";
        cs_assign(a, b, result_comp(g, fn, res, k), cx_cast(a, ct, cx_index(a, cx_name(a, "out"), cx_int(a, k))));
    }
    cs_return(a, b, cx_name(a, "true"));
    ptrvec_push(a, &g->unit->funcs, d);
    return d->name;
}

/* Why fn cannot have a tail (NULL: it can): its parameters and results
 * must be the lifted ones the shape describes, one C parameter each. */
static const char *shape_problem(const LcuFun *fn, const CFunc *host)
{
    const LcuLiftShape *sh = fn->lift;
    if (!sh || sh->nparams != fn->nparams || host->nparams != fn->nparams + 1) return "no lifted shape";
    if (fn->nparams < 1 || fn->nparams > 40 || lcu_t_arity(fn->result) > 16 || sh->nres != lcu_t_arity(fn->result)) return "too many components";
    for (int i = 0; i < fn->nparams; i++) {
        const LcuType *t = fn->params[i].type;
        int p = sh->param_parent[i];
        bool uniform = p == LCU_LIFT_UNIFORM;
        if (t->kind == LT_TUPLE || (t->kind == LT_BASE) != uniform) return "a parameter that is not lifted";
        if (t->kind == LT_BASE && t->base != LB_INT) return "a parameter that is not lifted";
        if (p >= 0 && (p >= i || fn->params[p].type->kind != LT_SD)) return "a parameter's descriptor";
    }
    if (sh->param_parent[0] != LCU_LIFT_UNIFORM || fn->params[0].type->kind != LT_BASE) return "no count";
    for (int k = 0; k < lcu_t_arity(fn->result); k++) {
        LcuTypeKind kind = lcu_t_component(fn->result, k)->kind;
        if (kind != LT_VEC && kind != LT_SD && kind != LT_REF) return "a result that is not lifted";
    }
    return NULL;
}

void gen_tails(Gen *g)
{
    Arena *a = g->a;
    const char *report = getenv("NESSLC_TAIL_REPORT");
    bool rep = report && *report && strcmp(report, "0");
    PtrVec roots = { 0 };    /* (fn, host) pairs whose dispatch goes in */
    CallGraph cg = call_graph(g);   /* before any copy joins the unit */
    bool *copied = arena_alloc(a, sizeof *copied * (size_t)(cg.n + 1));   /* per function: it has a device copy */
    int *reach = arena_alloc(a, sizeof *reach * (size_t)(cg.n + 1));
    memset(copied, 0, sizeof *copied * (size_t)(cg.n + 1));
    for (int i = 0; i < g->prog->nfuns; i++) {
        const LcuFun *fn = g->prog->funs[i];
        if (!fn->lift) continue;
        int h = func_index(&cg, gen_fun_name(g, fn->name));
        if (h < 0) continue;
        /* What host's calls reach: its closure, host itself among it when it recurses */
        CFunc *host = g->unit->funcs.items[h];
        const char *bad = NULL;
        closure(&cg, h, &bad);
        if (!cg.in[h]) continue;
        int nreach = cg.norder;
        memcpy(reach, cg.order, sizeof *reach * (size_t)nreach);   /* recurses() below reuses cg.order */
        const char *why = bad ? bad : shape_problem(fn, host);
        if (rep) fprintf(stderr, "nesslc: tail of %s: %s%s\n", fn->name, why ? "none: " : "yes", why ? why : "");
        if (why) continue;
        for (int j = 0; j < nreach; j++) {
            int f = reach[j];
            if (copied[f]) continue;
            copied[f] = true;
            /* on a cycle (host's, or another recursion's): a call; else inlined */
            ptrvec_push(a, &g->unit->funcs, device_copy(g, g->unit->funcs.items[f], !recurses(&cg, f)));
        }
        ptrvec_push(a, &roots, (void *)fn);
        ptrvec_push(a, &roots, host);
    }
    for (int i = 0; i < roots.len; i += 2) {
        const LcuFun *fn = roots.items[i];
        CFunc *host = roots.items[i + 1];
        char kn[160];
        snprintf(kn, sizeof kn, "%s_btk", host->name);
        const char *kname = arena_strndup(a, kn, strlen(kn));
        gen_tail_kernel(g, fn, host, kname);
        const char *dname = gen_dispatcher(g, fn, host, kname);
        /* { F_fr r_bt; if (F_btd (rt, params, &r_bt)) return r_bt; } first in F */
        CBlock *first = cb_new(a);
        cs_decl(a, first, host->ret, "r_bt", NULL);
        CExpr **args = arena_alloc(a, sizeof *args * (size_t)(host->nparams + 1));
        for (int j = 0; j < host->nparams; j++) args[j] = cx_name(a, host->params[j].name);
        args[host->nparams] = cx_un(a, CU_ADDR, cx_name(a, "r_bt"));
        CBlock *ret = cb_new(a);
        cs_return(a, ret, cx_name(a, "r_bt"));
        cs_if(a, first, cx_call(a, dname, host->nparams + 1, args), ret, NULL);
        CBlock *body = cb_new(a);
        cs_block(a, body, first);
        for (int j = 0; j < host->body->n; j++) cb_add(a, body, host->body->stmts[j]);
        host->body = body;
    }
}
