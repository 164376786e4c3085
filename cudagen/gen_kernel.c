/* gen_kernel.c — kernels: each λcu kernel becomes one C function that
 * runs its SOACs in sequence, each emitted by the target's skeleton
 * (Skeletons, cudagen.h).  The shared part here evaluates the SOAC's size
 * and identity (kernel-level expressions, on the host), counts the launch
 * in the statistics, binds the results, and frees the kernel's
 * temporaries on return (nesl_release keeps the results). */
#include <string.h>
#include "cudagen.h"

static const char *suffixed(Gen *g, Sym name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    char *s = arena_alloc(g->a, n + m + 1);
    memcpy(s, name, n);
    memcpy(s + n, suffix, m + 1);
    return s;
}

/* Functions end in _f, kernels in _k, their result structs in _fr, _kr;
 * variables end in _N: no two can clash, nor clash with the runtime. */
const char *gen_kernel_name(Gen *g, Sym k) { return suffixed(g, k, "_k"); }
const char *gen_fun_name(Gen *g, Sym f) { return suffixed(g, f, "_f"); }

const char *gen_result_type(Gen *g, const LcuType *t, const char *sname)
{
    int n = lcu_t_arity(t);
    if (n == 1) return gen_ctype(g, t);
    for (int i = 0; i < g->unit->structs.len; i++)
        if (!strcmp(((CStruct *)g->unit->structs.items[i])->name, sname)) return sname;
    CStruct *s = arena_alloc(g->a, sizeof *s);
    s->name = sname;
    s->n = n;
    s->types = arena_alloc(g->a, sizeof *s->types * (size_t)n);
    s->fields = arena_alloc(g->a, sizeof *s->fields * (size_t)n);
    for (int k = 0; k < n; k++) {
        char buf[16];
        snprintf(buf, sizeof buf, "c%d", k);
        s->types[k] = gen_ctype(g, lcu_t_component(t, k));
        s->fields[k] = arena_strndup(g->a, buf, strlen(buf));
    }
    ptrvec_push(g->a, &g->unit->structs, s);
    return sname;
}

CExpr **gen_unpack(Gen *g, const LcuType *t, CExpr *var)
{
    int n = lcu_t_arity(t);
    CExpr **c = arena_alloc(g->a, sizeof *c * (size_t)n);
    if (n == 1) { c[0] = var; return c; }
    for (int k = 0; k < n; k++) {
        char buf[16];
        snprintf(buf, sizeof buf, "c%d", k);
        c[k] = cx_member(g->a, var, arena_strndup(g->a, buf, strlen(buf)));
    }
    return c;
}

/* ---- which vectors GPU code reads (they get local data/length views) ---- */
static bool reads(const LcuExpr *e, Sym x)
{
    switch (e->kind) {
    case LE_INDEX: return e->u.index.vec == x || reads(e->u.index.idx, x);
    case LE_LEN: return e->u.len.vec == x;
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_STRING:
        return false;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++)
            if (reads(e->u.tuple.elems[i], x)) return true;
        return false;
    case LE_LET: case LE_LOOP: return reads(e->u.let.bind->rhs, x) || reads(e->u.let.body, x);
    case LE_IF: return reads(e->u.if_.cond, x) || reads(e->u.if_.then_e, x) || reads(e->u.if_.else_e, x);
    case LE_BINOP: return reads(e->u.bin.l, x) || reads(e->u.bin.r, x);
    case LE_UNOP: return reads(e->u.un.e, x);
    case LE_RUN: case LE_CALL:
        for (int i = 0; i < e->u.call.nargs; i++)
            if (reads(e->u.call.args[i], x)) return true;
        return false;
    case LE_BLOCK: case LE_SOAC: case LE_LIB: return true;   /* not in kernels */
    }
    return true;
}

/* Does SOAC s read x (in an argument or its kept)? */
static bool soac_reads(const LcuSoac *s, Sym x)
{
    for (int j = 0; j < s->nargs; j++) {
        const LcuArg *a = s->args[j];
        if (reads(a->kind == LA_THUNK ? a->u.thunk->body : a->u.expr, x)) return true;
    }
    return s->kept && reads(s->kept, x);
}

static bool kernel_reads(const LcuKernel *k, Sym x)
{
    for (int i = 0; i < k->nbinds; i++)
        if (soac_reads(k->binds[i]->soac, x)) return true;
    return false;
}

/* FILTER { i => (..., f) } { (..., p) => p } whose kept flags (all true)
 * nothing reads: neither a later SOAC of the kernel nor its return (the
 * flattener's filter of elements, flatten/build.c fl_filter_elems). */
static bool filter_flag_dead(const LcuKernel *k, const LcuKBind *b)
{
    const LcuSoac *s = b->soac;
    if (s->kind != LS_FILTER || b->nvars < 2 || s->args[1]->kind != LA_THUNK) return false;
    const LcuThunk *pred = s->args[1]->u.thunk;
    if (pred->nparams != b->nvars || pred->body->kind != LE_VAR || pred->body->u.var != pred->params[pred->nparams - 1])
        return false;
    Sym x = b->vars[b->nvars - 1];
    for (int i = 0; i < k->nrets; i++)
        if (k->rets[i] == x) return false;
    return !kernel_reads(k, x);
}

