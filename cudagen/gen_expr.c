/* gen_expr.c — the shared part of code generation: names, types, values of
 * variables, and expressions (both levels; GPU expressions and thunks
 * here, CPU-only forms in gen_host.c).
 *
 * An expression is compiled to statements plus side-effect-free C
 * expressions for its flat components.  Whatever can fail (a checked
 * operation) or has an effect is bound to a fresh variable in evaluation
 * order, so that the first error is the interpreter's; what is left nests. */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include "cudagen.h"

const char *gen_fresh(Gen *g, const char *base)
{
    char buf[96];
    size_t n = 0;
    for (const char *p = base; *p && n < 60; p++)
        buf[n++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
    if (!n || isdigit((unsigned char)buf[0])) buf[n++] = 'v';
    snprintf(buf + n, sizeof buf - n, "_%d", ++g->counter);
    return arena_strndup(g->a, buf, strlen(buf));
}

void gen_error(Gen *g, Span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nesslc: error: ", g->err);
    if (sp.src) fprintf(g->err, "%s:%d:%d: ", sp.src->name, sp.line, sp.col);
    vfprintf(g->err, fmt, ap);
    fputc('\n', g->err);
    va_end(ap);
    g->nerrors++;
}

const char *gen_base_ctype(const Gen *g, LcuBase b)
{
    switch (b) {
    case LB_BOOL: return "bool";
    case LB_INT: return "int32_t";
    case LB_FLOAT: return g->f32 ? "float" : "double";
    case LB_CHAR: case LB_UNIT: return "uint8_t";
    }
    return "int";
}

const char *gen_base_enum(const Gen *g, LcuBase b)
{
    switch (b) {
    case LB_BOOL: return "NESL_BOOL";
    case LB_INT: return "NESL_INT";
    case LB_FLOAT: return g->f32 ? "NESL_F32" : "NESL_FLOAT";
    case LB_CHAR: return "NESL_CHAR";
    case LB_UNIT: return "NESL_UNIT";
    }
    return "NESL_INT";
}

const char *gen_ctype(const Gen *g, const LcuType *t)
{
    switch (t->kind) {
    case LT_BASE: return gen_base_ctype(g, t->base);
    case LT_VEC: case LT_REF: return "NeslVec *";
    case LT_SD: return "NeslSd *";
    case LT_TUPLE: break;
    }
    ICE("gen_ctype of a tuple");
}

/* ---- values ---- */
const CEnv *cenv_bind(Gen *g, const CEnv *env, Sym x, const CVal *v)
{
    CEnv *e = arena_alloc(g->a, sizeof *e);
    e->name = x;
    e->v = v;
    e->next = env;
    return e;
}

const CVal *cenv_lookup(const CEnv *env, Sym x)
{
    for (; env; env = env->next)
        if (env->name == x) return env->v;
    return NULL;
}

const CVal *cenv_find(const CEnv *env, Sym x)
{
    const CVal *v = cenv_lookup(env, x);
    if (!v) ICE("code generation: unbound '%s'", x);
    return v;
}

CVal *cval_new(Gen *g, const LcuType *t, int n, CExpr **comps)
{
    CVal *v = arena_alloc(g->a, sizeof *v);
    v->type = t;
    v->n = n;
    v->comps = arena_alloc(g->a, sizeof *comps * (size_t)n);
    memcpy(v->comps, comps, sizeof *comps * (size_t)n);
    return v;
}

static const char *ptr_type(Gen *g, LcuBase b, bool cnst)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%s *", cnst ? "const " : "", gen_base_ctype(g, b));
    return arena_strndup(g->a, buf, strlen(buf));
}

CExpr *cval_data(Gen *g, const CVal *v)
{
    if (v->data) return v->data;
    return cx_cast(g->a, ptr_type(g, v->type->base, true), cx_arrow(g->a, v->comps[0], "data"));
}

CExpr *cval_len(Gen *g, const CVal *v)
{
    return v->len ? v->len : cx_arrow(g->a, v->comps[0], "len");
}

/* A string constant's vector, nesl_string(rt, "...", n): not hoisted but
 * made where it is used, so that a check's message (its one use, nearly
 * always) is built only when the check fails; on the CUDA target a
 * string is a host-to-device copy, which every check paid before. */
