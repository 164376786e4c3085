/* fu_pdg.c — the program-dependence graph of one control region: nodes are
 * the region's bindings (kernel launches of one-SOAC kernels, and CPU
 * computations), edges the data dependencies between them, classified by
 * the vertical fusion rules; iteration sizes come from the CPU's size
 * classes (doc/flattening.md "Shapes": sizes are variables). */
#include <stdint.h>
#include <string.h>
#include "fu_impl.h"

const LcuKernel *fu_find_kernel(const LcuProgram *p, Sym name)
{
    for (int i = 0; i < p->nkernels; i++)
        if (p->kernels[i]->name == name) return p->kernels[i];
    return NULL;
}

/* ------------------------------------------------------------------ size classes */

int sizes_class(Sizes *S, int kind, Sym name, int64_t k)
{
    for (int i = 0; i < S->n; i++)
        if (S->keys[i].kind == kind && S->keys[i].name == name && S->keys[i].k == k) return i;
    if (S->n == S->cap) {
        int cap = S->cap ? 2 * S->cap : 64;
        SizeKey *keys = arena_alloc(S->F->a, sizeof *keys * (size_t)cap);
        int *parent = arena_alloc(S->F->a, sizeof *parent * (size_t)cap);
        if (S->n) { memcpy(keys, S->keys, sizeof *keys * (size_t)S->n); memcpy(parent, S->parent, sizeof *parent * (size_t)S->n); }
        S->keys = keys; S->parent = parent; S->cap = cap;
    }
    S->keys[S->n] = (SizeKey){ kind, name, k };
    S->parent[S->n] = S->n;
    return S->n++;
}

int sizes_find(Sizes *S, int x)
{
    if (x < 0) return x;
    while (S->parent[x] != x) x = S->parent[x] = S->parent[S->parent[x]];
    return x;
}

void sizes_union(Sizes *S, int x, int y)
{
    if (x < 0 || y < 0) return;
    x = sizes_find(S, x); y = sizes_find(S, y);
    if (x != y) S->parent[x < y ? y : x] = x < y ? x : y;
}

/* The class of `l op r` for integer +, - and * over classes l and r (-1:
 * not a size expression).  Keyed by the operands' representatives when it
 * is asked: a stale representative still names a member of its (merged)
 * class, so two equal keys are always one size; a key made before a later
 * union only misses an equality, it never invents one. */
int sizes_binop_class(Sizes *S, LcuBinop op, int l, int r)
{
    if (l < 0 || r < 0 || (op != LOP_ADD && op != LOP_SUB && op != LOP_MUL)) return -1;
    l = sizes_find(S, l);
    r = sizes_find(S, r);
    if (op != LOP_SUB && l > r) { int t = l; l = r; r = t; }   /* + and * commute */
    return sizes_find(S, sizes_class(S, 5 + (int)op, NULL, (int64_t)l << 32 | (int64_t)r));
}

static int class_of_cpu(Sizes *S, const LcuExpr *e, bool length)
{
    if (!e) return -1;
    switch (e->kind) {
    case LE_BINOP:
        if (length) return -1;
        return sizes_binop_class(S, e->u.bin.op, class_of_cpu(S, e->u.bin.l, false), class_of_cpu(S, e->u.bin.r, false));
    case LE_VAR: return sizes_find(S, sizes_class(S, length ? 1 : 0, e->u.var, 0));
    case LE_INT: return length ? -1 : sizes_find(S, sizes_class(S, 2, NULL, e->u.i));
    case LE_LEN: return length ? -1 : sizes_find(S, sizes_class(S, 1, e->u.len.vec, 0));
    case LE_CALL:     /* total (s): the flat length of sd s */
        if (length || !total_of(e)) return -1;
        return sizes_find(S, sizes_class(S, 4, total_of(e), 0));
    default: return -1;
    }
}

const LcuExpr *node_arg_for(const Node *nd, Sym param)
{
    const LcuExpr *run = nd->bind->rhs;
    for (int i = 0; i < nd->k->nparams && i < run->u.call.nargs; i++)
        if (nd->k->params[i].name == param) return run->u.call.args[i];
    return NULL;
}

const LcuArg *soac_size_arg(const LcuSoac *s)
{
    return s->kind == LS_ONCE ? NULL : s->args[s->nargs - 1];
}

bool soac_has_pull(LcuSoacKind k) { return k != LS_ONCE; }

/* The class of a size expression inside kernel nd (its parameters stand for
 * the launch's arguments). */
static int kernel_size_class(Sizes *S, const Node *nd, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_BINOP:
        return sizes_binop_class(S, e->u.bin.op, kernel_size_class(S, nd, e->u.bin.l), kernel_size_class(S, nd, e->u.bin.r));
    case LE_INT: return sizes_find(S, sizes_class(S, 2, NULL, e->u.i));
    case LE_VAR: {
        const LcuExpr *a = node_arg_for(nd, e->u.var);
        if (a && a->kind == LE_VAR && a->type && a->type->kind == LT_SD)
            return sizes_find(S, sizes_class(S, 3, a->u.var, 0));
        return class_of_cpu(S, a, false);
    }
    case LE_LEN: return class_of_cpu(S, node_arg_for(nd, e->u.len.vec), true);
    default: return -1;
    }
}

int node_size_class(Sizes *S, const Node *nd, const LcuArg *size)
{
    if (!size) return sizes_find(S, sizes_class(S, 2, NULL, -1));    /* ONCE */
    if (size->kind != LA_EXPR) return -1;
    return kernel_size_class(S, nd, size->u.expr);
}

Sym total_of(const LcuExpr *e)
{
    if (e->kind != LE_CALL || strcmp(e->u.call.name, "total") || e->u.call.nargs != 1 || e->u.call.args[0]->kind != LE_VAR)
        return NULL;
    return e->u.call.args[0]->u.var;
}

/* A SEG_ SOAC's pull index ranges over 0..total(s)-1: the class of total(s)
 * for its sd argument (-1: not an sd variable). */
int node_total_class(Sizes *S, const Node *nd, const LcuArg *size)
{
    if (!size || size->kind != LA_EXPR || size->u.expr->kind != LE_VAR) return -1;
    const LcuExpr *a = node_arg_for(nd, size->u.expr->u.var);
    if (!a || a->kind != LE_VAR || !a->type || a->type->kind != LT_SD) return -1;
    return sizes_find(S, sizes_class(S, 4, a->u.var, 0));
}

/* Trivial kernel: one SOAC binding whose results are returned in order. */
static bool trivial_kernel(const LcuKernel *k)
{
    if (!k || k->nbinds != 1) return false;
    const LcuKBind *b = k->binds[0];
    if (b->nvars != k->nrets) return false;
    for (int i = 0; i < b->nvars; i++)
        if (b->vars[i] != k->rets[i]) return false;
    return true;
}

