/* lcu_index_maps.c — index MAPs recomputed where they are read (lcu.h,
 * lcu_inline_index_maps).
 *
 * The flattener builds a range [0:n] as `let v = MAP { i => 0 + i * 1 } (n)`
 * and replicates it over a lifted context by in-range gathers `v.[e]`
 * (doc/flattening.md).  Such a vector costs a kernel launch and a store of
 * what any reader can compute from the index alone, and fusion cannot pull
 * it into its readers: they gather it at another index, and often sit in
 * another control region (the branch that runs when the context is not
 * empty).  Mandelbrot's two ranges were two launches ahead of the loop
 * kernel in its timed form.
 *
 * An *index MAP* is a Flan binding `let v : [b] = MAP { i => body } (size)`
 * whose body is small arithmetic of i, literals and CPU scalars (no
 * subscript, no call but div_in, no division: it cannot fail) and whose
 * size is a variable or a literal.  Later in its scope every thunk's
 * in-range read `v.[e]` becomes the body with e for i, and every `#v`
 * (CPU or GPU level) becomes the size.  A binding left unread is dropped.
 * A checked read `v[e]` is kept as it is: only it may report an index out
 * of range.  Names are unique in built programs (lcu_prune.c relies on it
 * too), so a CPU scalar the body reads means the same at the reader; a
 * body that reads i twice is bound to a fresh name by a GPU-level let. */
#include <stdio.h>
#include <string.h>
#include "lcu.h"

enum { INDEX_MAP_MAX_NODES = 16 };

typedef struct IndexMap { Sym v; Sym param; const LcuExpr *body; const LcuExpr *size; } IndexMap;

typedef struct Im {
    Arena *a;
    Interner *in;
    NameSet names;     /* every name of the function: fresh names avoid them */
    PtrVec maps;       /* IndexMap * in scope, truncated at the end of each block */
    int fresh;
} Im;

static const IndexMap *find_map(const Im *M, Sym v)
{
    for (int i = M->maps.len - 1; i >= 0; i--) {
        const IndexMap *m = M->maps.items[i];
        if (m->v == v) return m;
    }
    return NULL;
}

/* Arithmetic that cannot fail and reads no vector. */
static bool index_arith(const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_VAR:
        return true;
    case LE_BINOP:
        return e->u.bin.op != LOP_DIV && e->u.bin.op != LOP_MOD && index_arith(e->u.bin.l) && index_arith(e->u.bin.r);
    case LE_UNOP: return index_arith(e->u.un.e);
    case LE_IF: return index_arith(e->u.if_.cond) && index_arith(e->u.if_.then_e) && index_arith(e->u.if_.else_e);
    case LE_CALL:
        return !strcmp(e->u.call.name, "div_in") && e->u.call.nargs == 2 && index_arith(e->u.call.args[0]) &&
               index_arith(e->u.call.args[1]);
    case LE_UNIT: case LE_TUPLE: case LE_LET: case LE_INDEX: case LE_LEN: case LE_VECLIT: case LE_RUN:
    case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB: case LE_LOOP: case LE_RECUR:
        return false;
    }
    return false;
}

/* The IndexMap a binding makes, or NULL. */
static IndexMap *as_index_map(Arena *a, const LcuBind *b)
{
    if (b->nvars != 1 || b->rhs->kind != LE_SOAC) return NULL;
    const LcuSoac *s = b->rhs->u.soac;
    if (s->kind != LS_MAP || s->nargs != 2 || s->args[0]->kind != LA_THUNK || s->args[1]->kind != LA_EXPR) return NULL;
    const LcuThunk *t = s->args[0]->u.thunk;
    const LcuExpr *size = s->args[1]->u.expr;
    if (t->nparams != 1 || (size->kind != LE_VAR && size->kind != LE_INT)) return NULL;
    if (!index_arith(t->body) || lcu_expr_size(t->body) > INDEX_MAP_MAX_NODES) return NULL;
    IndexMap *m = arena_alloc(a, sizeof *m);
    *m = (IndexMap){ b->vars[0], t->params[0], t->body, size };
    return m;
}