static bool is_string_const(const CExpr *e)
{
    return e->kind == CX_CALL && !strcmp(e->u.call.fn, "nesl_string") && e->u.call.nargs == 3 &&
           e->u.call.args[1]->kind == CX_STR;
}

/* Names, literals, fields of a local struct and casts of these: values
 * that cost nothing to repeat and read no memory; and string constants,
 * which are not hoisted (above). */
static bool is_simple(const CExpr *e)
{
    return e->kind == CX_NAME || e->kind == CX_INT || e->kind == CX_FLOAT ||
           (e->kind == CX_MEMBER && e->u.member.e->kind == CX_NAME) ||
           (e->kind == CX_CAST && is_simple(e->u.cast.e)) || is_string_const(e);
}

CExpr *gen_hoist(Gen *g, CBlock *blk, const char *type, const char *base, CExpr *e)
{
    if (is_simple(e)) return e;
    const char *t = gen_fresh(g, base);
    cs_decl(g->a, blk, type, t, e);
    return cx_name(g->a, t);
}

static CExpr **one(Gen *g, CExpr *e)
{
    CExpr **v = arena_alloc(g->a, sizeof *v);
    v[0] = e;
    return v;
}

/* ---- which expressions can fail ----
 * Subscripts fail unless they are v[i] with i the parameter of a thunk
 * whose index space is 0..#v-1 (as gen_index proves), not shadowed. */
static bool nonzero_lit(const LcuExpr *e) { return e->kind == LE_INT && e->u.i != 0; }

typedef struct Fact { Sym idx; const GenRange *r; } Fact;

static bool range_has_sym(const GenRange *r, Sym v)
{
    for (int i = 0; r && i < r->n; i++)
        if (r->syms[i] == v) return true;
    return false;
}

static bool fails(const LcuExpr *e, Fact f);

static bool any_fails(int n, LcuExpr *const *es, Fact f)
{
    for (int i = 0; i < n; i++)
        if (fails(es[i], f)) return true;
    return false;
}

static bool fails(const LcuExpr *e, Fact f)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN: case LE_STRING:
        return false;
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR: return any_fails(e->u.tuple.n, e->u.tuple.elems, f);
    case LE_LET: case LE_LOOP: {
        const LcuBind *b = e->u.let.bind;
        if (fails(b->rhs, f)) return true;
        for (int i = 0; i < b->nvars; i++)
            if (b->vars[i] == f.idx) { f.idx = NULL; f.r = NULL; }
        return fails(e->u.let.body, f);
    }
    case LE_IF: return fails(e->u.if_.cond, f) || fails(e->u.if_.then_e, f) || fails(e->u.if_.else_e, f);
    case LE_BINOP:
        if ((e->u.bin.op == LOP_DIV || e->u.bin.op == LOP_MOD) && e->u.bin.l->type->base == LB_INT &&
            !nonzero_lit(e->u.bin.r))
            return true;
        return fails(e->u.bin.l, f) || fails(e->u.bin.r, f);
    case LE_UNOP: return fails(e->u.un.e, f);
    case LE_INDEX:
        if (e->u.index.inrange) return fails(e->u.index.idx, f);
        return !(f.idx && range_has_sym(f.r, e->u.index.vec) && e->u.index.idx->kind == LE_VAR && e->u.index.idx->u.var == f.idx);
    case LE_CALL: {
        const char *fn = e->u.call.name;
        if (!strcmp(fn, "isqrt") || !strcmp(fn, "guard")) return true;
        if ((!strcmp(fn, "rem") || !strcmp(fn, "mod")) && !(e->u.call.nargs == 2 && nonzero_lit(e->u.call.args[1])))
            return true;
        return any_fails(e->u.call.nargs, e->u.call.args, f);
    }
    case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return true;   /* CPU level: not asked */
    }
    return true;
}

bool gen_may_fail(const LcuExpr *e)
{
    Fact none = { NULL, NULL };
    return fails(e, none);
}

bool gen_thunk_may_fail(const LcuThunk *t, int at, const GenRange *range)
{
    bool has = at >= 0 && at < t->nparams;
    Fact f = { has ? t->params[at] : NULL, has ? range : NULL };
    return fails(t->body, f);
}