static bool is_run_node(Fu *F, const LcuBind *b, const LcuKernel **kout)
{
    const LcuExpr *e = b->rhs;
    if (e->kind != LE_RUN || !b->types) return false;
    const LcuKernel *k = fu_find_kernel(F->prog, e->u.call.name);
    if (!trivial_kernel(k) || k->nparams != e->u.call.nargs || b->nvars != k->nrets) return false;
    for (int i = 0; i < e->u.call.nargs; i++) {
        LcuExprKind ak = e->u.call.args[i]->kind;
        if (ak != LE_VAR && ak != LE_INT && ak != LE_FLOAT && ak != LE_BOOL && ak != LE_CHAR) return false;
    }
    *kout = k;
    return true;
}

void sizes_collect_fun_block(Sizes *S, const LcuExpr *blk);

static void collect_expr(Sizes *S, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_BLOCK: sizes_collect_fun_block(S, e); return;
    case LE_IF: collect_expr(S, e->u.if_.then_e); collect_expr(S, e->u.if_.else_e); return;
    default: return;
    }
}

/* segids (s) has total (s) elements; lengths (s) and offsets (s) have #s;
 * s = dist_sd (n, l) has #s = n. */
static void sd_vector_class(Sizes *S, Sym v, const LcuExpr *e)
{
    if (e->kind == LE_CALL && e->u.call.nargs == 2 && !strcmp(e->u.call.name, "dist_sd")) {
        sizes_union(S, sizes_class(S, 1, v, 0), class_of_cpu(S, e->u.call.args[0], false));
        return;
    }
    if (e->kind == LE_CALL && e->u.call.nargs == 2 && e->u.call.args[0]->kind == LE_VAR && e->u.call.args[1]->kind == LE_VAR &&
        (!strcmp(e->u.call.name, "sum_sd") || !strcmp(e->u.call.name, "cat_sd") || !strcmp(e->u.call.name, "zip_sd"))) {
        /* #s = #a = #b (sum_sd), or #a + #b (cat_sd; zip_sd, where #a = #b);
         * total (s) = total (a) + total (b) */
        Sym a = e->u.call.args[0]->u.var, b = e->u.call.args[1]->u.var;
        int na = sizes_find(S, sizes_class(S, 1, a, 0)), nb = sizes_find(S, sizes_class(S, 1, b, 0));
        int ta = sizes_find(S, sizes_class(S, 4, a, 0)), tb = sizes_find(S, sizes_class(S, 4, b, 0));
        if (!strcmp(e->u.call.name, "sum_sd")) {
            sizes_union(S, sizes_class(S, 1, v, 0), na);
            sizes_union(S, na, nb);
        } else {
            if (!strcmp(e->u.call.name, "zip_sd")) sizes_union(S, na, nb);
            sizes_union(S, sizes_class(S, 1, v, 0), sizes_binop_class(S, LOP_ADD, na, nb));
        }
        sizes_union(S, sizes_class(S, 4, v, 0), sizes_binop_class(S, LOP_ADD, ta, tb));
        return;
    }
    if (e->kind == LE_CALL && e->u.call.nargs == 2 && !strcmp(e->u.call.name, "filter_sd") &&
        e->u.call.args[0]->kind == LE_VAR && e->u.call.args[1]->kind == LE_VAR) {
        /* #s = #t; total (s) = #kept */
        sizes_union(S, sizes_class(S, 1, v, 0), sizes_class(S, 1, e->u.call.args[0]->u.var, 0));
        sizes_union(S, sizes_class(S, 4, v, 0), sizes_class(S, 1, e->u.call.args[1]->u.var, 0));
        return;
    }
    if (e->kind != LE_CALL || e->u.call.nargs != 1 || e->u.call.args[0]->kind != LE_VAR) return;
    const char *f = e->u.call.name;
    Sym s = e->u.call.args[0]->u.var;
    bool ids = !strcmp(f, "segids"), offs = !strcmp(f, "offsets"), lens = !strcmp(f, "lengths");
    sizes_union(S, sizes_class(S, 1, v, 0), ids ? sizes_class(S, 4, s, 0) : offs || lens ? sizes_class(S, 1, s, 0) : -1);
    if (!ids && !offs && !lens) return;
    /* what the vector is, for the rewrite's known segments (fu_sd_access) */
    SdAccess *acc = arena_alloc(S->F->a, sizeof *acc);
    *acc = (SdAccess){ v, ids ? SD_SEGIDS : offs ? SD_OFFSETS : SD_LENGTHS, s };
    ptrvec_push(S->F->a, &S->F->sd_access, acc);
}

/* x = a - b also says b + x = a, and x = a + b says x - b = a and x - a =
 * b: a lifted if's two parts (x and n - x elements) are put back together
 * by a MAP of size x + (n - x), which is then one size with n. */
static void int_binding_inverse(Sizes *S, Sym x, const LcuExpr *e)
{
    if (e->kind != LE_BINOP || (e->u.bin.op != LOP_ADD && e->u.bin.op != LOP_SUB)) return;
    int a = class_of_cpu(S, e->u.bin.l, false), b = class_of_cpu(S, e->u.bin.r, false);
    int cx = sizes_find(S, sizes_class(S, 0, x, 0));
    if (a < 0 || b < 0) return;
    if (e->u.bin.op == LOP_SUB) {
        sizes_union(S, sizes_binop_class(S, LOP_ADD, b, cx), a);
        return;
    }
    sizes_union(S, sizes_binop_class(S, LOP_SUB, cx, b), a);
    sizes_union(S, sizes_binop_class(S, LOP_SUB, cx, a), b);
}

void sizes_collect_fun_block(Sizes *S, const LcuExpr *blk)
{
    for (int i = 0; i < blk->u.block.nbinds; i++) {
        const LcuBind *b = blk->u.block.binds[i];
        const LcuExpr *e = b->rhs;
        collect_expr(S, e);
        if (b->nvars == 1 && b->types && b->types[0]->kind == LT_BASE && b->types[0]->base == LB_INT) {
            sizes_union(S, sizes_class(S, 0, b->vars[0], 0), class_of_cpu(S, e, false));
            int_binding_inverse(S, b->vars[0], e);
        }
        if (b->nvars == 1) sd_vector_class(S, b->vars[0], e);
        const LcuKernel *k;
        if (!is_run_node(S->F, b, &k)) continue;
        const LcuSoac *so = k->binds[0]->soac;
        Node nd = { .bind = (LcuBind *)b, .k = k };
        switch (so->kind) {
        case LS_MAP: case LS_SCAN: case LS_PERMUTE: {
            int c = node_size_class(S, &nd, soac_size_arg(so));
            for (int v = 0; v < b->nvars; v++) sizes_union(S, sizes_class(S, 1, b->vars[v], 0), c);
            break;
        }
        case LS_SEG_SCAN: case LS_SEG_PERMUTE: {     /* one result per element: total (s) */
            int c = node_total_class(S, &nd, soac_size_arg(so));
            for (int v = 0; v < b->nvars; v++) sizes_union(S, sizes_class(S, 1, b->vars[v], 0), c);
            break;
        }
        case LS_SEG_REDUCE: {                          /* one result per segment: #s */
            const LcuArg *sz = soac_size_arg(so);
            const LcuExpr *sd = sz->kind == LA_EXPR && sz->u.expr->kind == LE_VAR ? node_arg_for(&nd, sz->u.expr->u.var) : NULL;
            int c = class_of_cpu(S, sd, true);
            for (int v = 0; v < b->nvars; v++) sizes_union(S, sizes_class(S, 1, b->vars[v], 0), c);
            break;
        }
        case LS_SEG_FILTER: {                          /* (elements.., t): total (t) elements */
            int c = sizes_class(S, 4, b->vars[b->nvars - 1], 0);
            for (int v = 0; v < b->nvars - 1; v++) sizes_union(S, sizes_class(S, 1, b->vars[v], 0), c);
            break;
        }
        case LS_FILTER:                                /* its results: one length, the survivors' */
            for (int v = 1; v < b->nvars; v++) sizes_union(S, sizes_class(S, 1, b->vars[0], 0), sizes_class(S, 1, b->vars[v], 0));
            break;
        case LS_PARTITION: {                           /* (true part.., false part..): one length each */
            int ne = b->nvars / 2;
            for (int v = 1; v < ne; v++) {
                sizes_union(S, sizes_class(S, 1, b->vars[0], 0), sizes_class(S, 1, b->vars[v], 0));
                sizes_union(S, sizes_class(S, 1, b->vars[ne], 0), sizes_class(S, 1, b->vars[ne + v], 0));
            }
            break;
        }
        case LS_REDUCE: case LS_ONCE: case LS_SEG_PARTITION:
            break;
        }
    }
}