static int count_reads(const LcuExpr *e, Sym x)
{
    switch (e->kind) {
    case LE_VAR: return e->u.var == x;
    case LE_BINOP: return count_reads(e->u.bin.l, x) + count_reads(e->u.bin.r, x);
    case LE_UNOP: return count_reads(e->u.un.e, x);
    case LE_IF: return count_reads(e->u.if_.cond, x) + count_reads(e->u.if_.then_e, x) + count_reads(e->u.if_.else_e, x);
    case LE_CALL: {
        int n = 0;
        for (int i = 0; i < e->u.call.nargs; i++) n += count_reads(e->u.call.args[i], x);
        return n;
    }
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_TUPLE: case LE_LET: case LE_INDEX:
    case LE_LEN: case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB: case LE_LOOP:
    case LE_RECUR:
        return 0;   /* a literal, or a form index_arith does not admit */
    }
    return 0;
}

/* A copy of an index_arith expression with `by` for reads of x. */
static LcuExpr *copy_with(Arena *a, const LcuExpr *e, Sym x, LcuExpr *by)
{
    if (e->kind == LE_VAR && e->u.var == x) return by;
    LcuExpr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    switch (e->kind) {
    case LE_BINOP:
        c->u.bin.l = copy_with(a, e->u.bin.l, x, by);
        c->u.bin.r = copy_with(a, e->u.bin.r, x, by);
        break;
    case LE_UNOP: c->u.un.e = copy_with(a, e->u.un.e, x, by); break;
    case LE_IF:
        c->u.if_.cond = copy_with(a, e->u.if_.cond, x, by);
        c->u.if_.then_e = copy_with(a, e->u.if_.then_e, x, by);
        c->u.if_.else_e = copy_with(a, e->u.if_.else_e, x, by);
        break;
    case LE_CALL:
        c->u.call.args = arena_alloc(a, sizeof *c->u.call.args * (size_t)e->u.call.nargs);
        for (int i = 0; i < e->u.call.nargs; i++) c->u.call.args[i] = copy_with(a, e->u.call.args[i], x, by);
        break;
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_VAR:
        break;   /* a leaf */
    case LE_UNIT: case LE_TUPLE: case LE_LET: case LE_INDEX: case LE_LEN: case LE_VECLIT: case LE_RUN: case LE_BLOCK:
    case LE_STRING: case LE_SOAC: case LE_LIB: case LE_LOOP: case LE_RECUR:
        ICE("copy_with: a form index_arith does not admit");
    }
    return c;
}

static Sym fresh_name(Im *M, Sym base)
{
    char buf[256];
    for (;;) {
        snprintf(buf, sizeof buf, "%.200s_i%d", base, ++M->fresh);
        Sym s = intern_cstr(M->in, buf);
        if (!nameset_has(&M->names, s)) {
            nameset_add(M->a, &M->names, s);
            return s;
        }
    }
}

/* The element of m at index e (already rewritten), as a GPU expression. */
static LcuExpr *element_at(Im *M, const IndexMap *m, LcuExpr *e, Span sp)
{
    bool simple = e->kind == LE_VAR || e->kind == LE_INT;
    if (simple || count_reads(m->body, m->param) <= 1) return copy_with(M->a, m->body, m->param, e);
    Sym x = fresh_name(M, m->param);
    LcuExpr *xv = lcu_e_var(M->a, sp, x);
    xv->type = e->type;
    LcuExpr *body = copy_with(M->a, m->body, m->param, xv);
    Sym *vars = arena_alloc(M->a, sizeof *vars);
    vars[0] = x;
    LcuBind *b = lcu_bind(M->a, sp, 1, vars, NULL, e);
    LcuExpr *let = lcu_e_let(M->a, sp, b, body);
    let->type = body->type;
    return let;
}

static void rewrite(Im *M, LcuExpr **ep, bool gpu);

static void rewrite_list(Im *M, int n, LcuExpr **es, bool gpu)
{
    for (int i = 0; i < n; i++) rewrite(M, &es[i], gpu);
}

static void rewrite_block(Im *M, LcuExpr *blk);