/* ---- operators ---- */
static CExpr *checked(Gen *g, const ErrCtx *ec, CBlock *blk, const char *fn, const char *type, int n, CExpr **args)
{
    CExpr *a[5] = { ec->err, ec->it, n > 0 ? args[0] : NULL, n > 1 ? args[1] : NULL, n > 2 ? args[2] : NULL };
    return gen_hoist(g, blk, type, "t", cx_call(g->a, fn, 2 + n, a));
}

static CExpr *gen_binop(Gen *g, const ErrCtx *ec, const LcuExpr *e, CExpr *l, CExpr *r, CBlock *blk)
{
    Arena *a = g->a;
    bool fl = e->u.bin.l->type->base == LB_FLOAT;
    CExpr *lr[2] = { l, r };
    switch (e->u.bin.op) {
    case LOP_ADD: return fl ? cx_bin(a, CB_ADD, l, r) : cx_call(a, "nesl_iadd", 2, lr);
    case LOP_SUB: return fl ? cx_bin(a, CB_SUB, l, r) : cx_call(a, "nesl_isub", 2, lr);
    case LOP_MUL: return fl ? cx_bin(a, CB_MUL, l, r) : cx_call(a, "nesl_imul", 2, lr);
    case LOP_DIV:
        if (fl) return cx_bin(a, CB_DIV, l, r);
        if (nonzero_lit(e->u.bin.r)) return cx_call(a, "nesl_idiv", 2, lr);
        return checked(g, ec, blk, "nesl_ck_div", "int32_t", 2, lr);
    case LOP_MOD:
        if (nonzero_lit(e->u.bin.r)) return cx_call(a, "nesl_rem", 2, lr);
        return checked(g, ec, blk, "nesl_ck_rem", "int32_t", 2, lr);
    case LOP_EQ: return cx_bin(a, CB_EQ, l, r);
    case LOP_NE: return cx_bin(a, CB_NE, l, r);
    case LOP_LT: return cx_bin(a, CB_LT, l, r);
    case LOP_LE: return cx_bin(a, CB_LE, l, r);
    case LOP_GT: return cx_bin(a, CB_GT, l, r);
    case LOP_GE: return cx_bin(a, CB_GE, l, r);
    case LOP_AND: case LOP_OR: break;   /* gen_logic */
    }
    ICE("gen_binop");
}

/* && and ||: the right operand's statements run only when it is needed. */
static CExpr *gen_logic(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    bool is_and = e->u.bin.op == LOP_AND;
    CExpr *l = gen_expr(g, env, ec, e->u.bin.l, blk)[0];
    CBlock *rb = cb_new(g->a);
    CExpr *r = gen_expr(g, env, ec, e->u.bin.r, rb)[0];
    if (!rb->n) return cx_bin(g->a, is_and ? CB_AND : CB_OR, l, r);
    const char *t = gen_fresh(g, is_and ? "and" : "or");
    cs_decl(g->a, blk, "bool", t, l);
    cs_assign(g->a, rb, cx_name(g->a, t), r);
    CExpr *c = cx_name(g->a, t);
    cs_if(g->a, blk, is_and ? c : cx_un(g->a, CU_NOT, c), rb, NULL);
    return cx_name(g->a, t);
}

static CExpr *gen_unop(Gen *g, const LcuExpr *e, CExpr *x)
{
    LcuBase from = e->u.un.e->type->base;
    switch (e->u.un.op) {
    case LUOP_NEG: return from == LB_FLOAT ? cx_un(g->a, CU_NEG, x) : cx_calln(g->a, "nesl_ineg", 1, x);
    case LUOP_NOT: return cx_un(g->a, CU_NOT, x);
    case LUOP_TO_FLOAT: return from == LB_FLOAT ? x : cx_cast(g->a, gen_base_ctype(g, LB_FLOAT), x);
    case LUOP_TO_INT:
        if (from == LB_FLOAT) return cx_calln(g->a, "nesl_trunc", 1, x);
        return from == LB_INT ? x : cx_cast(g->a, "int32_t", x);
    }
    ICE("gen_unop");
}