/* FILTER or PARTITION { i => ... (..., i, ...) }: the flat component of
 * the pull that is its index itself (directly or renamed by lets), else
 * -1.  A FILTER's output of it is the ascending positions it keeps (the
 * flattener's filter of positions for filter_sd, flatten/build.c), which
 * a skeleton may describe by rank words (SoacGen.pos_comp). */
static int pull_index_comp(const LcuSoac *s)
{
    enum { MAX_NAMES = 8 };
    if ((s->kind != LS_FILTER && s->kind != LS_PARTITION) || s->args[0]->kind != LA_THUNK) return -1;
    const LcuThunk *pull = s->args[0]->u.thunk;
    if (pull->nparams != 1) return -1;
    Sym names[MAX_NAMES];   /* the index's names in scope */
    int nn = 0;
    names[nn++] = pull->params[0];
    const LcuExpr *e = pull->body;
    for (; e->kind == LE_LET; e = e->u.let.body) {
        const LcuBind *b = e->u.let.bind;
        bool alias = false;   /* let x = (a name of the index) */
        if (b->nvars == 1 && b->rhs->kind == LE_VAR)
            for (int k = 0; k < nn; k++) alias = alias || b->rhs->u.var == names[k];
        for (int v = 0; v < b->nvars; v++)   /* shadowed names are no longer the index */
            for (int k = 0; k < nn; k++)
                if (names[k] == b->vars[v]) names[k--] = names[--nn];
        if (alias && nn < MAX_NAMES) names[nn++] = b->vars[0];
    }
    int n = e->kind == LE_TUPLE ? e->u.tuple.n : 1, flat = 0;
    for (int j = 0; j < n; j++) {
        const LcuExpr *c = e->kind == LE_TUPLE ? e->u.tuple.elems[j] : e;
        if (c->kind == LE_VAR)
            for (int k = 0; k < nn; k++)
                if (c->u.var == names[k]) return flat;
        if (!c->type) return -1;
        flat += lcu_t_arity(c->type);
    }
    return -1;
}

static int filter_pos_comp(const LcuSoac *s) { return s->kind == LS_FILTER ? pull_index_comp(s) : -1; }

/* Is the FILTER's output of positions (component c, filter_pos_comp)
 * read by nothing but filter_sd: no later SOAC of the kernel, and each
 * result it is read only so on the host (gen_kept_only)? */
static bool pos_dead(const Gen *g, const LcuKernel *k, const LcuKBind *b, int c)
{
    if (c >= b->nvars || kernel_reads(k, b->vars[c])) return false;
    for (int i = 0; i < k->nrets; i++)
        if (k->rets[i] == b->vars[c] && !gen_kept_only(g, k, i)) return false;
    return true;
}

/* ---- one SOAC ---- */
/* nbinds: the bindings generated as SOACs (gen_kernel_sd: all but the last) */
typedef struct KCtx { const LcuKernel *k; int nbinds; CBlock *body; CExpr *rt, *err; const CEnv *env; } KCtx;

/* range: the vectors whose length is the SOAC's size, for pull and index
 * thunks (at 0: their parameter is the index; else at -1) */
static ThunkGen thunk_gen(const KCtx *kc, const LcuSoac *s, int i, int at, const GenRange *range)
{
    ThunkGen t = { s->args[i]->u.thunk, kc->env, gen_thunk_may_fail(s->args[i]->u.thunk, at, range), at };
    return t;
}

/* The vectors a non-SEG SOAC's index is a valid subscript of: #v as its
 * size, and fusion's same_len (those bound in kc->env). */
static GenRange *soac_range(Gen *g, const KCtx *kc, const LcuSoac *s, const LcuExpr *size)
{
    int cap = s->nsame_len + 1;
    GenRange *r = arena_alloc(g->a, sizeof *r);
    r->vecs = arena_alloc(g->a, sizeof *r->vecs * (size_t)cap);
    Sym *syms = arena_alloc(g->a, sizeof *syms * (size_t)cap);
    r->syms = syms;
    for (int k = -1; k < s->nsame_len; k++) {
        Sym x = k < 0 ? (size->kind == LE_LEN ? size->u.len.vec : NULL) : s->same_len[k];
        const CVal *v = x ? cenv_lookup(kc->env, x) : NULL;   /* unbound: gen_kernel_sd asks before the kernel's bindings */
        if (!v || (v->type->kind != LT_VEC && v->type->kind != LT_REF)) continue;
        bool dup = false;
        for (int j = 0; j < r->n; j++) dup |= syms[j] == x;
        if (dup) continue;
        r->vecs[r->n] = v;
        syms[r->n++] = x;
    }
    return r->n ? r : NULL;
}

/* base (may be NULL) with the one vector thunk t reads at its index (its
 * parameter at) on every path without knowing that it is as long as the
 * size, clamped: read as 0 past its end (GenRange.clamp).  NULL where
 * there is no such vector, or t may fail otherwise. */
static GenRange *clamp_range(Gen *g, const KCtx *kc, const LcuThunk *t, int at, const GenRange *base)
{
    Arena *a = g->a;
    Sym x = gen_index_read(t, at, base);
    const CVal *v = x ? cenv_lookup(kc->env, x) : NULL;
    if (!v || (v->type->kind != LT_VEC && v->type->kind != LT_REF) || v->at_index) return NULL;
    int n = base ? base->n : 0;
    GenRange *r = arena_alloc(a, sizeof *r);
    memset(r, 0, sizeof *r);
    r->vecs = arena_alloc(a, sizeof *r->vecs * (size_t)(n + 1));
    Sym *syms = arena_alloc(a, sizeof *syms * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        r->vecs[k] = base->vecs[k];
        syms[k] = base->syms[k];
    }
    r->vecs[n] = v;
    syms[n] = x;
    r->syms = syms;
    r->n = n + 1;
    r->clamp = v;
    return gen_thunk_may_fail(t, at, r) ? NULL : r;
}

