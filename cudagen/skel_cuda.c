/* skel_cuda.c — the CUDA skeletons (doc/codegen.md, "The CUDA back end").
 *
 * Each SOAC becomes a functor: a struct whose __device__ methods are its
 * thunks (pull, op, pred, index) and its result stores, and whose fields
 * are the host values those methods read.  The thunk bodies come from the
 * shared generator (gen_thunk) exactly as for the C target; a closure
 * conversion on the target AST then turns every host variable they name
 * into a field of the same name (and every v->data, v->len of a host
 * object into a field holding it), so the bodies need no renaming.  The
 * host code fills a functor and calls the SOAC's template in
 * rt/nesl_cuda.cuh, which launches the kernels. */
#include <string.h>
#include "skel_c.h"

typedef struct Functor {
    Gen *g;
    SoacGen *s;
    CStruct *st;          /* S_N: fields filled by capture() */
    const char *rname;    /* R_N: τ's components c0.. */
    CExpr *var;           /* the host instance, after capture() */
    int skip;             /* a FILTER's positions left to its rank words (SoacGen.pos_dead)
                             and not in R: its index instead, else -1 */
} Functor;

static const char *cat(Gen *g, const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    char *s = arena_alloc(g->a, n + m + 1);
    memcpy(s, a, n);
    memcpy(s + n, b, m + 1);
    return s;
}

static const char *comp_name(Gen *g, int k)
{
    char buf[16];
    snprintf(buf, sizeof buf, "c%d", k);
    return arena_strndup(g->a, buf, strlen(buf));
}

static CStruct *new_struct(Gen *g, const char *name)
{
    CStruct *st = arena_alloc(g->a, sizeof *st);
    memset(st, 0, sizeof *st);
    st->name = name;
    ptrvec_push(g->a, &g->unit->structs, st);
    return st;
}

/* R leaves out the positions where another component remains (an empty
 * R would not stage): the items are a word narrower, more of them a
 * thread (quicksort's three FILTERs: 8 to 16) */
static Functor functor_new(Gen *g, SoacGen *s)
{
    Functor f = { g, s, NULL, NULL, NULL, s->pos_dead && s->n > 1 && s->pos_comp < s->n ? s->pos_comp : -1 };
    CStruct *r = new_struct(g, gen_fresh(g, "R"));
    r->types = arena_alloc(g->a, sizeof *r->types * (size_t)s->n);
    r->fields = arena_alloc(g->a, sizeof *r->fields * (size_t)s->n);
    for (int k = 0; k < s->n; k++) {
        if (k == f.skip) continue;
        r->types[r->n] = gen_base_ctype(g, s->tau[k]);
        r->fields[r->n++] = comp_name(g, k);
    }
    f.rname = r->name;
    f.st = new_struct(g, gen_fresh(g, "S"));
    return f;
}

/* A const __device__ method; params alternate type, name. */
static CBlock *method(Functor *f, const char *ret, const char *name, int np, ...)
{
    Gen *g = f->g;
    CFunc *m = arena_alloc(g->a, sizeof *m);
    memset(m, 0, sizeof *m);
    m->attr = "__device__";
    m->post = " const";
    m->ret = ret;
    m->name = name;
    m->nparams = np;
    m->params = arena_alloc(g->a, sizeof *m->params * (size_t)(np ? np : 1));
    va_list ap;
    va_start(ap, np);
    for (int i = 0; i < np; i++) {
        m->params[i].type = va_arg(ap, const char *);
        m->params[i].name = va_arg(ap, const char *);
    }
    va_end(ap);
    m->body = cb_new(g->a);
    ptrvec_push(g->a, &f->st->methods, m);
    return m->body;
}

typedef struct Capture { CExpr **res; } Capture;

static void k_capture(Gen *g, void *ctx, CBlock *blk, int n, CExpr **res)
{
    (void)blk;
    Capture *c = ctx;
    c->res = arena_alloc(g->a, sizeof *res * (size_t)n);
    memcpy(c->res, res, sizeof *res * (size_t)n);
}

static CExpr **apply(Functor *f, const ThunkGen *t, CBlock *blk, int n, CExpr **args, const LcuBase *bases, const GenRange *range0)
{
    Arena *a = f->g->a;
    ErrCtx ec = { cx_name(a, "derr"), cx_name(a, "it"), false, false };
    Capture cap = { NULL };
    Cont k = { k_capture, &cap };
    gen_thunk(f->g, t, n, args, bases, range0, &ec, &k, blk);
    return cap.res;
}

/* R r; r.ck = res[k]; return r; */
static void return_r(Functor *f, CBlock *blk, CExpr **res)
{
    Arena *a = f->g->a;
    cs_decl(a, blk, f->rname, "r", NULL);
    for (int k = 0; k < f->s->n; k++)
        if (k != f->skip) cs_assign(a, blk, cx_member(a, cx_name(a, "r"), comp_name(f->g, k)), res[k]);
    cs_return(a, blk, cx_name(a, "r"));
}

static const char *cref(Functor *f) { return cat(f->g, cat(f->g, "const ", f->rname), " &"); }

/* R pull(int64_t it, NeslDErr *derr): the pull thunk at it (ONCE: at ());
 * R pull(int64_t it, int32_t sg, NeslDErr *derr) where the thunk reads
 * segment ids at its index (gen_kernel_ids): sg is element it's. */
static void m_pull_at(Functor *f, bool once, bool seg)
{
    Arena *a = f->g->a;
    CBlock *b = seg ? method(f, f->rname, "pull", 3, "int64_t", "it", "int32_t", "sg", "NeslDErr *", "derr")
                    : method(f, f->rname, "pull", 2, "int64_t", "it", "NeslDErr *", "derr");
    CExpr *arg = once ? cx_int(a, 0) : cx_cast(a, "int32_t", cx_name(a, "it"));
    LcuBase base = once ? LB_UNIT : LB_INT;
    cs_expr(a, b, cx_cast(a, "void", cx_name(a, "it")));
    return_r(f, b, apply(f, &f->s->pull, b, 1, &arg, &base, once ? NULL : f->s->range));
}