/* Scalar builtins (lcu.h), by name and argument types. */
static CExpr *gen_builtin(Gen *g, const ErrCtx *ec, const LcuExpr *e, CExpr **args, CBlock *blk)
{
    Arena *a = g->a;
    const char *f = e->u.call.name;
    int n = e->u.call.nargs;
    bool lit = n == 2 && nonzero_lit(e->u.call.args[1]);
    if (!strcmp(f, "rem")) return lit ? cx_call(a, "nesl_rem", 2, args) : checked(g, ec, blk, "nesl_ck_brem", "int32_t", 2, args);
    if (!strcmp(f, "mod")) return lit ? cx_call(a, "nesl_mod", 2, args) : checked(g, ec, blk, "nesl_ck_bmod", "int32_t", 2, args);
    if (!strcmp(f, "isqrt")) return checked(g, ec, blk, "nesl_ck_isqrt", "int32_t", 1, args);
    if (!strcmp(f, "guard")) return checked(g, ec, blk, "nesl_ck_guard", "uint8_t", 3, args);
    static const char *const same[] = { "lshift", "rshift", "band", "bor", "bxor", "bnot", "ipow",
                                        "trunc", "floor", "ceil", "round", "code_char", "btoi", "iabs", "div_in", "pos_in" };
    static const char *const libm[] = { "sqrt", "ln", "exp", "sin", "cos", "tan", "asin", "acos", "atan",
                                        "sinh", "cosh", "tanh", "expt" };
    char buf[32];
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (!strcmp(f, same[i])) {
            snprintf(buf, sizeof buf, "nesl_%s", f);
            return cx_call(a, arena_strndup(a, buf, strlen(buf)), n, args);
        }
    for (size_t i = 0; i < sizeof libm / sizeof libm[0]; i++)
        if (!strcmp(f, libm[i])) {
            snprintf(buf, sizeof buf, g->f32 ? "nesl_mf_%s" : "nesl_m_%s", f);   /* sqrtf, ... */
            return cx_call(a, arena_strndup(a, buf, strlen(buf)), n, args);
        }
    if (!strcmp(f, "fpow")) return cx_call(a, g->f32 ? "nesl_fpowf" : "nesl_fpow", 2, args);
    if (!strcmp(f, "fabs")) return cx_call(a, g->f32 ? "fabsf" : "fabs", 1, args);   /* exact */
    if (!strcmp(f, "char_code")) return cx_cast(a, "int32_t", args[0]);
    bool fl = n == 2 && e->u.call.args[0]->type->base == LB_FLOAT;
    const char *fmin = g->f32 ? "nesl_fminf" : "nesl_fmin", *fmax = g->f32 ? "nesl_fmaxf" : "nesl_fmax";
    if (!strcmp(f, "min")) return cx_call(a, fl ? fmin : "nesl_imin", 2, args);
    if (!strcmp(f, "max")) return cx_call(a, fl ? fmax : "nesl_imax", 2, args);
    ICE("code generation: unknown builtin '%s'", f);
}

/* vecs[k][index] of a SOAC's range: a bounds select for its clamp */
static CExpr *range_read(Gen *g, const GenRange *r, int k, CExpr *index)
{
    const CVal *v = r->vecs[k];
    CExpr *x = cx_index(g->a, cval_data(g, v), index);
    if (v != r->clamp) return x;
    return cx_cond(g->a, cx_bin(g->a, CB_LT, index, cval_len(g, v)), x, cx_int(g->a, 0));
}

CExpr *gen_clamp_name(Gen *g, const GenRange *r)
{
    for (int k = 0; k < r->n; k++)
        if (r->vecs[k] == r->clamp) return cx_str(g->a, r->syms[k], (int)strlen(r->syms[k]));
    ICE("code generation: a range without its clamped vector");
}

CExpr *gen_clamp_check(Gen *g, const GenRange *r, CExpr *rec, CExpr *size)
{
    return cx_calln(g->a, g->skel->device ? "nesl_cu_index_short" : "nesl_index_short", 4, rec, size, cval_len(g, r->clamp), gen_clamp_name(g, r));
}

/* x[i]: unchecked when i is known to be in range for x, or the flattener
 * built it so (x.[i]). */