/* A vector the pull reads at its index on every path without knowing
 * that it is as long as the size (quicksort's flags compare the elements
 * of a segmented value, whose length is the descriptor's total, the
 * size): where nothing else of the SOAC may fail, the only error that can
 * arise is that index at iteration #v, the first the sequential order
 * reaches, so it is recorded before the launch where the size exceeds #v
 * (nesl_index_short, nesl_cu_index_short) and the elements read as 0
 * past #v (GenRange.clamp): no check and no error path an element.  H100,
 * quicksort 10^7's three flags a level: 2141 -> 985 us a run
 * (bench/RESULTS.md, session 33).  Not for PERMUTE, whose index thunk
 * shares the range.  In a group of FILTERs in one launch the record is
 * the first FILTER's; their pulls are the same, so the first FILTER fails
 * there first in any case. */
static void clamp_read(Gen *g, KCtx *kc, const LcuSoac *s, SoacGen *sg)
{
    if (s->kind != LS_MAP && s->kind != LS_REDUCE && s->kind != LS_SCAN && s->kind != LS_FILTER && s->kind != LS_PARTITION) return;
    if (!sg->pull.may_fail || sg->aux.may_fail) return;
    GenRange *r = clamp_range(g, kc, s->args[0]->u.thunk, 0, sg->range);
    if (!r) return;
    cs_expr(g->a, sg->blk, gen_clamp_check(g, r, g->skel->device ? kc->rt : kc->err, sg->size));
    sg->range = r;   /* the pull still may fail: the skeleton raises the record after it */
}

/* The predicate's read of a vector at the FILTER's or PARTITION's index
 * (the pull's component that is the index, the predicate's parameter of
 * that component): clamped as clamp_read clamps the pull's, where the
 * pull cannot fail.  Quicksort's FILTERs read their flags so
 * (`{ (j, x) => flags[j] }`), and the check's error path an element kept
 * nvcc from issuing a thread's eight loads together: the one-launch
 * FILTERs took 125 us at 10^7 elements, 0.94 TB/s (bench/RESULTS.md,
 * session 34).  The skeleton records the error before the launch
 * (gen_clamp_check), into the FILTER's own record: in a group of FILTERs
 * in one launch each has one, raised in the FILTERs' order. */
static void clamp_pred(Gen *g, KCtx *kc, const LcuSoac *s, SoacGen *sg)
{
    if ((s->kind != LS_FILTER && s->kind != LS_PARTITION) || s->args[1]->kind != LA_THUNK) return;
    const LcuThunk *t = s->args[1]->u.thunk;
    int at = pull_index_comp(s);
    if (at < 0 || t->nparams != sg->n || sg->pull.may_fail || !sg->aux.may_fail) return;
    GenRange *r = clamp_range(g, kc, t, at, sg->range);
    if (!r) return;
    sg->aux.at = at;   /* aux.may_fail stays: the record is raised after the launch */
    sg->pred_range = r;
}

/* Everything of a SOAC's generation up to its skeleton: its size and
 * identity on the host, the statistics, and the thunks' descriptions. */