/* A check (a != b, ...) ahead of every kernel launch, branch and call of
 * the function: everything the size classes serve runs after it and only
 * if it passed, so a and b are one size (lifted functions start with such
 * checks of their parameters, flatten/program.c; so do apply-to-each
 * bodies of their lengths). */
static bool prefix_stmt(const LcuProgram *p, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_RUN: case LE_IF: case LE_BLOCK: case LE_SOAC: return false;
    case LE_CALL:
        for (int i = 0; i < p->nfuns; i++)
            if (p->funs[i]->name == e->u.call.name) return false;
        return true;
    default: return true;
    }
}

static void collect_prefix_checks(Sizes *S, const LcuExpr *blk)
{
    for (int i = 0; i < blk->u.block.nbinds; i++) {
        const LcuExpr *e = blk->u.block.binds[i]->rhs;
        if (!prefix_stmt(S->F->prog, e)) return;
        if (e->kind != LE_CALL || strcmp(e->u.call.name, "check") || e->u.call.nargs < 1) continue;
        const LcuExpr *c = e->u.call.args[0];
        if (c->kind == LE_BINOP && c->u.bin.op == LOP_NE)
            sizes_union(S, class_of_cpu(S, c->u.bin.l, false), class_of_cpu(S, c->u.bin.r, false));
    }
}

void sizes_collect_fun(Sizes *S, const LcuFun *f)
{
    sizes_collect_fun_block(S, f->body);
    collect_prefix_checks(S, f->body);
}

/* ------------------------------------------------------------------ effects */

static bool has_effect(Fu *F, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING:
    case LE_VAR: case LE_LEN:
        return false;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) if (has_effect(F, e->u.tuple.elems[i])) return true;
        return false;
    case LE_LET: case LE_LOOP: return has_effect(F, e->u.let.bind->rhs) || has_effect(F, e->u.let.body);
    case LE_IF: return has_effect(F, e->u.if_.cond) || has_effect(F, e->u.if_.then_e) || has_effect(F, e->u.if_.else_e);
    case LE_BINOP:
        if (e->u.bin.op == LOP_DIV || e->u.bin.op == LOP_MOD) return true;   /* may fail */
        return has_effect(F, e->u.bin.l) || has_effect(F, e->u.bin.r);
    case LE_UNOP: return has_effect(F, e->u.un.e);
    case LE_INDEX: return !e->u.index.inrange || has_effect(F, e->u.index.idx);   /* may fail, unless in range */
    case LE_RUN:
        for (int i = 0; i < e->u.call.nargs; i++) if (has_effect(F, e->u.call.args[i])) return true;
        return false;
    case LE_CALL: {
        const char *n = e->u.call.name;
        /* make_sd is not among them: its one failure, a negative length,
         * the flattener always checks before (doc/fusion.md) */
        if (!strcmp(n, "check") || !strcmp(n, "dist_sd") || !strcmp(n, "guard")) return true;
        for (int i = 0; i < F->prog->nfuns; i++)
            if (F->prog->funs[i]->name == n) return true;      /* a CPU function: anything */
        for (int i = 0; i < e->u.call.nargs; i++) if (has_effect(F, e->u.call.args[i])) return true;
        return false;
    }
    case LE_BLOCK:
        for (int i = 0; i < e->u.block.nbinds; i++) if (has_effect(F, e->u.block.binds[i]->rhs)) return true;
        return has_effect(F, e->u.block.result);
    case LE_SOAC: case LE_LIB:
        return true;
    }
    return true;
}

/* ------------------------------------------------------------------ failure */

/* Can a MAP, REDUCE or SCAN kernel raise a runtime error?  Its thunks fail
 * where the code generators check (cudagen/gen_expr.c): integer division
 * and rem/mod by a non-literal, isqrt, and a subscript, unless the
 * subscript is the pull's own index into a vector whose length is in the
 * SOAC's size class.  A kernel that cannot fail may run after a check
 * that followed it (the check only decides whether the program stops), so
 * checks stop being fusion barriers for it. */
typedef struct FailCtx { Sizes *S; const Node *nd; Sym idx; int cls; } FailCtx;

static bool nonzero_literal(const LcuExpr *e) { return e->kind == LE_INT && e->u.i != 0; }

static bool thunk_fails(const FailCtx *c, const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_STRING: case LE_LEN:
        return false;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) if (thunk_fails(c, e->u.tuple.elems[i])) return true;
        return false;
    case LE_LET: case LE_LOOP:
        for (int i = 0; c->idx && i < e->u.let.bind->nvars; i++)
            if (e->u.let.bind->vars[i] == c->idx) return true;   /* rebinds it */
        return thunk_fails(c, e->u.let.bind->rhs) || thunk_fails(c, e->u.let.body);
    case LE_IF: return thunk_fails(c, e->u.if_.cond) || thunk_fails(c, e->u.if_.then_e) || thunk_fails(c, e->u.if_.else_e);
    case LE_BINOP:
        if ((e->u.bin.op == LOP_DIV || e->u.bin.op == LOP_MOD) && e->u.bin.l->type && e->u.bin.l->type->base == LB_INT &&
            !nonzero_literal(e->u.bin.r))
            return true;
        return thunk_fails(c, e->u.bin.l) || thunk_fails(c, e->u.bin.r);
    case LE_UNOP: return thunk_fails(c, e->u.un.e);
    case LE_INDEX: {
        const LcuExpr *ix = e->u.index.idx;
        if (e->u.index.inrange) return thunk_fails(c, ix);
        if (!c->idx || c->cls < 0 || ix->kind != LE_VAR || ix->u.var != c->idx) return true;
        return class_of_cpu(c->S, node_arg_for(c->nd, e->u.index.vec), true) != c->cls;
    }
    case LE_CALL: {
        const char *fn = e->u.call.name;
        if (!strcmp(fn, "isqrt") || !strcmp(fn, "guard")) return true;
        if ((!strcmp(fn, "rem") || !strcmp(fn, "mod")) && !(e->u.call.nargs == 2 && nonzero_literal(e->u.call.args[1])))
            return true;
        for (int i = 0; i < e->u.call.nargs; i++) if (thunk_fails(c, e->u.call.args[i])) return true;
        return false;
    }
    case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return true;
    }
    return true;
}