static void m_pull(Functor *f, bool once) { m_pull_at(f, once, false); }

/* R op(const R &a, const R &b, int64_t it, NeslDErr *derr) */
static void m_op(Functor *f)
{
    Gen *g = f->g;
    SoacGen *s = f->s;
    int n = s->n;
    CBlock *b = method(f, f->rname, "op", 4, cref(f), "a", cref(f), "b", "int64_t", "it", "NeslDErr *", "derr");
    cs_expr(g->a, b, cx_cast(g->a, "void", cx_name(g->a, "it")));
    CExpr *args[2 * n];
    LcuBase bases[2 * n];
    for (int k = 0; k < n; k++) {
        args[k] = cx_member(g->a, cx_name(g->a, "a"), comp_name(g, k));
        args[n + k] = cx_member(g->a, cx_name(g->a, "b"), comp_name(g, k));
        bases[k] = bases[n + k] = s->tau[k];
    }
    return_r(f, b, apply(f, &s->aux, b, 2 * n, args, bases, NULL));
}

/* bool NAME(const R &x, int64_t it, NeslDErr *derr): s's predicate */
static void m_pred_of(Functor *f, SoacGen *s, const char *name)
{
    Gen *g = f->g;
    CBlock *b = method(f, "bool", name, 3, cref(f), "x", "int64_t", "it", "NeslDErr *", "derr");
    cs_expr(g->a, b, cx_cast(g->a, "void", cx_name(g->a, "it")));
    CExpr *args[s->n];
    for (int k = 0; k < s->n; k++)
        args[k] = k == f->skip ? cx_cast(g->a, "int32_t", cx_name(g->a, "it")) : cx_member(g->a, cx_name(g->a, "x"), comp_name(g, k));
    cs_return(g->a, b, apply(f, &s->aux, b, s->n, args, s->tau, s->pred_range)[0]);
}

/* bool pred(const R &x, int64_t it, NeslDErr *derr) */
static void m_pred(Functor *f) { m_pred_of(f, f->s, "pred"); }

/* bool pred(const R &x, int64_t it, NeslDErr *derr) for a FILTER whose
 * flag component is dropped (SoacGen.flag_dead): the pull's component
 * flag at it.  Inlined right after pull(it) in the skeleton's load, so
 * the compiler shares the loads of the two. */
static void m_pred_from_pull(Functor *f, int flag)
{
    Arena *a = f->g->a;
    CBlock *b = method(f, "bool", "pred", 3, cref(f), "x", "int64_t", "it", "NeslDErr *", "derr");
    cs_expr(a, b, cx_cast(a, "void", cx_name(a, "x")));
    CExpr *arg = cx_cast(a, "int32_t", cx_name(a, "it"));
    LcuBase base = LB_INT;
    cs_return(a, b, apply(f, &f->s->pull, b, 1, &arg, &base, f->s->range)[flag]);
}

/* int32_t index(int64_t it, NeslDErr *derr) */
static void m_index(Functor *f)
{
    Arena *a = f->g->a;
    CBlock *b = method(f, "int32_t", "index", 2, "int64_t", "it", "NeslDErr *", "derr");
    CExpr *arg = cx_cast(a, "int32_t", cx_name(a, "it"));
    LcuBase base = LB_INT;
    cs_return(a, b, apply(f, &f->s->aux, b, 1, &arg, &base, f->s->range)[0]);
}

/* void NAME(int64_t i, const R &r): dst[k][i] = r.ck, but for positions
 * left to the rank words */
static void m_store(Functor *f, const char *name, CExpr **dst)
{
    Gen *g = f->g;
    CBlock *b = method(f, "void", name, 2, "int64_t", "i", cref(f), "r");
    if (f->s->pos_dead) cs_expr(g->a, b, cx_cast(g->a, "void", cx_name(g->a, "r")));
    for (int k = 0; k < f->s->n; k++)
        if (!(f->s->pos_dead && k == f->s->pos_comp)) cs_assign(g->a, b, cx_index(g->a, dst[k], cx_name(g->a, "i")), cx_member(g->a, cx_name(g->a, "r"), comp_name(g, k)));
}

/* ---- closure conversion: host variables named in the methods become
 * fields (same name); v->field of a host object becomes a fresh field ---- */
typedef struct HostVar { const char *name, *type; } HostVar;
typedef struct Conv {
    Functor *f;
    PtrVec host;          /* HostVar *: the kernel's parameters and declarations */
    PtrVec names, types;  /* fields so far */
    PtrVec inits;         /* CExpr *: their host values */
} Conv;

static void host_decls(Gen *g, PtrVec *out, const CBlock *b)
{
    for (int i = 0; i < b->n; i++) {
        const CStmt *st = b->stmts[i];
        switch (st->kind) {
        case CS_DECL: {
            HostVar *h = arena_alloc(g->a, sizeof *h);
            h->name = st->u.decl.name;
            h->type = st->u.decl.type;
            ptrvec_push(g->a, out, h);
            break;
        }
        case CS_IF:
            host_decls(g, out, st->u.if_.then_b);
            if (st->u.if_.else_b) host_decls(g, out, st->u.if_.else_b);
            break;
        case CS_FOR: host_decls(g, out, st->u.for_.body); break;
        case CS_BLOCK: case CS_LOOP: host_decls(g, out, st->u.block); break;
        case CS_ASSIGN: case CS_EXPR: case CS_PRAGMA: case CS_RETURN: case CS_COMMENT: case CS_JUMP: break;
        }
    }
}