static void soac_prepare(Gen *g, KCtx *kc, const LcuKBind *b, SoacGen *out)
{
    Arena *a = g->a;
    const LcuSoac *s = b->soac;
    CBlock *blk = kc->body;
    SoacGen sg;
    memset(&sg, 0, sizeof sg);
    sg.soac = s;
    sg.rt = kc->rt;
    sg.blk = blk;
    sg.err = (ErrCtx){ kc->err, NULL, false, false };
    sg.herr = (ErrCtx){ cx_calln(a, "nesl_herr", 1, kc->rt), cx_int(a, 0), false, true };
    const LcuType *tau = s->args[0]->u.thunk->body->type;
    sg.n = lcu_t_arity(tau);
    LcuBase *bases = arena_alloc(a, sizeof *bases * (size_t)sg.n);
    for (int k = 0; k < sg.n; k++) bases[k] = lcu_t_component(tau, k)->base;
    sg.tau = bases;
    char kind[48];
    snprintf(kind, sizeof kind, "NESL_%s", lcu_soac_name(s->kind));
    CExpr *kexpr = cx_name(a, arena_strndup(a, kind, strlen(kind)));
    bool seg = s->kind >= LS_SEG_PERMUTE;
    const LcuExpr *last = s->args[s->nargs - 1]->kind == LA_EXPR ? s->args[s->nargs - 1]->u.expr : NULL;
    GenRange *range = NULL;
    if (s->kind == LS_ONCE) {
        cs_expr(a, blk, cx_calln(a, "nesl_stat_soac", 3, kc->rt, kexpr, cx_int(a, 1)));
    } else {
        CExpr *n;
        if (seg) {
            sg.sd = cenv_find(kc->env, last->u.var);
            n = cx_calln(a, "nesl_sd_total", 2, kc->rt, sg.sd->comps[0]);
        } else {
            n = cx_calln(a, "nesl_size", 3, kc->rt, kexpr, gen_expr(g, kc->env, &sg.herr, last, blk)[0]);
            range = soac_range(g, kc, s, last);
        }
        const char *nv = gen_fresh(g, "n");
        cs_decl(a, blk, "int64_t", nv, n);
        sg.size = cx_name(a, nv);
        sg.range = range;
        /* fusion's facts, verified: a wrong one is an internal error, never an unchecked read */
        for (int k = 0; range && k < range->n; k++)
            if (!(last->kind == LE_LEN && last->u.len.vec == range->syms[k]))
                cs_expr(a, blk, cx_calln(a, "nesl_same_len", 4, kc->rt, cval_len(g, range->vecs[k]), sg.size,
                                         cx_str(a, range->syms[k], (int)strlen(range->syms[k]))));
        cs_expr(a, blk, cx_calln(a, "nesl_stat_soac", 3, kc->rt, kexpr, sg.size));
    }
    sg.pull = thunk_gen(kc, s, 0, 0, range);
    switch (s->kind) {
    case LS_PERMUTE: case LS_SEG_PERMUTE:
        sg.aux = thunk_gen(kc, s, 1, 0, range);
        break;
    case LS_FILTER: case LS_PARTITION: case LS_SEG_FILTER: case LS_SEG_PARTITION:
        sg.aux = thunk_gen(kc, s, 1, -1, NULL);
        /* on the host like the size (over the kernel's parameters, lcu.h) */
        if (s->kept) {
            const char *gv = gen_fresh(g, "given");
            cs_decl(a, blk, "int64_t", gv, gen_expr(g, kc->env, &sg.herr, s->kept, blk)[0]);
            sg.kept = cx_name(a, gv);
        }
        break;
    case LS_REDUCE: case LS_SCAN: case LS_SEG_REDUCE: case LS_SEG_SCAN: {
        sg.aux = thunk_gen(kc, s, 2, -1, NULL);
        CExpr **v = gen_expr(g, kc->env, &sg.herr, s->args[1]->u.expr, blk);
        sg.ident = arena_alloc(a, sizeof *sg.ident * (size_t)sg.n);
        for (int k = 0; k < sg.n; k++) sg.ident[k] = gen_hoist(g, blk, gen_base_ctype(g, bases[k]), "id", v[k]);
        break;
    }
    case LS_MAP: case LS_ONCE: break;
    }
    if (!seg && s->kind != LS_ONCE) clamp_read(g, kc, s, &sg);
    if (!seg) clamp_pred(g, kc, s, &sg);
    sg.out = arena_alloc(a, sizeof *sg.out * (size_t)b->nvars);
    sg.flag_dead = filter_flag_dead(kc->k, b);
    sg.pos_comp = filter_pos_comp(s);
    sg.pos_dead = sg.pos_comp >= 0 && pos_dead(g, kc->k, b, sg.pos_comp);
    *out = sg;
}

static void soac_comment(Gen *g, CBlock *blk, const LcuKBind *b)
{
    char c[80];
    snprintf(c, sizeof c, "%s %.60s", lcu_soac_name(b->soac->kind), b->vars[0]);
    cs_comment(g->a, blk, arena_strndup(g->a, c, strlen(c)));
}

static void soac_bind(Gen *g, KCtx *kc, const LcuKBind *b, const SoacGen *sg)
{
    for (int j = 0; j < b->nvars; j++) kc->env = cenv_bind(g, kc->env, b->vars[j], sg->out[j]);
}

static void gen_soac(Gen *g, KCtx *kc, const LcuKBind *b)
{
    const LcuSoac *s = b->soac;
    SoacGen sg;
    soac_prepare(g, kc, b, &sg);
    const Skeletons *sk = g->skel;
    SkelFn fn = NULL;
    switch (s->kind) {
    case LS_MAP: fn = sk->gen_map; break;
    case LS_PERMUTE: fn = sk->gen_permute; break;
    case LS_REDUCE: fn = sk->gen_reduce; break;
    case LS_SCAN: fn = sk->gen_scan; break;
    case LS_FILTER: fn = sk->gen_filter; break;
    case LS_PARTITION: fn = sk->gen_partition; break;
    case LS_ONCE: fn = sk->gen_once; break;
    case LS_SEG_PERMUTE: fn = sk->gen_seg_permute; break;
    case LS_SEG_REDUCE: fn = sk->gen_seg_reduce; break;
    case LS_SEG_SCAN: fn = sk->gen_seg_scan; break;
    case LS_SEG_FILTER: fn = sk->gen_seg_filter; break;
    case LS_SEG_PARTITION: fn = sk->gen_seg_partition; break;
    }
    soac_comment(g, kc->body, b);
    fn(g, &sg);
    soac_bind(g, kc, b, &sg);
}

/* Does SOAC binding b read any result of binding c? */
static bool bind_reads(const LcuKBind *b, const LcuKBind *c)
{
    for (int v = 0; v < c->nvars; v++)
        if (soac_reads(b->soac, c->vars[v])) return true;
    return false;
}

/* A group of bindings, among them FILTERs (PARTITIONs) that no binding of
 * the group reads, as horizontal fusion tuples them (quicksort's lesser,
 * equal and greater): the CUDA skeleton reads their counts after the
 * group's last binding (g->counts_later), one wait for the group.  At most
 * COUNT_GROUP FILTERs, the runtime's NESL_COUNT_GROUP (rt/nesl_cuda.cuh):
 * its ring of count slots is sized for it. */