/* Does argument argno of s take an index of its iteration space: the pull
 * or PERMUTE's index thunk? */
bool soac_index_thunk(const LcuSoac *s, int argno)
{
    switch (s->kind) {
    case LS_ONCE: return false;
    case LS_PERMUTE: case LS_SEG_PERMUTE: return argno <= 1;
    case LS_MAP: case LS_REDUCE: case LS_SCAN: case LS_FILTER: case LS_PARTITION: case LS_SEG_REDUCE:
    case LS_SEG_SCAN: case LS_SEG_FILTER: case LS_SEG_PARTITION:
        return argno == 0;
    }
    return false;
}

static bool in_list(int n, const Sym *v, Sym x)
{
    for (int i = 0; i < n; i++) if (v[i] == x) return true;
    return false;
}

/* The component of a FILTER's or PARTITION's pulled element that is the
 * pull's own index, or -1: { i => i }, or { i => let j = i in (.., j, ..) }
 * (a lifted filter's pull, which keeps each element's index).  The
 * predicate's parameter for it is then an index of the iteration space. */
static int pull_index_component(const LcuSoac *so)
{
    if ((so->kind != LS_FILTER && so->kind != LS_PARTITION) || so->args[0]->kind != LA_THUNK) return -1;
    const LcuThunk *t = so->args[0]->u.thunk;
    if (t->nparams != 1) return -1;
    Sym alias[8] = { t->params[0] };
    int na = 1;
    const LcuExpr *e = t->body;
    while (e->kind == LE_LET && na < 8 && e->u.let.bind->nvars == 1 && e->u.let.bind->rhs->kind == LE_VAR
           && in_list(na, alias, e->u.let.bind->rhs->u.var)) {
        alias[na++] = e->u.let.bind->vars[0];
        e = e->u.let.body;
    }
    if (e->kind == LE_VAR) return in_list(na, alias, e->u.var) ? 0 : -1;
    if (e->kind != LE_TUPLE) return -1;
    for (int c = 0; c < e->u.tuple.n; c++)
        if (e->u.tuple.elems[c]->kind == LE_VAR && in_list(na, alias, e->u.tuple.elems[c]->u.var)) return c;
    return -1;
}

/* The parameter of argument argno of s that is an index of its iteration
 * space, or NULL: an index thunk's, or a FILTER's or PARTITION's predicate
 * parameter for the pulled index (pull_index_component).  Session 21
 * dropped MAPs inlined into predicates: the FILTER's counts were a launch
 * of their own that stored the flags anyway, and quicksort 10^7 lost 10%;
 * since session 29 a FILTER is one launch that evaluates each predicate
 * once, and a lifted filter's flags are read by nothing else. */
Sym soac_index_param(const LcuSoac *s, int argno)
{
    const LcuArg *g = s->args[argno];
    if (g->kind != LA_THUNK) return NULL;
    const LcuThunk *t = g->u.thunk;
    if (soac_index_thunk(s, argno)) return t->nparams == 1 ? t->params[0] : NULL;
    int c = argno == 1 ? pull_index_component(s) : -1;
    return c >= 0 && c < t->nparams ? t->params[c] : NULL;
}

static bool run_may_fail(Sizes *S, const Node *nd)
{
    const LcuSoac *so = nd->k->binds[0]->soac;
    bool seg = so->kind == LS_SEG_REDUCE || so->kind == LS_SEG_SCAN;
    bool filter = so->kind == LS_FILTER || so->kind == LS_PARTITION;
    if (so->kind != LS_MAP && so->kind != LS_REDUCE && so->kind != LS_SCAN && !seg && !filter) return true;
    /* the pull's parameter is the index in 0..size-1 (a SEG_ SOAC's: the
     * flat index in 0..total(s)-1); a FILTER's predicate sees the pulled
     * element, one component of it an index when the pull keeps it
     * (soac_index_param) */
    int cls = seg ? node_total_class(S, nd, soac_size_arg(so)) : nd->size_class;
    for (int a = 0; a < so->nargs; a++) {
        const LcuArg *g = so->args[a];
        if (g->kind != LA_THUNK) continue;
        const LcuThunk *t = g->u.thunk;
        FailCtx c = { S, nd, soac_index_param(so, a), cls };
        if (thunk_fails(&c, t->body)) return true;
    }
    return false;
}

/* ------------------------------------------------------------------ vertical rules */

/* Does a thunk read the vectors in ps only as p[r] (r its single
 * parameter, never rebound) or #p?  With r = NULL: only as #p.  no_len:
 * never as #p; only_sub: r itself appears only as such a subscript. */
typedef struct PullCheck { Fu *F; int n; const Sym *ps; Sym r; bool no_len; bool only_sub; bool inrange_ok; bool ok; } PullCheck;

static void pull_check(PullCheck *c, const LcuExpr *e)
{
    if (!c->ok) return;
    switch (e->kind) {
    case LE_VAR: if (in_list(c->n, c->ps, e->u.var) || (c->only_sub && e->u.var == c->r)) c->ok = false; return;
    case LE_LEN:             /* #p: the producer's size, substituted (not for SEG_FILTER) */
        if (c->no_len && in_list(c->n, c->ps, e->u.len.vec)) c->ok = false;
        return;
    case LE_INDEX:
        if (in_list(c->n, c->ps, e->u.index.vec)) {
            if (c->r && e->u.index.idx->kind == LE_VAR && e->u.index.idx->u.var == c->r) return;   /* p[r] */
            if (!(c->inrange_ok && e->u.index.inrange)) c->ok = false;   /* else p.[e] */
        }
        pull_check(c, e->u.index.idx);
        return;
    case LE_LET: case LE_LOOP:
        for (int i = 0; i < e->u.let.bind->nvars; i++)
            if (e->u.let.bind->vars[i] == c->r || in_list(c->n, c->ps, e->u.let.bind->vars[i])) c->ok = false;
        pull_check(c, e->u.let.bind->rhs);
        pull_check(c, e->u.let.body);
        return;
    case LE_TUPLE: case LE_RECUR: for (int i = 0; i < e->u.tuple.n; i++) pull_check(c, e->u.tuple.elems[i]); return;
    case LE_IF: pull_check(c, e->u.if_.cond); pull_check(c, e->u.if_.then_e); pull_check(c, e->u.if_.else_e); return;
    case LE_BINOP: pull_check(c, e->u.bin.l); pull_check(c, e->u.bin.r); return;
    case LE_UNOP: pull_check(c, e->u.un.e); return;
    case LE_CALL: for (int i = 0; i < e->u.call.nargs; i++) pull_check(c, e->u.call.args[i]); return;
    default: return;
    }
}

bool thunk_reads_only_at_param(Fu *F, const LcuThunk *t, int n, const Sym *ps, bool filtered)
{
    return t->nparams == 1 && thunk_reads_only_at(F, t, t->params[0], n, ps, filtered);
}