static CExpr *gen_index(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    const CVal *v = cenv_find(env, e->u.index.vec);
    const LcuExpr *ie = e->u.index.idx;
    CExpr *data = v->at_index ? NULL : cval_data(g, v);
    if (ie->kind == LE_VAR) {
        const GenRange *r = cenv_find(env, ie->u.var)->in_range;
        for (int k = 0; r && k < r->n; k++)
            if (r->vecs[k] == v) {
                if (v->at_index) return v->at_index;
                return r->loaded && r->loaded[k] ? r->loaded[k] : range_read(g, r, k, cenv_find(env, ie->u.var)->comps[0]);
            }
    }
    if (v->at_index) ICE("code generation: %s read other than at its SOAC's index", e->u.index.vec);
    CExpr *spec = e->u.index.inrange ? gen_spec_find(g, e) : NULL;
    if (spec) return spec;
    CExpr *i = gen_hoist(g, blk, "int32_t", "ix", gen_expr(g, env, ec, ie, blk)[0]);
    const char *vn = e->u.index.vec;
    if (e->u.index.inrange && !(g->skel->device && ec->host))   /* v.[i]: in range by construction */
        return gen_hoist(g, blk, gen_base_ctype(g, v->type->base), vn, cx_index(g->a, data, i));
    CExpr *ok = cx_calln(g->a, "nesl_ck_index", 5, ec->err, ec->it, i, cval_len(g, v), cx_str(g->a, vn, (int)strlen(vn)));
    if (g->skel->device && ec->host) {   /* host code: the element is copied from the device */
        const char *t = gen_fresh(g, vn);
        CBlock *get = cb_new(g->a), *zero = cb_new(g->a);
        cs_decl(g->a, blk, gen_base_ctype(g, v->type->base), t, NULL);
        cs_expr(g->a, get, cx_calln(g->a, "nesl_vec_get", 4, cx_name(g->a, "rt"), v->comps[0], i, cx_un(g->a, CU_ADDR, cx_name(g->a, t))));
        cs_assign(g->a, zero, cx_name(g->a, t), cx_int(g->a, 0));
        cs_if(g->a, blk, ok, get, zero);
        return cx_name(g->a, t);
    }
    return gen_hoist(g, blk, gen_base_ctype(g, v->type->base), vn,
                     cx_cond(g->a, ok, cx_index(g->a, data, i), cx_int(g->a, 0)));
}

/* b's names bound to the components c of a value of type t (one name: all). */
static const CEnv *bind_comps(Gen *g, const CEnv *env, const LcuBind *b, const LcuType *t, CExpr **c)
{
    if (b->nvars == 1) return cenv_bind(g, env, b->vars[0], cval_new(g, t, lcu_t_arity(t), c));
    for (int k = 0; k < b->nvars; k++) env = cenv_bind(g, env, b->vars[k], cval_new(g, lcu_t_component(t, k), 1, c + k));
    return env;
}

/* let: each component gets a variable (unless it is a name or literal). */
const CEnv *gen_bind(Gen *g, const CEnv *env, const LcuBind *b, CExpr **rhs, CBlock *blk)
{
    const LcuType *t = b->rhs->type;
    int n = lcu_t_arity(t);
    CExpr *c[n];
    for (int k = 0; k < n; k++)
        c[k] = gen_hoist(g, blk, gen_ctype(g, lcu_t_component(t, k)), b->nvars == 1 ? b->vars[0] : b->vars[k], rhs[k]);
    return bind_comps(g, env, b, t, c);
}

/* iterate: mutable loop variables and result variables around for (;;);
 * the body's tail positions either assign the next values (all computed
 * before any is assigned) and continue, or assign the result and break. */
typedef struct LoopGen { int nv, nr; CExpr **vars, **res; } LoopGen;