#define COUNT_GROUP 64

static bool flat_filter(const LcuKBind *b) { return b->soac->kind == LS_FILTER || b->soac->kind == LS_PARTITION; }

/* May binding j join the group of bindings first..j-1: it reads none of
 * their FILTERs, and they stay at most COUNT_GROUP? */
static bool joins_filter_group(const LcuKernel *k, int first, int j)
{
    if (j >= k->nbinds) return false;
    int filters = flat_filter(k->binds[j]);
    for (int i = first; i < j; i++) {
        if (!flat_filter(k->binds[i])) continue;
        if (bind_reads(k->binds[j], k->binds[i])) return false;
        filters++;
    }
    return filters <= COUNT_GROUP;
}

/* Does a group start at binding i: a FILTER that a later FILTER can join? */
static bool starts_filter_group(const LcuKernel *k, int i)
{
    if (!flat_filter(k->binds[i])) return false;
    for (int j = i + 1; joins_filter_group(k, i, j); j++)
        if (flat_filter(k->binds[j])) return true;
    return false;
}

/* The same size expression (fusion gives SOACs it proved to iterate
 * together one expression, fusion/fu_merge.c unify_sizes). */
static bool same_size(const LcuSoac *x, const LcuSoac *y)
{
    const LcuArg *a = x->args[x->nargs - 1], *b = y->args[y->nargs - 1];
    if (a->kind != LA_EXPR || b->kind != LA_EXPR || a->u.expr->kind != b->u.expr->kind) return false;
    const LcuExpr *p = a->u.expr, *q = b->u.expr;
    switch (p->kind) {
    case LE_VAR: return p->u.var == q->u.var;
    case LE_LEN: return p->u.len.vec == q->u.len.vec;
    case LE_INT: return p->u.i == q->u.i;
    default: return false;
    }
}

/* Bindings i and i+1: a MAP and a REDUCE (either order) over the same
 * size, independent of each other, that the target may run as one pass. */
static bool gen_pair(Gen *g, KCtx *kc, int i)
{
    if (!g->skel->gen_map_reduce || i + 1 >= kc->nbinds) return false;
    const LcuKBind *x = kc->k->binds[i], *y = kc->k->binds[i + 1];
    const LcuKBind *m = x->soac->kind == LS_MAP ? x : y, *r = x->soac->kind == LS_MAP ? y : x;
    if (m->soac->kind != LS_MAP || r->soac->kind != LS_REDUCE || !same_size(m->soac, r->soac) || bind_reads(y, x))
        return false;
    SoacGen sm, sr;
    soac_prepare(g, kc, m, &sm);
    soac_prepare(g, kc, r, &sr);
    soac_comment(g, kc->body, m);
    soac_comment(g, kc->body, r);
    if (!g->skel->gen_map_reduce(g, &sm, &sr)) {
        g->skel->gen_map(g, &sm);
        g->skel->gen_reduce(g, &sr);
    }
    soac_bind(g, kc, m, &sm);
    soac_bind(g, kc, r, &sr);
    return true;
}

CExpr *gen_return(Gen *g, CBlock *blk, const LcuType *t, const char *rtype, CExpr **comps, CExpr *rt, CExpr *mark)
{
    Arena *a = g->a;
    int n = lcu_t_arity(t), nobj = 0;
    const char *r = gen_fresh(g, "res");
    CExpr *rv = cx_name(a, r);
    if (n == 1) cs_decl(a, blk, rtype, r, comps[0]);
    else cs_decl(a, blk, rtype, r, NULL);
    CExpr **fields = gen_unpack(g, t, rv);
    CExpr *args[3 + n];
    args[0] = rt;
    args[1] = mark;
    for (int k = 0; k < n; k++) {
        if (n > 1) cs_assign(a, blk, fields[k], comps[k]);
        LcuTypeKind tk = lcu_t_component(t, k)->kind;
        if (tk == LT_VEC || tk == LT_REF || tk == LT_SD) args[3 + nobj++] = cx_cast(a, "void *", fields[k]);
    }
    args[2] = cx_int(a, nobj);
    cs_expr(a, blk, cx_call(a, "nesl_release", 3 + nobj, args));
    return rv;
}

/* --stats=kernels: the bytes of a kernel's values, as the λcu interpreter
 * counts them (a scalar its size, a vector its elements, an sd 4 bytes per
 * segment). */
static CExpr *value_bytes(Gen *g, const LcuType *t, CExpr *e)
{
    Arena *a = g->a;
    switch (t->kind) {
    case LT_VEC: case LT_REF: return cx_calln(a, "nesl_vec_bytes", 1, e);
    case LT_SD: return cx_calln(a, "nesl_sd_bytes", 1, e);
    case LT_BASE: return cx_calln(a, "nesl_stat_base_bytes", 1, cx_name(a, gen_base_enum(g, t->base)));
    case LT_TUPLE: break;
    }
    return cx_int(a, 0);   /* flat components only: a tuple never reaches here */
}

/* bytes[i], where not NULL, replaces the bytes of es[i] */
static void stat_bytes(Gen *g, CBlock *blk, const char *fn, const char *kernel, int n, const LcuType **ts, CExpr **es, CExpr **bytes)
{
    Arena *a = g->a;
    CExpr *sum = cx_int(a, 0);
    for (int i = 0; i < n; i++) sum = cx_bin(a, CB_ADD, sum, bytes && bytes[i] ? bytes[i] : value_bytes(g, ts[i], es[i]));
    CBlock *then_b = cb_new(a);
    cs_expr(a, then_b, cx_calln(a, fn, 3, cx_name(a, "rt"), cx_str(a, kernel, (int)strlen(kernel)), sum));
    cs_if(a, blk, cx_calln(a, "nesl_kstats_on", 1, cx_name(a, "rt")), then_b, NULL);
}