bool thunk_reads_only_at(Fu *F, const LcuThunk *t, Sym r, int n, const Sym *ps, bool filtered)
{
    for (int i = 0; i < t->nparams; i++) if (in_list(n, ps, t->params[i])) return false;
    PullCheck c = { F, n, ps, r, filtered, filtered, false, true };
    pull_check(&c, t->body);
    return c.ok;
}

/* Does an argument use the vectors in ps other than through #p (no_len:
 * at all)? */
bool arg_reads_beyond_len(Fu *F, const LcuArg *g, int n, const Sym *ps, bool no_len)
{
    PullCheck c = { F, n, ps, NULL, no_len, false, false, true };
    if (g->kind == LA_EXPR) { pull_check(&c, g->u.expr); return !c.ok; }
    for (int i = 0; i < g->u.thunk->nparams; i++) if (in_list(n, ps, g->u.thunk->params[i])) return true;
    pull_check(&c, g->u.thunk->body);
    return !c.ok;
}

/* The consumer's kernel parameters bound to the producer's outputs. */
static int params_from(const Node *prod, const Node *cons, Sym *out)
{
    int n = 0;
    const LcuExpr *run = cons->bind->rhs;
    for (int i = 0; i < cons->k->nparams; i++) {
        const LcuExpr *a = run->u.call.args[i];
        if (a->kind == LE_VAR && in_list(prod->bind->nvars, prod->bind->vars, a->u.var)) out[n++] = cons->k->params[i].name;
    }
    return n;
}

/* FILTER→REDUCE, FILTER→FILTER, PERMUTE→PERMUTE: the consumer pulls the
 * producer's elements at its own index only, over the producer's length. */
static bool exact_pull(const Node *prod, const Node *cons, const LcuThunk *pull, int m);

/* Is a consumer's size #p of one of the producer's outputs it reads (ps),
 * or of the class of #v? */
static bool size_is_len_of(Sizes *S, const Node *cons, const LcuArg *sz, int n, const Sym *ps, Sym v)
{
    if (sz->kind == LA_EXPR && sz->u.expr->kind == LE_LEN && in_list(n, ps, sz->u.expr->u.len.vec)) return true;
    int c = node_size_class(S, cons, sz);
    return c >= 0 && c == sizes_find(S, sizes_class(S, 1, v, 0));
}

static bool index_space_rule(Fu *F, Sizes *S, const Node *prod, const Node *cons, bool exact)
{
    Sym ps[64];
    if (cons->k->nparams > 64) return false;
    int n = params_from(prod, cons, ps);
    const LcuSoac *so = cons->k->binds[0]->soac;
    if (n == 0 || so->args[0]->kind != LA_THUNK) return false;
    const LcuThunk *pull = so->args[0]->u.thunk;
    /* a consumer over a FILTER's result that used its own index or the
     * result's length otherwise would see the FILTER's index and size in
     * their place once fused (tests/fusion/prevent_filter_index, _len) */
    bool filtered = prod->soac != LS_PERMUTE;
    if (!thunk_reads_only_at_param(F, pull, n, ps, filtered)) return false;
    for (int i = 1; i < so->nargs - 1; i++)
        if (arg_reads_beyond_len(F, so->args[i], n, ps, filtered)) return false;
    if (!size_is_len_of(S, cons, soac_size_arg(so), n, ps, prod->bind->vars[0])) return false;
    return !exact || exact_pull(prod, cons, pull, prod->bind->nvars);
}

/* SEG_FILTER→SEG_REDUCE, SEG_FILTER→SEG_FILTER: the consumer runs over the
 * filter's result descriptor t and pulls the filtered elements at its own
 * (flat) index only; neither the elements' length (total (t), which GPU
 * code cannot name) nor t appears anywhere else in it.  Segment k of t holds
 * the survivors of segment k of the filter's sd, in order, so the consumer
 * can run over that sd instead. */
bool seg_filter_consumer_ok(Fu *F, const LcuSoac *so, int ne, const Sym *elems, Sym t)
{
    if (so->args[0]->kind != LA_THUNK || so->args[0]->u.thunk->nparams != 1) return false;
    const LcuThunk *pull = so->args[0]->u.thunk;
    if (in_list(ne, elems, pull->params[0]) || pull->params[0] == t) return false;
    PullCheck c = { F, ne, elems, pull->params[0], true, true, false, true };
    pull_check(&c, pull->body);
    if (!c.ok) return false;
    const LcuArg *sz = soac_size_arg(so);
    if (sz->kind != LA_EXPR || sz->u.expr->kind != LE_VAR || sz->u.expr->u.var != t) return false;
    for (int i = 0; i < so->nargs - 1; i++) {
        PtrVec fv = { 0 };
        fu_free_vars_arg(F, so->args[i], &fv);
        for (int v = 0; v < fv.len; v++)
            if (fv.items[v] == (void *)t || (i > 0 && in_list(ne, elems, fv.items[v]))) return false;
    }
    return true;
}

/* FILTER→FILTER and SEG_FILTER→SEG_FILTER: the pull is exactly the
 * producer's m elements, in order (kernel parameters bound to them). */
static bool exact_pull(const Node *prod, const Node *cons, const LcuThunk *pull, int m)
{
    const LcuExpr *b = pull->body;
    if ((b->kind == LE_TUPLE ? b->u.tuple.n : 1) != m) return false;
    for (int i = 0; i < m; i++) {
        const LcuExpr *x = b->kind == LE_TUPLE ? b->u.tuple.elems[i] : b;
        if (x->kind != LE_INDEX) return false;
        const LcuExpr *a = node_arg_for(cons, x->u.index.vec);
        if (!a || a->kind != LE_VAR || a->u.var != prod->bind->vars[i]) return false;
    }
    return true;
}

static bool seg_filter_rule(Fu *F, const Node *prod, const Node *cons, bool exact)
{
    Sym ps[64], elems[64], t = NULL;
    if (cons->k->nparams > 64) return false;
    int n = params_from(prod, cons, ps), ne = 0;
    Sym tcpu = prod->bind->vars[prod->bind->nvars - 1];
    for (int i = 0; i < n; i++) {
        const LcuExpr *a = node_arg_for(cons, ps[i]);
        if (a->u.var == tcpu) { if (t) return false; t = ps[i]; }
        else elems[ne++] = ps[i];
    }
    const LcuSoac *so = cons->k->binds[0]->soac;
    if (!t || !seg_filter_consumer_ok(F, so, ne, elems, t)) return false;
    return !exact || exact_pull(prod, cons, so->args[0]->u.thunk, prod->bind->nvars - 1);
}

/* Does an argument read the vectors in ps only as p.[e] (an in-range
 * subscript, at any index), as #p, or as p[r] at its thunk's index
 * parameter r (NULL: none)? */
static bool reads_at_param_or_inrange(Fu *F, const LcuArg *g, int n, const Sym *ps, Sym r)
{
    PullCheck c = { F, n, ps, NULL, false, false, true, true };
    if (g->kind == LA_EXPR) { pull_check(&c, g->u.expr); return c.ok; }
    const LcuThunk *t = g->u.thunk;
    for (int i = 0; i < t->nparams; i++) if (in_list(n, ps, t->params[i])) return false;
    c.r = r;
    pull_check(&c, t->body);
    return c.ok;
}