/* In place; gpu: inside a thunk, where `v.[e]` may be recomputed. */
static void rewrite(Im *M, LcuExpr **ep, bool gpu)
{
    LcuExpr *e = *ep;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_STRING: case LE_VAR:
        return;
    case LE_LEN: {
        const IndexMap *m = find_map(M, e->u.len.vec);
        if (m) *ep = copy_with(M->a, m->size, NULL, NULL);
        return;
    }
    case LE_INDEX: {
        rewrite(M, &e->u.index.idx, gpu);
        const IndexMap *m = gpu && e->u.index.inrange ? find_map(M, e->u.index.vec) : NULL;
        if (m) *ep = element_at(M, m, e->u.index.idx, e->span);
        return;
    }
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: rewrite_list(M, e->u.tuple.n, e->u.tuple.elems, gpu); return;
    case LE_LET: case LE_LOOP: rewrite(M, &e->u.let.bind->rhs, gpu); rewrite(M, &e->u.let.body, gpu); return;
    case LE_IF:
        rewrite(M, &e->u.if_.cond, gpu);
        rewrite(M, &e->u.if_.then_e, gpu);
        rewrite(M, &e->u.if_.else_e, gpu);
        return;
    case LE_BINOP: rewrite(M, &e->u.bin.l, gpu); rewrite(M, &e->u.bin.r, gpu); return;
    case LE_UNOP: rewrite(M, &e->u.un.e, gpu); return;
    case LE_RUN: case LE_CALL: rewrite_list(M, e->u.call.nargs, e->u.call.args, gpu); return;
    case LE_LIB: rewrite_list(M, e->u.lib.nargs, e->u.lib.args, gpu); return;
    case LE_SOAC:
        for (int i = 0; i < e->u.soac->nargs; i++) {
            LcuArg *g = e->u.soac->args[i];
            if (g->kind == LA_THUNK) rewrite(M, &g->u.thunk->body, true);
            else rewrite(M, &g->u.expr, gpu);
        }
        if (e->u.soac->kept) rewrite(M, &e->u.soac->kept, gpu);   /* a value argument too */
        return;
    case LE_BLOCK: rewrite_block(M, e); return;
    }
}

static void rewrite_block(Im *M, LcuExpr *blk)
{
    int mark = M->maps.len;
    for (int i = 0; i < blk->u.block.nbinds; i++) {
        LcuBind *b = blk->u.block.binds[i];
        rewrite(M, &b->rhs, false);
        IndexMap *m = as_index_map(M->a, b);
        if (m) ptrvec_push(M->a, &M->maps, m);
    }
    rewrite(M, &blk->u.block.result, false);
    M->maps.len = mark;
}

/* ---- dropping the index MAPs nothing reads any more ---- */
typedef struct Reads { Arena *a; NameSet *set; } Reads;

static void on_name(void *ctx, Sym x, bool free)
{
    Reads *r = ctx;
    if (free) nameset_add(r->a, r->set, x);
}

/* The names some binding's right-hand side or some block's result reads
 * from outside itself, over every block of CPU-level code. */
static void collect_reads(Arena *a, const LcuExpr *e, Reads *r)
{
    if (e->kind == LE_IF) {
        collect_reads(a, e->u.if_.then_e, r);
        collect_reads(a, e->u.if_.else_e, r);
    }
    if (e->kind != LE_BLOCK) return;
    for (int i = 0; i < e->u.block.nbinds; i++) {
        lcu_names_expr(a, e->u.block.binds[i]->rhs, on_name, r);
        collect_reads(a, e->u.block.binds[i]->rhs, r);
    }
    lcu_names_expr(a, e->u.block.result, on_name, r);
    collect_reads(a, e->u.block.result, r);
}

static void drop_unread(Arena *a, LcuExpr *e, const NameSet *read)
{
    if (e->kind == LE_IF) {
        drop_unread(a, e->u.if_.then_e, read);
        drop_unread(a, e->u.if_.else_e, read);
    }
    if (e->kind != LE_BLOCK) return;
    int k = 0;
    for (int i = 0; i < e->u.block.nbinds; i++) {
        LcuBind *b = e->u.block.binds[i];
        if (as_index_map(a, b) && !nameset_has(read, b->vars[0])) continue;
        drop_unread(a, b->rhs, read);
        e->u.block.binds[k++] = b;
    }
    e->u.block.nbinds = k;
}

static void on_any(void *ctx, Sym x, bool free)
{
    Reads *r = ctx;
    (void)free;
    nameset_add(r->a, r->set, x);
}

void lcu_inline_index_maps(Arena *a, Interner *in, LcuProgram *p)
{
    for (int f = 0; f < p->nfuns; f++) {
        LcuFun *fn = p->funs[f];
        Im M = { a, in, { 0 }, { 0 }, 0 };
        Reads all = { a, &M.names };
        for (int i = 0; i < fn->nparams; i++) nameset_add(a, &M.names, fn->params[i].name);
        lcu_names_expr(a, fn->body, on_any, &all);
        rewrite_block(&M, fn->body);
        NameSet read = { 0 };
        Reads r = { a, &read };
        collect_reads(a, fn->body, &r);
        drop_unread(a, fn->body, &read);
    }
}