/* A kernel's C function up to its SOACs: rt, then K's parameters (and
 * nextra more from extra), the statistics of the run, the frame mark
 * (*mark) and the error context; kc is ready for the SOACs.  A parameter
 * marked in virt (may be NULL) is segment ids not filled: the function
 * takes their descriptor, and a SOAC reads them at its index as "sg"
 * (gen_kernel_ids). */
static CFunc *kernel_open(Gen *g, const LcuKernel *k, const char *name, const char *ret, int nextra, const CParam *extra,
                          const bool *virt, KCtx *kc, const char **mark)
{
    Arena *a = g->a;
    CFunc *f = arena_alloc(a, sizeof *f);
    f->is_static = true;
    f->attr = "NESL_KERNEL";
    f->name = name;
    f->ret = ret;
    f->nparams = 1 + k->nparams + nextra;
    f->params = arena_alloc(a, sizeof *f->params * (size_t)f->nparams);
    f->params[0] = (CParam){ "NeslRt *", "rt" };
    for (int i = 0; i < nextra; i++) f->params[1 + k->nparams + i] = extra[i];
    f->body = cb_new(a);
    g->func = f;
    char c[96];
    snprintf(c, sizeof c, "kernel %.80s", k->name);
    f->comment = arena_strndup(a, c, strlen(c));
    *kc = (KCtx){ k, k->nbinds, f->body, cx_name(a, "rt"), cx_un(a, CU_ADDR, cx_name(a, "err")), NULL };
    cs_expr(a, f->body, cx_calln(a, "nesl_stat_kernel", 1, kc->rt));
    *mark = gen_fresh(g, "mark");
    cs_decl(a, f->body, "size_t", *mark, cx_calln(a, "nesl_mark", 1, kc->rt));
    cs_decl(a, f->body, "NeslErr", "err", NULL);
    cs_expr(a, f->body, cx_calln(a, "nesl_err_init", 2, kc->err, kc->rt));
    CExpr *bytes[k->nparams + 1];
    for (int i = 0; i < k->nparams; i++) {
        const LcuParam *p = &k->params[i];
        const char *pn = gen_fresh(g, p->name);
        f->params[1 + i] = (CParam){ virt && virt[i] ? "NeslSd *" : gen_ctype(g, p->type), pn };
        CExpr *pe = cx_name(a, pn);
        CVal *v = cval_new(g, p->type, 1, &pe);
        bytes[i] = NULL;
        if (virt && virt[i]) {
            v->len = cx_name(a, gen_fresh(g, suffixed(g, p->name, "_n")));
            cs_decl(a, f->body, "int64_t", v->len->u.name, cx_calln(a, "nesl_sd_total", 2, kc->rt, pe));
            v->at_index = cx_name(a, "sg");
            v->segids_of = pe;
            bytes[i] = cx_bin(a, CB_MUL, v->len, cx_calln(a, "nesl_stat_base_bytes", 1, cx_name(a, "NESL_INT")));
        } else if ((p->type->kind == LT_VEC || p->type->kind == LT_REF) && kernel_reads(k, p->name)) {
            v->data = cx_name(a, gen_fresh(g, suffixed(g, p->name, "_d")));
            v->len = cx_name(a, gen_fresh(g, suffixed(g, p->name, "_n")));
            CVal plain = *v;
            plain.data = plain.len = NULL;
            char t[48];
            snprintf(t, sizeof t, "const %s *", gen_base_ctype(g, p->type->base));
            cs_decl(a, f->body, arena_strndup(a, t, strlen(t)), v->data->u.name, cval_data(g, &plain));
            cs_decl(a, f->body, "int64_t", v->len->u.name, cval_len(g, &plain));
        }
        kc->env = cenv_bind(g, kc->env, p->name, v);
    }
    const LcuType *pts[k->nparams + 1];
    CExpr *pes[k->nparams + 1];
    for (int i = 0; i < k->nparams; i++) {
        pts[i] = k->params[i].type;
        pes[i] = cx_name(a, f->params[1 + i].name);
    }
    stat_bytes(g, f->body, "nesl_stat_run", k->name, k->nparams, pts, pes, bytes);
    return f;
}

/* Bindings i.. of an open FILTER group (first: its first binding): the
 * FILTERs the target may run in one launch (SkelMultiFn), consecutive,
 * over i's size with i's pull up to names, with no given count and their
 * flags stored; emitted together, their number returned (0: fewer than
 * two, nothing emitted). */