static const HostVar *host_var(const Conv *c, const char *name)
{
    for (int i = 0; i < c->host.len; i++) {
        const HostVar *h = c->host.items[i];
        if (!strcmp(h->name, name)) return h;
    }
    return NULL;
}

static const char *add_field(Conv *c, const char *name, const char *type, CExpr *init)
{
    for (int i = 0; i < c->names.len; i++)
        if (!strcmp(c->names.items[i], name)) return name;
    Arena *a = c->f->g->a;
    ptrvec_push(a, &c->names, (void *)name);
    ptrvec_push(a, &c->types, (void *)type);
    ptrvec_push(a, &c->inits, init);
    return name;
}

static const char *arrow_type(const char *field)
{
    if (!strcmp(field, "data")) return "void *";
    if (!strcmp(field, "len") || !strcmp(field, "nsegs")) return "int64_t";
    if (!strcmp(field, "lens")) return "int32_t *";
    ICE("device code reads host field '%s'", field);
}

static void conv_expr(Conv *c, CExpr *e)
{
    Gen *g = c->f->g;
    switch (e->kind) {
    case CX_INT: case CX_FLOAT: case CX_STR: case CX_SIZEOF: return;
    case CX_NAME: {
        const HostVar *h = host_var(c, e->u.name);
        if (h) add_field(c, h->name, h->type, cx_name(g->a, h->name));
        return;
    }
    case CX_BIN: conv_expr(c, e->u.bin.l); conv_expr(c, e->u.bin.r); return;
    case CX_UN: conv_expr(c, e->u.un.e); return;
    case CX_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) conv_expr(c, e->u.call.args[i]);
        return;
    case CX_INDEX: conv_expr(c, e->u.index.a); conv_expr(c, e->u.index.i); return;
    case CX_ARROW: {
        CExpr *p = e->u.member.e;
        if (p->kind == CX_NAME && host_var(c, p->u.name)) {
            /* the arrow nodes of device code are its own (gen_expr makes them fresh) */
            char buf[160];
            snprintf(buf, sizeof buf, "%s_%s", p->u.name, e->u.member.field);
            const char *fname = NULL;
            for (int i = 0; i < c->names.len && !fname; i++)
                if (!strcmp(c->names.items[i], buf)) fname = c->names.items[i];
            if (!fname) fname = add_field(c, arena_strndup(g->a, buf, strlen(buf)), arrow_type(e->u.member.field),
                                          cx_arrow(g->a, cx_name(g->a, p->u.name), e->u.member.field));
            e->kind = CX_NAME;
            e->u.name = fname;
            return;
        }
        conv_expr(c, p);
        return;
    }
    case CX_MEMBER: conv_expr(c, e->u.member.e); return;
    case CX_COND: conv_expr(c, e->u.cond.c); conv_expr(c, e->u.cond.t); conv_expr(c, e->u.cond.e); return;
    case CX_CAST: conv_expr(c, e->u.cast.e); return;
    }
}

static void conv_block(Conv *c, CBlock *b)
{
    for (int i = 0; i < b->n; i++) {
        CStmt *st = b->stmts[i];
        switch (st->kind) {
        case CS_DECL: if (st->u.decl.init) conv_expr(c, st->u.decl.init); break;
        case CS_ASSIGN: conv_expr(c, st->u.assign.lhs); conv_expr(c, st->u.assign.rhs); break;
        case CS_EXPR: conv_expr(c, st->u.expr); break;
        case CS_RETURN: if (st->u.expr) conv_expr(c, st->u.expr); break;
        case CS_IF:
            conv_expr(c, st->u.if_.c);
            conv_block(c, st->u.if_.then_b);
            if (st->u.if_.else_b) conv_block(c, st->u.if_.else_b);
            break;
        case CS_FOR: conv_expr(c, st->u.for_.lo); conv_expr(c, st->u.for_.hi); conv_block(c, st->u.for_.body); break;
        case CS_BLOCK: case CS_LOOP: conv_block(c, st->u.block); break;
        case CS_PRAGMA: case CS_COMMENT: case CS_JUMP: break;
        }
    }
}

/* Turn the functor's free host names into fields; declare and fill the
 * host instance in s->blk. */
static CExpr *capture(Functor *f)
{
    Gen *g = f->g;
    Arena *a = g->a;
    Conv c;
    memset(&c, 0, sizeof c);
    c.f = f;
    for (int i = 0; g->func && i < g->func->nparams; i++) {
        HostVar *h = arena_alloc(a, sizeof *h);
        h->name = g->func->params[i].name;
        h->type = g->func->params[i].type;
        ptrvec_push(a, &c.host, h);
    }
    if (g->func) host_decls(g, &c.host, g->func->body);
    for (int i = 0; i < f->st->methods.len; i++) conv_block(&c, ((CFunc *)f->st->methods.items[i])->body);
    CStruct *st = f->st;
    st->n = c.names.len;
    st->types = arena_alloc(a, sizeof *st->types * (size_t)(st->n + 1));
    st->fields = arena_alloc(a, sizeof *st->fields * (size_t)(st->n + 1));
    const char *v = gen_fresh(g, "s");
    cs_decl(a, f->s->blk, st->name, v, NULL);
    f->var = cx_name(a, v);
    for (int i = 0; i < st->n; i++) {
        st->types[i] = c.types.items[i];
        st->fields[i] = c.names.items[i];
        cs_assign(a, f->s->blk, cx_member(a, f->var, st->fields[i]), c.inits.items[i]);
    }
    return f->var;
}

