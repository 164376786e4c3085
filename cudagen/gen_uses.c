/* gen_uses.c — which results of a kernel the host reads only as the kept
 * positions of filter_sd (or as their number, #x).
 *
 * The flattener filters the positions of a descriptor's elements to make
 * the filtered descriptor (filter_sd (s, kept), flatten/build.c); a FILTER
 * that keeps its pull's index writes those positions.  On the GPU the
 * FILTER's rank words already describe them (nesl_cu_kept_rank) and
 * filter_sd reads the words, so where nothing else reads the positions the
 * FILTER need not store them (SoacGen.pos_dead; doc/codegen.md,
 * "Positions left to the rank words").  A result qualifies when, at every
 * run of its kernel in the program, it is bound to a name bound once in
 * its function and read there only as filter_sd's second argument or by
 * #.  Anything else (another read, a run whose results are not bound
 * name by name) disqualifies it. */
#include <string.h>
#include "cudagen.h"

typedef struct Use { Sym x; int binds, reads; } Use;   /* reads: other than filter_sd's kept and # */
typedef struct Uses {
    Gen *g;
    Use *u;
    int n, cap;
    PtrVec runs;               /* the function's binds of a run */
    bool **ok;                 /* per kernel of the program, per result */
} Uses;

static Use *use_of(Uses *u, Sym x)
{
    for (int i = 0; i < u->n; i++)
        if (u->u[i].x == x) return &u->u[i];
    if (u->n == u->cap) {
        int cap = u->cap ? 2 * u->cap : 64;
        Use *nu = arena_alloc(u->g->a, sizeof *nu * (size_t)cap);
        if (u->n) memcpy(nu, u->u, sizeof *nu * (size_t)u->n);
        u->u = nu;
        u->cap = cap;
    }
    u->u[u->n] = (Use){ x, 0, 0 };
    return &u->u[u->n++];
}

static void bound(Uses *u, int n, Sym *xs)
{
    for (int i = 0; i < n; i++) use_of(u, xs[i])->binds++;
}

static void read_name(void *ctx, Sym x, bool free)
{
    if (free) use_of(ctx, x)->reads++;
}

/* k's place in the program's kernels (the row of Uses.ok), -1 if none */
static int kernel_slot(const LcuProgram *p, const LcuKernel *k)
{
    for (int i = 0; k && i < p->nkernels; i++)
        if (p->kernels[i] == k) return i;
    return -1;
}

static void walk(Uses *u, const LcuExpr *e);

/* A run not bound name by name: none of its results qualifies. */
static void run_anywhere(Uses *u, const LcuExpr *e)
{
    int k = kernel_slot(u->g->prog, gen_find_kernel(u->g->prog, e->u.call.name));
    for (int j = 0; k >= 0 && j < u->g->prog->kernels[k]->nrets; j++) u->ok[k][j] = false;
}

static void walk_bind(Uses *u, const LcuBind *b)
{
    bound(u, b->nvars, b->vars);
    const LcuExpr *r = b->rhs;
    if (r->kind == LE_RUN) {   /* bound name by name: decided once the function is walked (bind_results) */
        ptrvec_push(u->g->a, &u->runs, (void *)b);
        for (int i = 0; i < r->u.call.nargs; i++) walk(u, r->u.call.args[i]);
        return;
    }
    walk(u, r);
}

static void walk(Uses *u, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING: case LE_LEN:
        return;
    case LE_VAR: use_of(u, e->u.var)->reads++; return;
    case LE_INDEX: use_of(u, e->u.index.vec)->reads++; walk(u, e->u.index.idx); return;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) walk(u, e->u.tuple.elems[i]);
        return;
    case LE_LET: case LE_LOOP: walk_bind(u, e->u.let.bind); walk(u, e->u.let.body); return;
    case LE_IF: walk(u, e->u.if_.cond); walk(u, e->u.if_.then_e); walk(u, e->u.if_.else_e); return;
    case LE_BINOP: walk(u, e->u.bin.l); walk(u, e->u.bin.r); return;
    case LE_UNOP: walk(u, e->u.un.e); return;
    case LE_LIB:
        for (int i = 0; i < e->u.lib.nargs; i++) walk(u, e->u.lib.args[i]);
        return;
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) walk_bind(u, e->u.block.binds[i]);
        walk(u, e->u.block.result);
        return;
    case LE_SOAC: lcu_names_soac(u->g->a, e->u.soac, read_name, u); return;
    case LE_RUN:
        run_anywhere(u, e);
        for (int i = 0; i < e->u.call.nargs; i++) walk(u, e->u.call.args[i]);
        return;
    case LE_CALL:
        /* filter_sd (s, kept): kept read as positions (a user function of that name is not the builtin) */
        if (e->u.call.nargs == 2 && gen_builtin_call(u->g, e, "filter_sd") && e->u.call.args[1]->kind == LE_VAR) {
            walk(u, e->u.call.args[0]);
            return;
        }
        for (int i = 0; i < e->u.call.nargs; i++) walk(u, e->u.call.args[i]);
        return;
    }
}

/* A run bound name by name, once its function's reads are counted. */
static void bind_results(Uses *u, const LcuBind *b)
{
    const LcuExpr *r = b->rhs;
    int k = kernel_slot(u->g->prog, gen_find_kernel(u->g->prog, r->u.call.name));
    if (k < 0) return;
    const LcuKernel *K = u->g->prog->kernels[k];
    for (int j = 0; j < K->nrets; j++) {
        const Use *x = b->nvars == K->nrets ? use_of(u, b->vars[j]) : NULL;
        if (!x || x->binds != 1 || x->reads != 0) u->ok[k][j] = false;
    }
}

void gen_kernel_uses(Gen *g)
{
    const LcuProgram *p = g->prog;
    Uses u = { g, NULL, 0, 0, { 0 }, arena_alloc(g->a, sizeof(bool *) * (size_t)(p->nkernels + 1)) };
    for (int k = 0; k < p->nkernels; k++) {
        int n = p->kernels[k]->nrets;
        u.ok[k] = arena_alloc(g->a, sizeof(bool) * (size_t)(n + 1));
        for (int j = 0; j < n; j++) u.ok[k][j] = true;
    }
    for (int i = 0; i < p->nfuns; i++) {
        const LcuFun *f = p->funs[i];
        u.n = 0;
        u.runs.len = 0;
        for (int j = 0; j < f->nparams; j++) use_of(&u, f->params[j].name)->binds++;
        walk(&u, f->body);
        for (int j = 0; j < u.runs.len; j++) bind_results(&u, u.runs.items[j]);
    }
    g->kept_only = u.ok;
}

bool gen_kept_only(const Gen *g, const LcuKernel *k, int j)
{
    int i = g->kept_only ? kernel_slot(g->prog, k) : -1;
    return i >= 0 && j >= 0 && j < k->nrets && g->kept_only[i][j];
}