/* A view: a MAP that cannot fail and is cheap enough (a select of two
 * reads, an offset added) to compute again at each in-range subscript
 * that reads it, at any index, instead of storing it (the λcu paper's
 * pull arrays).  The lifted `++`'s concatenation, read through the
 * interleaving gather, was a launch of its own, two a quicksort level. */
#define VIEW_MAX_NODES 16
/* A larger one (a lifted `++`'s index arithmetic, a gather by segment
 * through it) is a view only where one kernel reads it at one place
 * (settle_views): computed again there, it costs what storing and
 * loading it did, without its launch. */
#define VIEW_MAX_NODES_ONE_READ 64
static int view_body_size(const Node *nd) { return lcu_expr_size(nd->k->binds[0]->soac->args[0]->u.thunk->body); }

static bool map_is_view(const Node *nd)
{
    if (nd->kind != NODE_RUN || nd->soac != LS_MAP || nd->may_fail || nd->k->nbinds != 1) return false;
    const LcuExpr *body = nd->k->binds[0]->soac->args[0]->u.thunk->body;
    return lcu_expr_size(body) <= VIEW_MAX_NODES_ONE_READ && !lcu_has_loop(body);
}

/* (fu_copy's read hook: is every subscript the thunk's parameter?) */
typedef struct OwnOnly { Sym own; bool ok; } OwnOnly;
static LcuExpr *own_only_read(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp)
{
    OwnOnly *o = c->ctx;
    (void)vec; (void)inrange; (void)sp;
    if (idx->kind != LE_VAR || idx->u.var != o->own) o->ok = false;
    return NULL;
}

/* Does MAP p read every vector at its own index only (no gather), and no
 * segment ids, itself or through the MAPs it reads?  Only such a MAP goes
 * into a predicate: quicksort's flags compare each element with its
 * segment's pivot, read through segids (s), which a MAP finds inside its
 * own kernel (doc/codegen.md) and a FILTER cannot — fused, the segment ids
 * were stored by a launch of their own, 8 bytes an element more and no
 * launch fewer. */
static bool map_reads_own_only(Fu *F, const Node *p)
{
    if (p->segids) return false;
    const LcuThunk *t = p->k->binds[0]->soac->args[0]->u.thunk;
    OwnOnly o = { t->nparams == 1 ? t->params[0] : NULL, t->nparams == 1 };
    Copier cp = { F, NULL, NULL, false, own_only_read, NULL, &o };
    fu_copy(&cp, t->body, NULL);
    return o.ok;
}

/* MAP → any SOAC: the consumer reads the MAP only at its own index over the
 * MAP's size (in a thunk of indices, or in a predicate at the pulled index
 * if the MAP may go there: soac_index_param, map_reads_own_only), or its
 * length; a read elsewhere may be out of range, and only the MAP's own
 * subscript would report it (map_reads without view).  A view may also be
 * read at in-range subscripts (view_inlinable). */
static EdgeKind map_reads(Fu *F, Sizes *S, const Node *p, const Node *c, bool view)
{
    Sym ps[64];
    if (c->k->nparams > 64) return EDGE_PREVENT;
    int n = params_from(p, c, ps);
    const LcuSoac *so = c->k->binds[0]->soac;
    /* a SEG_ SOAC's pull (and SEG_PERMUTE's index thunk) ranges over total (s) */
    bool seg = so->kind >= LS_SEG_PERMUTE;
    int cls = seg ? node_total_class(S, c, soac_size_arg(so)) : node_size_class(S, c, soac_size_arg(so));
    bool same = cls >= 0 && cls == sizes_find(S, sizes_class(S, 1, p->bind->vars[0], 0));
    for (int i = 0; i < so->nargs; i++) {
        const LcuArg *g = so->args[i];
        if (!arg_reads_beyond_len(F, g, n, ps, false)) continue;
        Sym own = same ? soac_index_param(so, i) : NULL;
        if (own && !soac_index_thunk(so, i) && !map_reads_own_only(F, p)) own = NULL;
        if (!view ? !own || !thunk_reads_only_at(F, g->u.thunk, own, n, ps, false) : !reads_at_param_or_inrange(F, g, n, ps, own))
            return EDGE_PREVENT;
    }
    return EDGE_FUSE;
}

/* Does the consumer's kept (a FILTER's or PARTITION's count, lcu.h) read a
 * result of the producer?  The host evaluates it before the launch, so it
 * may read only a kernel's parameters: fused, it would read the producer's
 * result inside the kernel (which the checker rejects). */
static bool kept_reads(Fu *F, const Node *prod, const Node *cons)
{
    const LcuExpr *kept = cons->k->binds[0]->soac->kept;
    if (!kept) return false;
    if (cons->k->nparams > 64) return true;   /* (params_from's limit: assume it does) */
    Sym ps[64];
    int n = params_from(prod, cons, ps);
    for (int i = 0; i < n; i++) if (fu_mentions(F, kept, ps[i])) return true;
    return false;
}

/* Can view MAP p be computed again inside consumer c's kernel (each read
 * at c's own index over p's size, or at an in-range subscript)?  Not an
 * ILP edge: fu_merge.c copies such a view into every reader's kernel. */
bool view_inlinable(Fu *F, Sizes *S, const Node *p, const Node *c)
{
    return p->view && c->kind == NODE_RUN && !kept_reads(F, p, c) && map_reads(F, S, p, c, true) == EDGE_FUSE;
}

/* PARTITION→MAP: the MAP reads one part only, at its own index, over that
 * part's length (fu_rewrite.c, filter_map). */
static bool partition_map_rule(Fu *F, Sizes *S, const Node *prod, const Node *cons)
{
    Sym ps[64];
    if (cons->k->nparams > 64) return false;
    int n = params_from(prod, cons, ps), ne = prod->bind->nvars / 2, part = -1;
    for (int i = 0; i < n; i++) {
        Sym x = node_arg_for(cons, ps[i])->u.var;
        int at = 0;
        while (prod->bind->vars[at] != x) at++;
        if (part >= 0 && part != at / ne) return false;
        part = at / ne;
    }
    const LcuSoac *so = cons->k->binds[0]->soac;
    if (n == 0 || so->args[0]->kind != LA_THUNK || !thunk_reads_only_at_param(F, so->args[0]->u.thunk, n, ps, true)) return false;
    return size_is_len_of(S, cons, soac_size_arg(so), n, ps, prod->bind->vars[part * ne]);
}