/* ---- operators the parallel folds may regroup ----
 * The parallel REDUCE, SCAN and SEG_ skeletons use associativity (never
 * commutativity).  NESL requires associative operators, but λcu does not
 * check it, and the interpreter folds left to right; an operator is
 * regrouped only when each result component k is recognizably an
 * associative function of a_k and b_k alone (+, *, max, min, and, or,
 * bitwise and/or/xor, a conditional max/min, the first or the last
 * argument) — a product of associative operations is associative.  Any
 * other operator runs sequentially (its results are the interpreter's). */
static bool is_var(const LcuExpr *e, Sym x) { return e->kind == LE_VAR && e->u.var == x; }

static bool pair_of(const LcuExpr *l, const LcuExpr *r, Sym a, Sym b)
{
    return (is_var(l, a) && is_var(r, b)) || (is_var(l, b) && is_var(r, a));
}

static bool assoc_comp(const LcuExpr *e, Sym a, Sym b, bool commutative)
{
    switch (e->kind) {
    case LE_VAR: return !commutative && (e->u.var == a || e->u.var == b);   /* first or last: order matters */
    case LE_BINOP:
        switch (e->u.bin.op) {
        case LOP_ADD: case LOP_MUL: case LOP_AND: case LOP_OR: return pair_of(e->u.bin.l, e->u.bin.r, a, b);
        default: return false;
        }
    case LE_CALL: {
        const char *f = e->u.call.name;
        if (e->u.call.nargs != 2) return false;
        if (strcmp(f, "max") && strcmp(f, "min") && strcmp(f, "band") && strcmp(f, "bor") && strcmp(f, "bxor")) return false;
        return pair_of(e->u.call.args[0], e->u.call.args[1], a, b);
    }
    case LE_IF: {   /* if a > b then a else b, and the like */
        const LcuExpr *c = e->u.if_.cond;
        if (c->kind != LE_BINOP || !pair_of(c->u.bin.l, c->u.bin.r, a, b)) return false;
        switch (c->u.bin.op) {
        case LOP_LT: case LOP_LE: case LOP_GT: case LOP_GE: break;
        default: return false;
        }
        return pair_of(e->u.if_.then_e, e->u.if_.else_e, a, b);
    }
    default: return false;
    }
}

/* Each component associative (and, if asked, commutative too: every
 * recognized operator but "the first or the last argument"). */
static bool assoc_op(const SoacGen *s, bool commutative)
{
    const LcuThunk *t = s->aux.thunk;
    int n = s->n;
    if (t->nparams != 2 * n) return false;
    const LcuExpr *body = t->body;
    if (n == 1) return assoc_comp(body, t->params[0], t->params[1], commutative);
    if (body->kind != LE_TUPLE || body->u.tuple.n != n) return false;
    for (int k = 0; k < n; k++)
        if (!assoc_comp(body->u.tuple.elems[k], t->params[k], t->params[n + k], commutative)) return false;
    return true;
}

/* How the fold runs (rt/nesl_cuda.cuh): sequentially for an operator that
 * can fail (its errors depend on the intermediate values) or that is not
 * known to be associative; in parallel with a grouping fixed by the size
 * when τ has a float (float operators are associative only up to
 * rounding, so a timing-dependent grouping would change results run to
 * run); else in parallel with any grouping (exact), and in any order
 * when the operator is also commutative (REDUCE then loads striped). */
static const char *fold_mode(const SoacGen *s)
{
    if (s->aux.may_fail || !assoc_op(s, false)) return "NESL_SEQ";
    for (int k = 0; k < s->n; k++)
        if (s->tau[k] == LB_FLOAT) return "NESL_FIXED";
    return assoc_op(s, true) ? "NESL_COMM" : "NESL_PAR";
}

/* REDUCE's mode: a float fold whose operator is also commutative loads
 * its tiles striped, with a grouping still fixed by the size. */
static const char *reduce_mode(const SoacGen *s)
{
    const char *m = fold_mode(s);
    return !strcmp(m, "NESL_FIXED") && assoc_op(s, true) ? "NESL_FIXED_COMM" : m;
}

/* The fold template instantiated for its mode alone (compile time). */
static const char *fold_fn(Gen *g, const SoacGen *s, const char *name)
{
    const char *mode = !strcmp(name, "nesl_cu_reduce") ? reduce_mode(s) : fold_mode(s);
    return cat(g, cat(g, cat(g, name, "<"), mode), ">");
}

/* ---- host side helpers ---- */
static CExpr *rt_call(Gen *g, SoacGen *s, const char *fn, int n, ...)
{
    CExpr *args[8];
    args[0] = s->rt;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) args[1 + i] = va_arg(ap, CExpr *);
    va_end(ap);
    return cx_call(g->a, fn, 1 + n, args);
}

static void raise_if(Gen *g, SoacGen *s, bool may_fail)
{
    if (may_fail) cs_expr(g->a, s->blk, rt_call(g, s, "nesl_cu_raise", 0));
}

static CExpr *bool_lit(Gen *g, bool b) { return cx_name(g->a, b ? "true" : "false"); }

/* R id; id.ck = ident[k] */
static CExpr *ident_r(Functor *f)
{
    Gen *g = f->g;
    CExpr *v = sk_var(g, f->s->blk, f->rname, "idr", NULL);
    for (int k = 0; k < f->s->n; k++) cs_assign(g->a, f->s->blk, cx_member(g->a, v, comp_name(g, k)), f->s->ident[k]);
    return v;
}

/* A host R result: its components as scalar values. */
static void scalar_outs(Functor *f, CExpr *r)
{
    Gen *g = f->g;
    for (int k = 0; k < f->s->n; k++) {
        CExpr *v = sk_var(g, f->s->blk, gen_base_ctype(g, f->s->tau[k]), "o", cx_member(g->a, r, comp_name(g, k)));
        f->s->out[k] = cval_new(g, lcu_t_base(g->a, f->s->tau[k]), 1, &v);
    }
}