static void gen_tail(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk, const LoopGen *L)
{
    if (e->kind == LE_IF) {
        CExpr *c = gen_expr(g, env, ec, e->u.if_.cond, blk)[0];
        CBlock *tb = cb_new(g->a), *eb = cb_new(g->a);
        gen_tail(g, env, ec, e->u.if_.then_e, tb, L);
        gen_tail(g, env, ec, e->u.if_.else_e, eb, L);
        cs_if(g->a, blk, c, tb, eb);
        return;
    }
    if (e->kind == LE_LET) {
        const LcuBind *b = e->u.let.bind;
        gen_tail(g, gen_bind(g, env, b, gen_expr(g, env, ec, b->rhs, blk), blk), ec, e->u.let.body, blk, L);
        return;
    }
    bool recur = e->kind == LE_RECUR;
    int n = recur ? L->nv : L->nr;
    CExpr **to = recur ? L->vars : L->res;
    CExpr *val[n];
    int k = 0;
    if (recur) {
        for (int i = 0; i < e->u.tuple.n; i++) {
            const LcuExpr *x = e->u.tuple.elems[i];
            CExpr **c = gen_expr(g, env, ec, x, blk);
            for (int j = 0; j < lcu_t_arity(x->type); j++, k++) {   /* a temporary: the values may read the variables */
                const char *t = gen_fresh(g, "next");
                cs_decl(g->a, blk, gen_ctype(g, lcu_t_component(x->type, j)), t, c[j]);
                val[k] = cx_name(g->a, t);
            }
        }
    } else {
        CExpr **c = gen_expr(g, env, ec, e, blk);
        for (; k < n; k++) val[k] = c[k];
    }
    for (int i = 0; i < n; i++) cs_assign(g->a, blk, to[i], val[i]);
    cs_jump(g->a, blk, !recur);
}

static CExpr **gen_loop(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    const LcuBind *b = e->u.let.bind;
    const LcuType *vt = b->rhs->type;
    LoopGen L = { lcu_t_arity(vt), lcu_t_arity(e->type), NULL, NULL };
    CExpr **init = gen_expr(g, env, ec, b->rhs, blk);
    L.vars = arena_alloc(g->a, sizeof *L.vars * (size_t)L.nv);
    L.res = arena_alloc(g->a, sizeof *L.res * (size_t)L.nr);
    for (int k = 0; k < L.nv; k++) {
        const char *v = gen_fresh(g, b->nvars == 1 ? b->vars[0] : b->vars[k]);
        cs_decl(g->a, blk, gen_ctype(g, lcu_t_component(vt, k)), v, init[k]);
        L.vars[k] = cx_name(g->a, v);
    }
    env = bind_comps(g, env, b, vt, L.vars);
    for (int k = 0; k < L.nr; k++) {
        const char *v = gen_fresh(g, "r");
        cs_decl(g->a, blk, gen_ctype(g, lcu_t_component(e->type, k)), v, NULL);
        L.res[k] = cx_name(g->a, v);
    }
    CBlock *body = cb_new(g->a);
    gen_tail(g, env, ec, e->u.let.body, body, &L);
    cs_loop(g->a, blk, body);
    return L.res;
}

static CExpr **gen_if(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    CExpr *c = gen_expr(g, env, ec, e->u.if_.cond, blk)[0];
    CBlock *tb = cb_new(g->a), *eb = cb_new(g->a);
    CExpr **t = gen_expr(g, env, ec, e->u.if_.then_e, tb);
    CExpr **f = gen_expr(g, env, ec, e->u.if_.else_e, eb);
    int n = lcu_t_arity(e->type);
    if (!tb->n && !eb->n && n == 1) return one(g, cx_cond(g->a, c, t[0], f[0]));
    CExpr **r = arena_alloc(g->a, sizeof *r * (size_t)n);
    for (int k = 0; k < n; k++) {
        const char *v = gen_fresh(g, "r");
        cs_decl(g->a, blk, gen_ctype(g, lcu_t_component(e->type, k)), v, NULL);
        r[k] = cx_name(g->a, v);
        cs_assign(g->a, tb, r[k], t[k]);
        cs_assign(g->a, eb, r[k], f[k]);
    }
    cs_if(g->a, blk, c, tb, eb);
    return r;
}