static EdgeKind vertical_rule(Fu *F, Sizes *S, const Node *p, const Node *c)
{
    if (p->kind != NODE_RUN || c->kind != NODE_RUN || kept_reads(F, p, c)) return EDGE_PREVENT;
    switch (p->soac) {
    case LS_MAP: return map_reads(F, S, p, c, false);
    case LS_REDUCE: return c->soac == LS_ONCE ? EDGE_FUSE : EDGE_PREVENT;
    case LS_FILTER:
        if (c->soac == LS_REDUCE) return index_space_rule(F, S, p, c, false) ? EDGE_FUSE : EDGE_PREVENT;
        if (c->soac == LS_FILTER) return index_space_rule(F, S, p, c, true) ? EDGE_FUSE : EDGE_PREVENT;
        /* the MAP's elements become the FILTER's (fu_rewrite.c, filter_map),
         * computed for every element: only a MAP that cannot fail */
        if (c->soac == LS_MAP) return !c->may_fail && index_space_rule(F, S, p, c, false) ? EDGE_FUSE : EDGE_PREVENT;
        return EDGE_PREVENT;
    case LS_PERMUTE:
        return c->soac == LS_PERMUTE && index_space_rule(F, S, p, c, false) ? EDGE_FUSE : EDGE_PREVENT;
    case LS_SEG_FILTER:
        if (c->soac == LS_SEG_REDUCE) return seg_filter_rule(F, p, c, false) ? EDGE_FUSE : EDGE_PREVENT;
        if (c->soac == LS_SEG_FILTER) return seg_filter_rule(F, p, c, true) ? EDGE_FUSE : EDGE_PREVENT;
        return EDGE_PREVENT;
    case LS_PARTITION:
        return c->soac == LS_MAP && !c->may_fail && partition_map_rule(F, S, p, c) ? EDGE_FUSE : EDGE_PREVENT;
    case LS_SCAN: case LS_ONCE:
    case LS_SEG_PERMUTE: case LS_SEG_REDUCE: case LS_SEG_SCAN: case LS_SEG_PARTITION:
        return EDGE_PREVENT;
    }
    return EDGE_PREVENT;
}

/* ------------------------------------------------------------------ horizontal rules */

/* One pass over the same index space can compute both: the same SOAC, or a
 * MAP or REDUCE beside a MAP, REDUCE or FILTER (the FILTER's compaction is
 * then one more output of the pass). */
static bool kinds_compatible(LcuSoacKind a, LcuSoacKind b)
{
    if (a == b) return true;
    bool ea = a == LS_MAP || a == LS_REDUCE, eb = b == LS_MAP || b == LS_REDUCE;
    return (ea && (eb || b == LS_FILTER)) || (eb && a == LS_FILTER);
}

int pdg_horizontal(const Region *r, int i, int j)
{
    const Node *a = &r->nodes[i], *b = &r->nodes[j];
    if (a->kind != NODE_RUN || b->kind != NODE_RUN) return -1;
    if (kinds_compatible(a->soac, b->soac) && a->size_class >= 0 && a->size_class == b->size_class) return 0;
    if (a->alt_class >= 0 && kinds_compatible(a->alt_kind, b->soac) && a->alt_class == b->size_class) return 1;
    if (b->alt_class >= 0 && kinds_compatible(a->soac, b->alt_kind) && b->alt_class == a->size_class) return 2;
    if (a->alt_class >= 0 && kinds_compatible(a->alt_kind, b->alt_kind) && a->alt_class == b->alt_class) return 3;
    return -1;
}

/* ------------------------------------------------------------------ the graph */

#define AT(m, i, j) (m)[(size_t)(i) * (size_t)r->n + (size_t)(j)]

/* The places consumer c reads producer p's results at: reads at its own
 * index count once together (the rewrite binds them once, inline_map_arg),
 * every other subscript once each. */
typedef struct ReadCount { int n; const Sym *ps; Sym own; bool at_own; int others; } ReadCount;
static LcuExpr *count_read(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp)
{
    ReadCount *rc = c->ctx;
    (void)inrange; (void)sp;
    if (!in_list(rc->n, rc->ps, vec)) return NULL;
    if (rc->own && idx->kind == LE_VAR && idx->u.var == rc->own) rc->at_own = true;
    else rc->others++;
    return NULL;
}

static int read_sites(Fu *F, const Node *p, const Node *c)
{
    Sym ps[64];
    if (c->kind != NODE_RUN || c->k->nparams > 64) return 1 << 20;
    ReadCount rc = { params_from(p, c, ps), ps, NULL, false, 0 };
    Copier cp = { F, NULL, NULL, false, count_read, NULL, &rc };
    const LcuSoac *so = c->k->binds[0]->soac;
    for (int i = 0; i < so->nargs; i++) {
        const LcuArg *g = so->args[i];
        if (g->kind != LA_THUNK) { fu_copy(&cp, g->u.expr, NULL); continue; }
        rc.own = soac_index_param(so, i);
        fu_copy(&cp, g->u.thunk->body, NULL);
    }
    return rc.others + rc.at_own;
}

/* Does c read a result of p? */
bool reads_node(const Node *c, const Node *p)
{
    for (int q = 0; q < c->reads.len; q++)
        if (in_list(p->bind->nvars, p->bind->vars, c->reads.items[q])) return true;
    return false;
}

/* A view over VIEW_MAX_NODES stays one only where one kernel reads it,
 * at one place (read_sites). */
static void settle_views(Fu *F, Region *r)
{
    for (int v = 0; v < r->n; v++) {
        Node *V = &r->nodes[v];
        if (!V->view || view_body_size(V) <= VIEW_MAX_NODES) continue;
        int readers = 0, sites = 0;
        for (int j = v + 1; j < r->n; j++)
            if (reads_node(&r->nodes[j], V)) {
                readers++;
                sites += read_sites(F, V, &r->nodes[j]);
            }
        V->view = readers == 1 && sites == 1;
    }
}