/* ---- the SOACs ---- */
/* A MAP thunk of more nodes than this, or one that loops, runs one
 * element per thread (nesl_cu_map_each): Black-Scholes's has about 200, a
 * memory-bound gather or arithmetic MAP a few dozen at most.  H100,
 * Black-Scholes 10^7 by ncu: 80.4 us a launch, against 87.6 with one
 * element a thread in an occupancy-sized grid's stride loop. */
#define MAP_HEAVY_NODES 100

/* The row length l of a grid the MAP of param runs over, when its body
 * reads the row `div_in (param, l)` of a CPU-level l (a uniform
 * descriptor's segment ids, doc/flattening.md), else NULL. */
static const LcuExpr *grid_row_length(const LcuExpr *e, Sym param)
{
    const LcuExpr *r = NULL;
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN: case LE_STRING:
        return NULL;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n && !r; i++) r = grid_row_length(e->u.tuple.elems[i], param);
        return r;
    case LE_LET: case LE_LOOP:
        r = grid_row_length(e->u.let.bind->rhs, param);
        return r ? r : grid_row_length(e->u.let.body, param);
    case LE_IF:
        r = grid_row_length(e->u.if_.cond, param);
        if (!r) r = grid_row_length(e->u.if_.then_e, param);
        return r ? r : grid_row_length(e->u.if_.else_e, param);
    case LE_BINOP:
        r = grid_row_length(e->u.bin.l, param);
        return r ? r : grid_row_length(e->u.bin.r, param);
    case LE_UNOP: return grid_row_length(e->u.un.e, param);
    case LE_INDEX: return grid_row_length(e->u.index.idx, param);
    case LE_CALL:
        if (!strcmp(e->u.call.name, "div_in") && e->u.call.nargs == 2 && is_var(e->u.call.args[0], param) &&
            e->u.call.args[1]->kind == LE_VAR)
            return e->u.call.args[1];
        for (int i = 0; i < e->u.call.nargs && !r; i++) r = grid_row_length(e->u.call.args[i], param);
        return r;
    case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return NULL;
    }
    return NULL;
}

static void cu_map(Gen *g, SoacGen *s)
{
    CExpr *d[s->n];
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_store(&f, "store", d);
    const LcuThunk *t = s->soac->args[0]->kind == LA_THUNK ? s->soac->args[0]->u.thunk : NULL;
    const LcuExpr *body = t ? t->body : NULL;
    const LcuExpr *row = body && lcu_has_loop(body) ? grid_row_length(body, t->params[0]) : NULL;
    const CVal *l = row ? cenv_find(s->pull.env, row->u.var) : NULL;
    if (l && l->n == 1)
        cs_expr(g->a, s->blk, cx_calln(g->a, "nesl_cu_map_tiled", 4, s->rt, capture(&f), s->size, l->comps[0]));
    else {
        const char *launch = body && (lcu_has_loop(body) || lcu_expr_size(body) > MAP_HEAVY_NODES) ? "nesl_cu_map_each" : "nesl_cu_map";
        cs_expr(g->a, s->blk, cx_calln(g->a, launch, 3, s->rt, capture(&f), s->size));
    }
    raise_if(g, s, s->pull.may_fail);
}

/* int32_t len(int64_t it, NeslDErr *derr): element it, stored, and its
 * component c, a segment length (nesl_cu_map_sd). */
static void m_len(Functor *f, int c)
{
    Gen *g = f->g;
    Arena *a = g->a;
    CBlock *b = method(f, "int32_t", "len", 2, "int64_t", "it", "NeslDErr *", "derr");
    cs_decl(a, b, f->rname, "r", cx_calln(a, "pull", 2, cx_name(a, "it"), cx_name(a, "derr")));
    cs_expr(a, b, cx_calln(a, "store", 2, cx_name(a, "it"), cx_name(a, "r")));
    cs_return(a, b, cx_member(a, cx_name(a, "r"), comp_name(g, c)));
}

/* make_sd of a MAP's result c (gen_kernel_sd): the descriptor's scan pulls
 * the lengths from the MAP's functor, which stores every result. */
static CExpr *cu_map_sd(Gen *g, SoacGen *s, int c, CExpr *total)
{
    CExpr *d[s->n];
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_store(&f, "store", d);
    m_len(&f, c);
    return sk_var(g, s->blk, "NeslSd *", "sd", cx_calln(g->a, "nesl_cu_map_sd", 4, s->rt, capture(&f), s->out[c]->comps[0], total));
}

/* A MAP reading the segment ids of sd at its index (gen_kernel_ids). */
static void cu_map_seg(Gen *g, SoacGen *s, CExpr *sd)
{
    CExpr *d[s->n];
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull_at(&f, false, true);
    m_store(&f, "store", d);
    cs_expr(g->a, s->blk, cx_calln(g->a, "nesl_cu_map_seg", 4, s->rt, capture(&f), s->size, sd));
    raise_if(g, s, s->pull.may_fail);
}

static void cu_once(Gen *g, SoacGen *s)
{
    Functor f = functor_new(g, s);
    m_pull(&f, true);
    CExpr *r = sk_var(g, s->blk, f.rname, "once", cx_calln(g->a, "nesl_cu_once", 2, s->rt, capture(&f)));
    raise_if(g, s, s->pull.may_fail);
    scalar_outs(&f, r);
}

static void cu_reduce(Gen *g, SoacGen *s)
{
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_op(&f);
    CExpr *fv = capture(&f), *id = ident_r(&f);
    CExpr *r = sk_var(g, s->blk, f.rname, "red",
                      cx_calln(g->a, fold_fn(g, s, "nesl_cu_reduce"), 4, s->rt, fv, s->size, id));
    raise_if(g, s, s->pull.may_fail || s->aux.may_fail);
    scalar_outs(&f, r);
}