static int gen_filters(Gen *g, KCtx *kc, int i, int first)
{
    const LcuKernel *k = kc->k;
    if (!g->skel->gen_filters || !g->counts_later) return 0;
    const LcuSoac *s = k->binds[i]->soac;
    int j = i;
    while (j < kc->nbinds && j - i < FILTERS_MULTI_MAX && joins_filter_group(k, first, j)) {
        const LcuSoac *t = k->binds[j]->soac;
        if (t->kind != LS_FILTER || t->kept || filter_flag_dead(k, k->binds[j]) || !same_size(s, t) ||
            !lcu_thunk_alpha_equal(s->args[0]->u.thunk, t->args[0]->u.thunk))
            break;
        j++;
    }
    int nf = j - i;
    if (nf < 2) return 0;
    SoacGen fs[FILTERS_MULTI_MAX];
    for (int c = 0; c < nf; c++) {
        soac_prepare(g, kc, k->binds[i + c], &fs[c]);
        soac_comment(g, kc->body, k->binds[i + c]);
    }
    g->skel->gen_filters(g, fs, nf);
    for (int c = 0; c < nf; c++) soac_bind(g, kc, k->binds[i + c], &fs[c]);
    return nf;
}

/* The SOACs of kc's kernel up to kc->nbinds, in order. */
static void kernel_soacs(Gen *g, KCtx *kc)
{
    const LcuKernel *k = kc->k;
    /* every binding generated while a group is open joins it: until the
     * counts are read, its FILTERs' lengths are not set */
    for (int i = 0, first = 0; i <= kc->nbinds; i++) {
        if (g->counts_later && !joins_filter_group(k, first, i)) {
            for (int j = 0; j < g->counts_later->n; j++) cb_add(g->a, kc->body, g->counts_later->stmts[j]);
            g->counts_later = NULL;
        }
        if (i == kc->nbinds) break;
        if (!g->counts_later && starts_filter_group(k, i)) {
            g->counts_later = cb_new(g->a);
            first = i;
        }
        int nf = gen_filters(g, kc, i, first);
        if (nf) i += nf - 1;
        else if ((!g->counts_later || joins_filter_group(k, first, i + 1)) && gen_pair(g, kc, i)) i++;
        else gen_soac(g, kc, k->binds[i]);
    }
}

/* The kernel's results (and sd, if not NULL, after them): statistics,
 * release of the frame, return. */
static void kernel_return(Gen *g, KCtx *kc, CFunc *f, const LcuType *t, const char *mark, CExpr *sd)
{
    const LcuKernel *k = kc->k;
    int n = lcu_t_arity(k->result), j = 0;
    CExpr *comps[n + 1];
    const LcuType *cts[n + 1];
    for (int i = 0; i < k->nrets; i++) {
        const CVal *v = cenv_find(kc->env, k->rets[i]);
        for (int c2 = 0; c2 < v->n; c2++) {
            cts[j] = lcu_t_component(k->result, j);
            comps[j++] = v->comps[c2];
        }
    }
    stat_bytes(g, f->body, "nesl_stat_written", k->name, n, cts, comps, NULL);
    if (sd) comps[n] = sd;
    cs_return(g->a, f->body, gen_return(g, f->body, t, f->ret, comps, kc->rt, cx_name(g->a, mark)));
}

/* Has the unit a function of that name (a kernel made before)? */
static bool made(Gen *g, const char *name)
{
    for (int i = 0; i < g->unit->funcs.len; i++)
        if (!strcmp(((CFunc *)g->unit->funcs.items[i])->name, name)) return true;
    return false;
}

const char *gen_kernel(Gen *g, const LcuKernel *k)
{
    const char *name = gen_kernel_name(g, k->name);
    if (made(g, name)) return name;
    CFunc *outer = g->func;
    KCtx kc;
    const char *mark;
    CFunc *f = kernel_open(g, k, name, gen_result_type(g, k->result, suffixed(g, k->name, "_kr")), 0, NULL, NULL, &kc, &mark);
    kernel_soacs(g, &kc);
    kernel_return(g, &kc, f, k->result, mark, NULL);
    ptrvec_push(g->a, &g->unit->funcs, f);
    g->func = outer;
    return name;
}

/* make_sd (v[, t]) of a result v of run K (...), where K's last binding
 * is a MAP without a loop that cannot fail and v one of its ints:
 * K_sd_vN_k (rt, K's arguments, t or -1) returns K's results and the
 * descriptor, the MAP computing v as the descriptor's scan reads it (one
 * launch, not two: doc/codegen.md).  The statistics are those of run K.
 * NULL (nothing emitted) where K is not such a kernel or the target has no
 * such skeleton. */
const char *gen_kernel_sd(Gen *g, const LcuKernel *k, Sym v)
{
    if (!g->skel->gen_map_sd || k->nbinds == 0) return NULL;
    const LcuKBind *b = k->binds[k->nbinds - 1];
    const LcuSoac *s = b->soac;
    int c = -1;
    for (int j = 0; j < b->nvars; j++)
        if (b->vars[j] == v) c = j;
    if (s->kind != LS_MAP || c < 0 || s->args[0]->kind != LA_THUNK || lcu_has_loop(s->args[0]->u.thunk->body)) return NULL;
    const LcuType *vt = lcu_t_component(s->args[0]->u.thunk->body->type, c);
    if (vt->kind != LT_BASE || vt->base != LB_INT) return NULL;
    char suf[128];
    snprintf(suf, sizeof suf, "_sd_%.100s_k", v);
    const char *name = suffixed(g, k->name, suf);
    if (made(g, name)) return name;
    Arena *a = g->a;
    CFunc *outer = g->func;
    CParam total = { "int64_t", gen_fresh(g, "total") };
    KCtx kc;
    const char *mark;
    CFunc *f = kernel_open(g, k, name, NULL, 1, &total, NULL, &kc, &mark);
    /* known before anything is emitted: its errors would come after the lengths' */
    if (gen_thunk_may_fail(s->args[0]->u.thunk, 0, soac_range(g, &kc, s, s->args[s->nargs - 1]->u.expr))) {
        g->func = outer;
        return NULL;
    }
    int n = lcu_t_arity(k->result);
    const LcuType *ts[n + 1];
    for (int j = 0; j < n; j++) ts[j] = lcu_t_component(k->result, j);
    ts[n] = lcu_t_sd(a);
    const LcuType *t = lcu_t_tuple(a, n + 1, ts);
    f->ret = gen_result_type(g, t, suffixed(g, k->name, "_sdr"));
    kc.nbinds = k->nbinds - 1;
    kernel_soacs(g, &kc);
    SoacGen sg;
    soac_prepare(g, &kc, b, &sg);
    soac_comment(g, kc.body, b);
    CExpr *sd = g->skel->gen_map_sd(g, &sg, c, cx_name(a, total.name));
    soac_bind(g, &kc, b, &sg);
    kernel_return(g, &kc, f, t, mark, sd);
    ptrvec_push(a, &g->unit->funcs, f);
    g->func = outer;
    return name;
}