CExpr **gen_expr(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk)
{
    Arena *a = g->a;
    switch (e->kind) {
    case LE_INT: case LE_CHAR: return one(g, cx_int(a, e->u.i));
    case LE_FLOAT:   /* -ffloat32: (float)D, the double literal rounded once, at compile time */
        return one(g, g->f32 ? cx_cast(a, "float", cx_float(a, e->u.f)) : cx_float(a, e->u.f));
    case LE_BOOL: return one(g, cx_name(a, e->u.b ? "true" : "false"));
    case LE_UNIT: return one(g, cx_int(a, 0));
    case LE_VAR: return cenv_find(env, e->u.var)->comps;
    case LE_TUPLE: {
        int n = lcu_t_arity(e->type), k = 0;
        CExpr **r = arena_alloc(a, sizeof *r * (size_t)n);
        for (int i = 0; i < e->u.tuple.n; i++) {
            const LcuExpr *x = e->u.tuple.elems[i];
            CExpr **c = gen_expr(g, env, ec, x, blk);
            for (int j = 0; j < lcu_t_arity(x->type); j++) r[k++] = c[j];
        }
        return r;
    }
    case LE_LET: {
        const LcuBind *b = e->u.let.bind;
        CExpr **rhs = gen_expr(g, env, ec, b->rhs, blk);
        return gen_expr(g, gen_bind(g, env, b, rhs, blk), ec, e->u.let.body, blk);
    }
    case LE_IF: return gen_if(g, env, ec, e, blk);
    case LE_LOOP: return gen_loop(g, env, ec, e, blk);
    case LE_RECUR: ICE("recur outside a tail position");
    case LE_BINOP: {
        if (e->u.bin.op == LOP_AND || e->u.bin.op == LOP_OR) return one(g, gen_logic(g, env, ec, e, blk));
        CExpr *l = gen_expr(g, env, ec, e->u.bin.l, blk)[0];
        CExpr *r = gen_expr(g, env, ec, e->u.bin.r, blk)[0];
        return one(g, gen_binop(g, ec, e, l, r, blk));
    }
    case LE_UNOP: return one(g, gen_unop(g, e, gen_expr(g, env, ec, e->u.un.e, blk)[0]));
    case LE_INDEX: return one(g, gen_index(g, env, ec, e, blk));
    case LE_LEN: {
        const CVal *v = cenv_find(env, e->u.len.vec);
        CExpr *len = v->type->kind == LT_SD ? cx_arrow(a, v->comps[0], "nsegs") : cval_len(g, v);
        return one(g, cx_cast(a, "int32_t", len));
    }
    case LE_CALL: {
        bool cpu = false;
        for (int i = 0; i < g->prog->nfuns; i++) cpu = cpu || g->prog->funs[i]->name == e->u.call.name;
        /* a user function wins at the CPU level; GPU code cannot call one */
        if (cpu && ec->cpu) return gen_cpu_expr(g, env, ec, e, blk);
        if (lcu_cpu_builtin_exists(e->u.call.name)) return gen_cpu_expr(g, env, ec, e, blk);
        int n = e->u.call.nargs;
        CExpr *args[n ? n : 1];
        for (int i = 0; i < n; i++) args[i] = gen_expr(g, env, ec, e->u.call.args[i], blk)[0];
        return one(g, gen_builtin(g, ec, e, args, blk));
    }
    case LE_VECLIT: case LE_RUN: case LE_BLOCK: case LE_STRING: case LE_SOAC: case LE_LIB:
        return gen_cpu_expr(g, env, ec, e, blk);
    }
    ICE("gen_expr");
}

/* ---- thunks ---- */
/* fn (ctx, x, inrange) for every read x[idx] (x.[idx]: inrange) that e
 * makes on every path through it: not only in a branch of an if or the
 * right of a short-circuit operator; idx rebound by a let ends its reads. */
typedef void (*IndexReadFn)(void *ctx, Sym x, bool inrange);

static void every_path_reads(const LcuExpr *e, Sym idx, IndexReadFn fn, void *ctx)
{
    switch (e->kind) {
    case LE_INDEX:
        if (idx && e->u.index.idx->kind == LE_VAR && e->u.index.idx->u.var == idx) fn(ctx, e->u.index.vec, e->u.index.inrange);
        every_path_reads(e->u.index.idx, idx, fn, ctx);
        return;
    case LE_IF: every_path_reads(e->u.if_.cond, idx, fn, ctx); return;
    case LE_LET: case LE_LOOP: {   /* a loop's body runs at least once */
        const LcuBind *b = e->u.let.bind;
        every_path_reads(b->rhs, idx, fn, ctx);
        for (int i = 0; i < b->nvars; i++)
            if (b->vars[i] == idx) idx = NULL;
        every_path_reads(e->u.let.body, idx, fn, ctx);
        return;
    }
    case LE_TUPLE: case LE_VECLIT: case LE_RECUR:
        for (int i = 0; i < e->u.tuple.n; i++) every_path_reads(e->u.tuple.elems[i], idx, fn, ctx);
        return;
    case LE_BINOP:
        every_path_reads(e->u.bin.l, idx, fn, ctx);
        if (e->u.bin.op != LOP_AND && e->u.bin.op != LOP_OR) every_path_reads(e->u.bin.r, idx, fn, ctx);
        return;
    case LE_UNOP: every_path_reads(e->u.un.e, idx, fn, ctx); return;
    case LE_CALL: case LE_RUN:
        for (int i = 0; i < e->u.call.nargs; i++) every_path_reads(e->u.call.args[i], idx, fn, ctx);
        return;
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_UNIT: case LE_VAR: case LE_LEN: case LE_STRING:
    case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return;
    }
}