/* MAP and REDUCE over one size in one launch: the REDUCE's functor wrapped
 * so that pulling element i also stores the MAP's element i (nesl_map_and;
 * a parallel REDUCE pulls every index once; one kernel instantiated where
 * there were two).  Not for a sequential fold, nor
 * where both may fail (one record would then order their errors by
 * iteration instead of MAP first). */
static bool cu_map_reduce(Gen *g, SoacGen *m, SoacGen *r)
{
    bool m_fails = m->pull.may_fail, r_fails = r->pull.may_fail || r->aux.may_fail;
    if (!strcmp(reduce_mode(r), "NESL_SEQ") || (m_fails && r_fails)) return false;
    CExpr *d[m->n];
    for (int k = 0; k < m->n; k++) m->out[k] = sk_out_vec(g, m, m->tau[k], m->size, false, &d[k]);
    Functor fm = functor_new(g, m);
    m_pull(&fm, false);
    m_store(&fm, "store", d);
    CExpr *mv = capture(&fm);
    Functor fr = functor_new(g, r);
    m_pull(&fr, false);
    m_op(&fr);
    CExpr *fv = capture(&fr), *id = ident_r(&fr);
    CExpr *both = cx_calln(g->a, "nesl_map_and", 2, mv, fv);
    CExpr *res = sk_var(g, r->blk, fr.rname, "red",
                        cx_calln(g->a, fold_fn(g, r, "nesl_cu_reduce"), 4, r->rt, both, r->size, id));
    raise_if(g, r, m_fails || r_fails);
    scalar_outs(&fr, res);
    return true;
}

static void cu_scan(Gen *g, SoacGen *s)
{
    CExpr *d[s->n];
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_op(&f);
    m_store(&f, "store", d);
    CExpr *fv = capture(&f), *id = ident_r(&f);
    cs_expr(g->a, s->blk, cx_calln(g->a, fold_fn(g, s, "nesl_cu_scan"), 4, s->rt, fv, s->size, id));
    raise_if(g, s, s->pull.may_fail || s->aux.may_fail);
}

/* An output vector allocated for cap elements whose length becomes len
 * (a host variable assigned later). */
static const CVal *out_vec_len(Gen *g, SoacGen *s, LcuBase b, CExpr *cap, CExpr *len, CExpr **data, CExpr **vec)
{
    const CVal *v = sk_out_vec(g, s, b, cap, false, data);
    CVal *r = cval_new(g, v->type, 1, v->comps);
    r->data = v->data;
    r->len = len;
    *vec = v->comps[0];
    return r;
}

/* The rank words of FILTER s's kept positions (SoacGen.pos_comp; vt:
 * its output vectors; n of them stored) for filter_sd, as a host
 * variable; NULL where none. */
static CExpr *rank_words(Gen *g, SoacGen *s, int n, CExpr *const *vt)
{
    if (s->pos_comp < 0 || s->pos_comp >= n) return NULL;
    const char *fn = s->pos_dead ? "nesl_cu_kept_rank_only" : "nesl_cu_kept_rank";
    return sk_var(g, s->blk, "uint64_t *", "rank", cx_calln(g->a, fn, 3, s->rt, vt[s->pos_comp], s->size));
}