/* Does e read vector x only as x[i] (or #x), and rebind neither x nor i? */
static bool reads_only_at(const LcuExpr *e, Sym x, Sym i)
{
    switch (e->kind) {
    case LE_INDEX:
        if (e->u.index.vec == x) return e->u.index.idx->kind == LE_VAR && e->u.index.idx->u.var == i;
        return reads_only_at(e->u.index.idx, x, i);
    case LE_VAR: return e->u.var != x;
    case LE_LEN: case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING:
        return true;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int k = 0; k < e->u.tuple.n; k++)
            if (!reads_only_at(e->u.tuple.elems[k], x, i)) return false;
        return true;
    case LE_LET: case LE_LOOP: {
        const LcuBind *b = e->u.let.bind;
        for (int k = 0; k < b->nvars; k++)
            if (b->vars[k] == x || b->vars[k] == i) return false;
        return reads_only_at(b->rhs, x, i) && reads_only_at(e->u.let.body, x, i);
    }
    case LE_IF:
        return reads_only_at(e->u.if_.cond, x, i) && reads_only_at(e->u.if_.then_e, x, i) && reads_only_at(e->u.if_.else_e, x, i);
    case LE_BINOP: return reads_only_at(e->u.bin.l, x, i) && reads_only_at(e->u.bin.r, x, i);
    case LE_UNOP: return reads_only_at(e->u.un.e, x, i);
    case LE_RUN: case LE_CALL:
        for (int k = 0; k < e->u.call.nargs; k++)
            if (!reads_only_at(e->u.call.args[k], x, i)) return false;
        return true;
    case LE_BLOCK: case LE_SOAC: case LE_LIB: return false;   /* not in kernels */
    }
    return false;
}

/* A run of K with its parameters marked in virt given the segment ids of
 * one descriptor, not filled: where K is one MAP whose thunk reads each of
 * them only at its index, in range (its size is #x, or fusion proved it
 * as long), K_ids_k takes the descriptor for each, and the skeleton finds
 * the ids as it iterates (nesl_cu_map_seg): no fill, no store, no load. */
const char *gen_kernel_ids(Gen *g, const LcuKernel *k, const bool *virt)
{
    if (!g->skel->gen_map_seg || k->nbinds != 1) return NULL;
    const LcuKBind *b = k->binds[0];
    const LcuSoac *s = b->soac;
    if (s->kind != LS_MAP || s->args[0]->kind != LA_THUNK || s->args[0]->u.thunk->nparams != 1) return NULL;
    const LcuThunk *t = s->args[0]->u.thunk;
    const LcuExpr *size = s->args[1]->u.expr;
    char suf[64] = "_ids";
    int first = -1;
    for (int p = 0; p < k->nparams; p++) {
        if (!virt[p]) continue;
        Sym x = k->params[p].name;
        bool in_range = size->kind == LE_LEN && size->u.len.vec == x;
        for (int j = 0; j < s->nsame_len; j++) in_range |= s->same_len[j] == x;
        if (!in_range || !reads_only_at(t->body, x, t->params[0])) return NULL;
        for (int r = 0; r < k->nrets; r++)
            if (k->rets[r] == x) return NULL;
        size_t l = strlen(suf);
        if (l + 16 > sizeof suf) return NULL;   /* the name must tell the marks apart */
        snprintf(suf + l, sizeof suf - l, "_%d", p);
        if (first < 0) first = p;
    }
    if (first < 0) return NULL;
    strcat(suf, "_k");
    const char *name = suffixed(g, k->name, suf);
    if (made(g, name)) return name;
    CFunc *outer = g->func;
    KCtx kc;
    const char *mark;
    CFunc *f = kernel_open(g, k, name, gen_result_type(g, k->result, suffixed(g, k->name, "_kr")), 0, NULL, virt, &kc, &mark);
    SoacGen sg;
    soac_prepare(g, &kc, b, &sg);
    soac_comment(g, kc.body, b);
    g->skel->gen_map_seg(g, &sg, cenv_find(kc.env, k->params[first].name)->segids_of);
    soac_bind(g, &kc, b, &sg);
    kernel_return(g, &kc, f, k->result, mark, NULL);
    ptrvec_push(g->a, &g->unit->funcs, f);
    g->func = outer;
    return name;
}