void pdg_build(Fu *F, Sizes *S, Region *r, LcuExpr *block)
{
    r->block = block;
    int n = r->n = block->u.block.nbinds;
    r->nodes = arena_alloc(F->a, sizeof *r->nodes * (size_t)(n ? n : 1));
    r->edge = arena_alloc(F->a, (size_t)n * (size_t)n + 1);
    r->reach = arena_alloc(F->a, (size_t)n * (size_t)n + 1);
    r->via_cpu = arena_alloc(F->a, (size_t)n * (size_t)n + 1);
    r->exported = arena_alloc(F->a, sizeof(bool) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Node *nd = &r->nodes[i];
        nd->bind = block->u.block.binds[i];
        nd->kind = is_run_node(F, nd->bind, &nd->k) ? NODE_RUN : NODE_CPU;
        nd->effect = nd->kind == NODE_CPU && has_effect(F, nd->bind->rhs);
        nd->size_class = nd->alt_class = nd->alt_pred = -1;
        nd->alt_kind = LS_MAP;
        nd->cluster = -1;
        fu_free_vars_expr(F, nd->bind->rhs, &nd->reads);
        if (nd->kind == NODE_RUN) {
            nd->soac = nd->k->binds[0]->soac->kind;
            nd->size_class = node_size_class(S, nd, soac_size_arg(nd->k->binds[0]->soac));
            nd->may_fail = run_may_fail(S, nd);
            nd->view = map_is_view(nd);
        }
    }
    /* data dependencies: each read goes to the latest earlier definition.
     * On the way, whether a run reads segment ids: a segids (s), or a MAP
     * that does (map_reads_own_only says why it matters); a producer's is
     * known before its readers ask (nodes in order). */
    for (int j = 0; j < n; j++) {
        Node *c = &r->nodes[j];
        for (int v = 0; v < c->reads.len; v++) {
            Sym x = c->reads.items[v];
            const SdAccess *acc = fu_sd_access(F, x);
            if (acc && acc->kind == SD_SEGIDS && c->kind == NODE_RUN) c->segids = true;
            for (int i = j - 1; i >= 0; i--) {
                const Node *p = &r->nodes[i];
                if (!in_list(p->bind->nvars, p->bind->vars, x)) continue;
                if (p->kind == NODE_RUN && p->soac == LS_MAP && p->segids && c->kind == NODE_RUN) c->segids = true;
                if (AT(r->edge, i, j) != EDGE_PREVENT) AT(r->edge, i, j) = (unsigned char)vertical_rule(F, S, p, c);
                break;
            }
        }
    }
    /* effects keep their place: ordered against every other node, except
     * that a kernel before one that cannot fail may run after it (computing
     * it late changes nothing a program can observe).  A kernel after an
     * effect stays after it: a check may guard its size. */
    for (int e = 0; e < n; e++) {
        if (!r->nodes[e].effect) continue;
        for (int i = 0; i < e; i++)
            if (!(r->nodes[i].kind == NODE_RUN && !r->nodes[i].may_fail)) AT(r->edge, i, e) = EDGE_PREVENT;
        for (int j = e + 1; j < n; j++) AT(r->edge, e, j) = EDGE_PREVENT;
    }
    /* results the region's result reads */
    PtrVec res = { 0 };
    fu_free_vars_expr(F, block->u.block.result, &res);
    for (int v = 0; v < res.len; v++)
        for (int i = n - 1; i >= 0; i--)
            if (in_list(r->nodes[i].bind->nvars, r->nodes[i].bind->vars, res.items[v])) { r->exported[i] = true; break; }
    settle_views(F, r);
    /* the size of a consumer once fused with its FILTER/PERMUTE producer */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            if (AT(r->edge, i, j) == EDGE_FUSE && r->nodes[i].soac != LS_MAP && r->nodes[i].soac != LS_REDUCE) {
                r->nodes[j].alt_pred = i;
                r->nodes[j].alt_class = r->nodes[i].size_class;
                /* a MAP fused with its FILTER (PARTITION) is the producer's pass */
                r->nodes[j].alt_kind = r->nodes[j].soac == LS_MAP ? r->nodes[i].soac : r->nodes[j].soac;
            }
    /* reachability (edges go forward), as rows of bits: a region can have
     * thousands of bindings (3816 in one random program, seed 3399 of
     * nesl_gen 2), where byte rows made this and the via_cpu closure below
     * cubic.  An edge i -> j whose j is already reachable adds nothing
     * (reach(j) came with the path to j); the others, i's essential
     * successors, are kept for the via_cpu rows. */
    size_t words = ((size_t)n + 63) / 64;
    uint64_t *reach = arena_alloc(F->a, sizeof *reach * ((size_t)n * words + 1));
    int *ess = arena_alloc(F->a, sizeof *ess * ((size_t)n + 1));
    int *ess_n = r->nsucc = arena_alloc(F->a, sizeof *ess_n * ((size_t)n + 1));
    int **ess_of = r->succ = arena_alloc(F->a, sizeof *ess_of * ((size_t)n + 1));
    for (int i = n - 1; i >= 0; i--) {
        uint64_t *ri = reach + (size_t)i * words;
        int ne = 0;
        for (int j = i + 1; j < n; j++)
            if (AT(r->edge, i, j) && !(ri[j / 64] >> (j % 64) & 1)) {
                const uint64_t *rj = reach + (size_t)j * words;
                ri[j / 64] |= (uint64_t)1 << (j % 64);
                for (size_t w = (size_t)j / 64; w < words; w++) ri[w] |= rj[w];
                ess[ne++] = j;
            }
        ess_of[i] = arena_alloc(F->a, sizeof **ess_of * ((size_t)ne + 1));
        memcpy(ess_of[i], ess, sizeof *ess * (size_t)ne);
        ess_n[i] = ne;
        for (int j = i + 1; j < n; j++) AT(r->reach, i, j) = ri[j / 64] >> (j % 64) & 1;
    }
    /* A MAP whose one reader is a SEG_REDUCE or SEG_SCAN it may fuse into
     * (the lifted sum of an expression: a MAP, then the SEG_REDUCE) is,
     * once fused, part of that SOAC: horizontally it counts as one, so the
     * sums of several expressions over one descriptor tuple (Barnes-Hut's
     * mass and centre of mass, three launches, now one). */
    for (int i = 0; i < n; i++) {
        Node *u = &r->nodes[i];
        if (u->kind != NODE_RUN || u->soac != LS_MAP || u->alt_pred >= 0 || r->exported[i]) continue;
        int reader = -1, readers = 0;
        for (int j = i + 1; j < n; j++)
            for (int v = 0; v < u->bind->nvars; v++)
                if (in_list(r->nodes[j].reads.len, (const Sym *)r->nodes[j].reads.items, u->bind->vars[v])) {
                    reader = j;
                    readers++;
                    break;
                }
        if (readers != 1 || AT(r->edge, i, reader) != EDGE_FUSE) continue;
        const Node *w = &r->nodes[reader];
        if (w->soac != LS_SEG_REDUCE && w->soac != LS_SEG_SCAN) continue;
        u->alt_pred = reader;
        u->alt_class = w->size_class;
        u->alt_kind = w->soac;
    }
    /* nodes with a candidate take part in the ILP */
    for (int i = 0; i < n; i++) {
        if (r->nodes[i].kind != NODE_RUN) continue;
        for (int j = 0; j < n && !r->nodes[i].in_ilp; j++) {
            if (j == i) continue;
            int lo = i < j ? i : j, hi = i < j ? j : i;
            if (AT(r->edge, lo, hi) == EDGE_FUSE) r->nodes[i].in_ilp = true;
            else if (!AT(r->reach, lo, hi) && pdg_horizontal(r, lo, hi) >= 0) r->nodes[i].in_ilp = true;
        }
    }
    /* paths through nodes outside the ILP prevent fusing their ends:
     * via_cpu(i, j) iff some k outside the ILP has i ->+ k ->+ j.  Over i's
     * essential successors e (every other successor is reachable from
     * one): via(i) = union of via(e), and reach(e) when e is outside. */
    uint64_t *via = arena_alloc(F->a, sizeof *via * ((size_t)n * words + 1));
    for (int i = n - 1; i >= 0; i--) {
        uint64_t *vi = via + (size_t)i * words;
        for (int k = 0; k < ess_n[i]; k++) {
            int e = ess_of[i][k];
            const uint64_t *ve = via + (size_t)e * words, *re = reach + (size_t)e * words;
            bool outside = !r->nodes[e].in_ilp;
            for (size_t w = (size_t)e / 64; w < words; w++) vi[w] |= ve[w] | (outside ? re[w] : 0);
        }
        for (int j = i + 1; j < n; j++) AT(r->via_cpu, i, j) = vi[j / 64] >> (j % 64) & 1;
    }
}