static void cu_filter(Gen *g, SoacGen *s, bool part, bool seg)
{
    Arena *a = g->a;
    CBlock *blk = s->blk;
    bool drop = s->flag_dead && !part && !seg;   /* the flag: recomputed by pred, not stored */
    int n = drop ? s->n - 1 : s->n;
    CExpr *kept = sk_var(g, blk, "int64_t", "kept", cx_int(a, 0));
    CExpr *nf = part ? sk_var(g, blk, "int64_t", "nf", cx_int(a, 0)) : NULL;
    CExpr *dt[n], *df[n], *vt[n], *vf[n];
    for (int k = 0; k < n; k++) s->out[k] = out_vec_len(g, s, s->tau[k], s->size, kept, &dt[k], &vt[k]);
    if (part)
        for (int k = 0; k < n; k++) s->out[n + seg + k] = out_vec_len(g, s, s->tau[k], s->size, nf, &df[k], &vf[k]);
    CExpr *pre = cx_name(a, "NULL");
    if (seg)
        pre = sk_var(g, blk, "int32_t *", "pre",
                     cx_cast(a, "int32_t *", rt_call(g, s, "nesl_cu_tmp", 2,
                                                     cx_bin(a, CB_MUL, cx_sizeof(a, "int32_t"), cx_cast(a, "size_t", cx_bin(a, CB_ADD, s->size, cx_int(a, 1)))),
                                                     bool_lit(g, false))));
    int all = s->n;
    s->n = n;   /* the functor's R: the stored components */
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    if (drop) m_pred_from_pull(&f, n);
    else m_pred(&f);
    m_store(&f, "store", dt);
    if (part) m_store(&f, "store_f", df);
    s->n = all;
    if (drop) {   /* nothing reads it: an empty vector */
        CExpr *d;
        s->out[n] = sk_out_vec(g, s, s->tau[n], cx_int(a, 0), false, &d);
    }
    if (s->pred_range)   /* clamp_pred: the error recorded in the record the launch takes */
        cs_expr(a, blk, gen_clamp_check(g, s->pred_range, s->rt, s->size));
    static const char *const fn[2][2] = { { "nesl_cu_filter<false>", "nesl_cu_filter<false, true>" },
                                          { "nesl_cu_filter<true>", "nesl_cu_filter<true, true>" } };
    CExpr *rank = part || seg ? NULL : rank_words(g, s, n, vt);
    /* the count given (LcuSoac.kept): no wait, the lengths set from it at
     * once, the count checked at the next wait (nesl_cu_filter_kept); in a
     * group (g->counts_later), the count is read after the group's last
     * launch, and the lengths set then */
    CBlock *after = blk;
    if (s->kept && !seg) {
        cs_assign(a, blk, kept, s->kept);
        CExpr *args[5] = { s->rt, capture(&f), s->size, s->kept, rank };
        cs_expr(a, blk, cx_call(a, part ? "nesl_cu_filter_kept<true>" : "nesl_cu_filter_kept<false>", rank ? 5 : 4, args));
    } else if (g->counts_later && !seg) {
        CExpr *args[4] = { s->rt, capture(&f), s->size, rank };
        CExpr *c = sk_var(g, blk, "NeslCount", "cnt", cx_call(a, part ? "nesl_cu_filter_later<true>" : "nesl_cu_filter_later<false>", rank ? 4 : 3, args));
        after = g->counts_later;
        cs_assign(a, after, kept, cx_calln(a, "nesl_cu_count", 3, s->rt, c,
                                           cx_str(a, part ? "a PARTITION count" : "a FILTER count", part ? 17 : 14)));
    } else {
        CExpr *args[5] = { s->rt, capture(&f), s->size, pre, rank };
        cs_assign(a, blk, kept, cx_call(a, fn[part][seg], rank ? 5 : 4, args));
    }
    raise_if(g, s, s->pull.may_fail || s->aux.may_fail);
    for (int k = 0; k < n; k++) cs_assign(a, after, cx_arrow(a, vt[k], "len"), kept);
    if (part) {
        cs_assign(a, after, nf, cx_bin(a, CB_SUB, s->size, kept));
        for (int k = 0; k < n; k++) cs_assign(a, after, cx_arrow(a, vf[k], "len"), nf);
    }
    if (!seg) return;
    CExpr *sd = s->sd->comps[0];
    CExpr *ns = sk_var(g, blk, "int64_t", "ns", cx_arrow(a, sd, "nsegs"));
    CExpr *st = sk_var(g, blk, "NeslSd *", "sdt", rt_call(g, s, "nesl_sd_new", 1, ns));
    CExpr *sf = part ? sk_var(g, blk, "NeslSd *", "sdf", rt_call(g, s, "nesl_sd_new", 1, ns)) : NULL;
    CExpr *off = rt_call(g, s, "nesl_sd_offs", 1, sd);
    cs_expr(a, blk, rt_call(g, s, "nesl_cu_seg_lens", 5, pre, cx_cast(a, "const int64_t *", off), ns, cx_arrow(a, st, "lens"),
                            part ? cx_arrow(a, sf, "lens") : cx_name(a, "NULL")));
    s->out[n] = cval_new(g, lcu_t_sd(a), 1, &st);
    if (part) s->out[2 * n + 1] = cval_new(g, lcu_t_sd(a), 1, &sf);
}

/* The methods of FILTERs with one pull in one launch: predC and storeC
 * of each FILTER C (dst[C]: its outputs' data), and pred (c, ...),
 * store (c, ...) choosing among them (c is a constant in the unrolled
 * skeleton).  Whether any of them may fail. */
static bool m_filters(Functor *f, SoacGen *fs, int nf, CExpr **const *dst)
{
    Arena *a = f->g->a;
    CBlock *pb = method(f, "bool", "pred", 4, "int", "c", cref(f), "x", "int64_t", "it", "NeslDErr *", "derr");
    CBlock *sb = method(f, "void", "store", 3, "int", "c", "int64_t", "i", cref(f), "r");
    bool may_fail = false;
    for (int c = 0; c < nf; c++) {
        char pn[24], sn[24];   /* "store" and any int */
        snprintf(pn, sizeof pn, "pred%d", c);
        snprintf(sn, sizeof sn, "store%d", c);
        const char *pname = arena_strndup(a, pn, strlen(pn)), *sname = arena_strndup(a, sn, strlen(sn));
        m_pred_of(f, &fs[c], pname);
        m_store(f, sname, dst[c]);
        may_fail |= fs[c].pull.may_fail || fs[c].aux.may_fail;
        CExpr *pcall = cx_calln(a, pname, 3, cx_name(a, "x"), cx_name(a, "it"), cx_name(a, "derr"));
        CExpr *scall = cx_calln(a, sname, 2, cx_name(a, "i"), cx_name(a, "r"));
        if (c == nf - 1) {   /* the last: unconditional */
            cs_return(a, pb, pcall);
            cs_expr(a, sb, scall);
            break;
        }
        CExpr *is_c = cx_bin(a, CB_EQ, cx_name(a, "c"), cx_int(a, c));
        CBlock *pt = cb_new(a), *pe = cb_new(a), *st = cb_new(a), *se = cb_new(a);
        cs_return(a, pt, pcall);
        cs_expr(a, st, scall);
        cs_if(a, pb, is_c, pt, pe);
        cs_if(a, sb, is_c, st, se);
        pb = pe;
        sb = se;
    }
    return may_fail;
}

/* FILTERs with one pull in one launch (SkelMultiFn;
 * rt/nesl_cuda_filter_multi.cuh): one functor, fs[0]'s pull; the counts
 * are read with the group's. */