/* preload: which of a range's vectors are read at the index on every path */
typedef struct RangeUse { const GenRange *r; bool *used; } RangeUse;

static void mark_range_use(void *ctx, Sym x, bool inrange)
{
    (void)inrange;
    RangeUse *u = ctx;
    for (int k = 0; k < u->r->n; k++) u->used[k] |= u->r->syms[k] == x;
}

/* gen_index_read: the checked reads of vectors outside the range */
typedef struct IndexReads { const GenRange *r; Sym found; int n; } IndexReads;

static void note_index_read(void *ctx, Sym x, bool inrange)
{
    IndexReads *c = ctx;
    if (inrange || range_has_sym(c->r, x) || x == c->found) return;
    c->found = x;
    c->n++;
}

Sym gen_index_read(const LcuThunk *t, int at, const GenRange *range)
{
    if (at < 0 || at >= t->nparams) return NULL;
    IndexReads c = { range, NULL, 0 };
    every_path_reads(t->body, t->params[at], note_index_read, &c);
    return c.n == 1 ? c.found : NULL;
}

/* range0 with the elements the body reads at its index on every path
 * loaded at the top: a thread's loads are then in flight together
 * (Black-Scholes read its third input only after two compares and
 * branches, and the H100 sat at 58% of copy bandwidth). */
static const GenRange *preload(Gen *g, const LcuThunk *th, int at, CExpr *index, const GenRange *range0, CBlock *blk)
{
    bool used[range0->n + 1];
    memset(used, 0, sizeof used);
    RangeUse u = { range0, used };
    every_path_reads(th->body, th->params[at], mark_range_use, &u);
    GenRange *r = NULL;
    for (int k = 0; k < range0->n; k++) {
        if (!used[k]) continue;
        if (!r) {
            r = arena_alloc(g->a, sizeof *r);
            *r = *range0;
            r->loaded = arena_alloc(g->a, sizeof *r->loaded * (size_t)range0->n);
            memset(r->loaded, 0, sizeof *r->loaded * (size_t)range0->n);
        }
        const CVal *v = range0->vecs[k];
        r->loaded[k] = v->at_index ? v->at_index : gen_hoist(g, blk, gen_base_ctype(g, v->type->base), range0->syms[k], range_read(g, range0, k, index));
    }
    return r ? r : range0;
}

void gen_thunk(Gen *g, const ThunkGen *t, int nargs, CExpr **args, const LcuBase *bases,
               const GenRange *range0, const ErrCtx *ec, const Cont *k, CBlock *blk)
{
    const LcuThunk *th = t->thunk;
    const CEnv *env = t->env;
    /* `{ () => e }` takes the unit argument as no parameter */
    for (int i = 0; i < th->nparams && i < nargs; i++) {
        CExpr *x = gen_hoist(g, blk, gen_base_ctype(g, bases[i]), th->params[i], args[i]);
        CVal *v = cval_new(g, lcu_t_base(g->a, bases[i]), 1, &x);
        if (i == t->at) v->in_range = range0 && !ec->host ? preload(g, th, i, x, range0, blk) : range0;
        env = cenv_bind(g, env, th->params[i], v);
    }
    const SpecLoads *outer = g->spec;
    g->spec = gen_spec_loads(g, th, t->at, env, ec, blk);
    CExpr **res = gen_expr(g, env, ec, th->body, blk);
    g->spec = outer;
    k->fn(g, k->ctx, blk, lcu_t_arity(th->body->type), res);
}