static void cu_filters(Gen *g, SoacGen *fs, int nf)
{
    Arena *a = g->a;
    SoacGen *s = &fs[0];
    CBlock *blk = s->blk, *after = g->counts_later;
    int n = s->n;
    CExpr *kept[nf], *dt[nf][n], *vt[nf][n], *args[nf + 4], *cnt[nf];
    CExpr **dst[nf];
    bool dead = true;   /* one R for all: positions left out of all or of none */
    for (int c = 0; c < nf; c++) dead = dead && fs[c].pos_dead && fs[c].pos_comp == s->pos_comp;
    for (int c = 0; c < nf; c++) fs[c].pos_dead = dead;
    for (int c = 0; c < nf; c++) {
        kept[c] = sk_var(g, blk, "int64_t", "kept", cx_int(a, 0));
        for (int k = 0; k < n; k++) fs[c].out[k] = out_vec_len(g, &fs[c], fs[c].tau[k], s->size, kept[c], &dt[c][k], &vt[c][k]);
        dst[c] = dt[c];
    }
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    bool may_fail = m_filters(&f, fs, nf, dst);
    char fn[48];
    snprintf(fn, sizeof fn, "nesl_cu_filter_multi_later<%d>", nf);
    args[0] = s->rt;
    args[1] = capture(&f);
    args[2] = s->size;
    args[3] = bool_lit(g, may_fail);   /* a record a FILTER: the first failing one's error is reported */
    for (int c = 0; c < nf; c++) {
        cnt[c] = sk_var(g, blk, "NeslCount", "cnt", NULL);
        CExpr *rank = rank_words(g, &fs[c], n, vt[c]);
        const GenRange *pr = fs[c].pred_range;   /* clamp_pred: checked into FILTER c's own record */
        CExpr *null = cx_name(a, "NULL");
        args[4 + c] = cx_calln(a, "nesl_filter_out", 4, cx_un(a, CU_ADDR, cnt[c]), rank ? rank : null,
                               pr ? cval_len(g, pr->clamp) : cx_int(a, 0), pr ? gen_clamp_name(g, pr) : null);
    }
    cs_expr(a, blk, cx_call(a, arena_strndup(a, fn, strlen(fn)), nf + 4, args));
    raise_if(g, s, may_fail);
    for (int c = 0; c < nf; c++) {
        cs_assign(a, after, kept[c], cx_calln(a, "nesl_cu_count", 3, s->rt, cnt[c], cx_str(a, "a FILTER count", 14)));
        for (int k = 0; k < n; k++) cs_assign(a, after, cx_arrow(a, vt[c][k], "len"), kept[c]);
    }
}

static void cu_filter1(Gen *g, SoacGen *s) { cu_filter(g, s, false, false); }
static void cu_partition(Gen *g, SoacGen *s) { cu_filter(g, s, true, false); }
static void cu_seg_filter(Gen *g, SoacGen *s) { cu_filter(g, s, false, true); }
static void cu_seg_partition(Gen *g, SoacGen *s) { cu_filter(g, s, true, true); }

static void cu_permute(Gen *g, SoacGen *s, bool seg)
{
    Arena *a = g->a;
    CExpr *d[s->n];   /* not zeroed: the kernel stores 0 where no iteration writes */
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], s->size, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_index(&f);
    m_store(&f, "store", d);
    CExpr *fv = capture(&f);
    CExpr *offs = cx_name(a, "NULL"), *ids = cx_name(a, "NULL"), *lens = cx_name(a, "NULL");
    if (seg) {
        CExpr *sd = s->sd->comps[0];
        offs = rt_call(g, s, "nesl_sd_offs", 1, sd);
        ids = rt_call(g, s, "nesl_sd_segids", 1, sd);
        lens = rt_call(g, s, "nesl_sd_lens", 1, sd);   /* a dist_sd writes its lengths when asked */
    }
    CExpr *args[7] = { s->rt, fv, s->size, bool_lit(g, s->pull.may_fail), offs, ids, lens };
    cs_expr(a, s->blk, cx_call(a, "nesl_cu_permute", 7, args));
    raise_if(g, s, s->pull.may_fail);
}

static void cu_permute1(Gen *g, SoacGen *s) { cu_permute(g, s, false); }
static void cu_seg_permute(Gen *g, SoacGen *s) { cu_permute(g, s, true); }

static void cu_seg_fold(Gen *g, SoacGen *s, bool scan)
{
    Arena *a = g->a;
    CExpr *sd = s->sd->comps[0], *d[s->n];
    CExpr *ns = sk_var(g, s->blk, "int64_t", "ns", cx_arrow(a, sd, "nsegs"));
    for (int k = 0; k < s->n; k++) s->out[k] = sk_out_vec(g, s, s->tau[k], scan ? s->size : ns, false, &d[k]);
    Functor f = functor_new(g, s);
    m_pull(&f, false);
    m_op(&f);
    m_store(&f, "store", d);
    CExpr *fv = capture(&f), *id = ident_r(&f);
    CExpr *offs = sk_var(g, s->blk, "const int64_t *", "off", rt_call(g, s, "nesl_sd_offs", 1, sd));
    CExpr *args[7] = { s->rt, fv, s->size, ns, offs, id, bool_lit(g, scan) };
    cs_expr(a, s->blk, cx_call(a, fold_fn(g, s, "nesl_cu_seg_fold"), 7, args));
    raise_if(g, s, s->pull.may_fail || s->aux.may_fail);
}

static void cu_seg_reduce(Gen *g, SoacGen *s) { cu_seg_fold(g, s, false); }
static void cu_seg_scan(Gen *g, SoacGen *s) { cu_seg_fold(g, s, true); }

const Skeletons *cgen_cuda_skeletons(void)
{
    static const Skeletons cu = {
        "CUDA", true,
        cu_map, cu_permute1, cu_reduce, cu_scan, cu_filter1, cu_partition, cu_once,
        cu_seg_permute, cu_seg_reduce, cu_seg_scan, cu_seg_filter, cu_seg_partition,
        cu_map_reduce, cu_map_sd, cu_map_seg, cu_filters,
    };
    return &cu;
}
