/* build.c — emission of Flan statements and small λcu expression helpers.
 *
 * Every vector operation the flattener needs is one inline SOAC here or in
 * rep.c, so that kernel formation gives exactly one kernel per operation. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "flatten_impl.h"

static const Span NOSPAN;

Sym fl_fresh(Fl *F, const char *prefix)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%d", prefix, ++F->next_var);
    return intern_cstr(F->in, buf);
}

void fl_emitn(Fl *F, int n, Sym *vars, const LcuType **ts, LcuExpr *rhs)
{
    ptrvec_push(F->a, &F->blk->binds, lcu_bind(F->a, NOSPAN, n, vars, ts, rhs));
}

static bool same_types(int n, const LcuType *const *x, const LcuType *const *y)
{
    for (int i = 0; i < n; i++)
        if (!lcu_t_equal(x[i], y[i])) return false;
    return true;
}

/* What evaluates to the same value wherever the same names are in scope,
 * and so needs evaluating once: arithmetic of variables and literals (an
 * error it raises, the first evaluation raised), a descriptor's lengths,
 * offsets, segment ids or total, and the descriptor builtins over such.
 * Not check, a library call or a function's. */
static bool pure_cpu(const LcuExpr *e)
{
    switch (e->kind) {
    case LE_INT: case LE_FLOAT: case LE_BOOL: case LE_CHAR: case LE_VAR: case LE_LEN: return true;
    case LE_BINOP: return pure_cpu(e->u.bin.l) && pure_cpu(e->u.bin.r);
    case LE_UNOP: return pure_cpu(e->u.un.e);
    case LE_CALL: {
        static const char *const fs[] = { "lengths", "offsets", "segids", "total", "make_sd", "dist_sd", "sum_sd", "cat_sd", "zip_sd", "filter_sd" };
        bool known = false;
        for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) known = known || !strcmp(e->u.call.name, fs[i]);
        for (int i = 0; known && i < e->u.call.nargs; i++) known = pure_cpu(e->u.call.args[i]);
        return known;
    }
    case LE_UNIT: case LE_STRING: case LE_TUPLE: case LE_VECLIT: case LE_RECUR: case LE_LET: case LE_LOOP: case LE_IF: case LE_INDEX:
    case LE_RUN: case LE_BLOCK: case LE_SOAC: case LE_LIB:
        return false;
    }
    return false;
}

static bool same_rhs(const LcuExpr *a, const LcuExpr *b)
{
    if (a->kind == LE_SOAC) return b->kind == LE_SOAC && lcu_soac_alpha_equal(a->u.soac, b->u.soac);
    return pure_cpu(b) && lcu_expr_equal(a, b);
}

/* An earlier binding in scope of n variables of types ts to the same SOAC
 * as rhs, or to the same pure CPU expression (pure_cpu): its variables,
 * else NULL.  Each is a pure function of the variables it names, and where
 * the first evaluation fails the program stops before the second, so the
 * second computes nothing new (Barnes-Hut's build summed its kids' sizes
 * twice a level: for `size` and for flatten's lengths). */
static Sym *same_soac(Fl *F, int n, const LcuType *const *ts, const LcuExpr *rhs)
{
    if (rhs->kind != LE_SOAC && !pure_cpu(rhs)) return NULL;
    for (Block *k = F->blk; k; k = k->outer)
        for (int i = k->binds.len - 1; i >= 0; i--) {
            LcuBind *b = k->binds.items[i];
            if (b->nvars == n && same_types(n, b->types, ts) && same_rhs(rhs, b->rhs)) return b->vars;
        }
    return NULL;
}

Sym fl_emit(Fl *F, const LcuType *t, LcuExpr *rhs)
{
    Sym *same = same_soac(F, 1, &t, rhs);
    if (same) return same[0];
    Sym *v = arena_alloc(F->a, sizeof *v);
    const LcuType **ts = arena_alloc(F->a, sizeof *ts);
    v[0] = fl_fresh(F, t->kind == LT_SD ? "s" : t->kind == LT_VEC ? "v" : "x");
    ts[0] = t;
    fl_emitn(F, 1, v, ts, rhs);
    return v[0];
}

Sym *fl_emit_tuple(Fl *F, int n, const LcuType **ts, LcuExpr *rhs)
{
    Sym *v = arena_alloc(F->a, sizeof *v * (size_t)(n ? n : 1));
    if (n == 0) {                       /* a value without components: bind () */
        fl_emit(F, T_base(F, LB_UNIT), rhs);
        return v;
    }
    Sym *same = same_soac(F, n, ts, rhs);
    if (same) return same;
    for (int i = 0; i < n; i++)
        v[i] = fl_fresh(F, ts[i]->kind == LT_SD ? "s" : ts[i]->kind == LT_VEC ? "v" : "x");
    const LcuType **tc = arena_alloc(F->a, sizeof *tc * (size_t)n);
    memcpy(tc, ts, sizeof *tc * (size_t)n);
    fl_emitn(F, n, v, tc, rhs);
    return v;
}

void fl_block_push(Fl *F, Block *b)
{
    memset(b, 0, sizeof *b);
    b->outer = F->blk;
    F->blk = b;
}

/* Has a check in this block or one around it already found the lengths
 * of descriptors a and b equal?  If not, the caller is about to check:
 * noted in the current block, so a second check of the pair is left out
 * (a lifted split's two filters zip the same two sequences). */
bool fl_lengths_checked(Fl *F, Sym a, Sym b)
{
    if (a == b) return true;
    for (Block *k = F->blk; k; k = k->outer)
        for (int i = 0; i + 1 < k->same_lens.len; i += 2) {
            Sym x = k->same_lens.items[i], y = k->same_lens.items[i + 1];
            if ((x == a && y == b) || (x == b && y == a)) return true;
        }
    return false;
}

void fl_note_lengths_checked(Fl *F, Sym a, Sym b)
{
    ptrvec_push(F->a, &F->blk->same_lens, (void *)a);
    ptrvec_push(F->a, &F->blk->same_lens, (void *)b);
}

LcuExpr *fl_block_pop(Fl *F, LcuExpr *result)
{
    Block *b = F->blk;
    F->blk = b->outer;
    return lcu_e_block(F->a, NOSPAN, b->binds.len, (LcuBind **)b->binds.items, result);
}

_Noreturn void fl_unsupported(Fl *F, Span sp, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(F->d, sp, "%s not supported yet (flattening)", msg);
    longjmp(*F->fail, 1);
}

/* ---- types ---- */
const LcuType *T_base(Fl *F, LcuBase b) { return lcu_t_base(F->a, b); }
const LcuType *T_int(Fl *F) { return lcu_t_base(F->a, LB_INT); }
const LcuType *T_bool(Fl *F) { return lcu_t_base(F->a, LB_BOOL); }
const LcuType *T_float(Fl *F) { return lcu_t_base(F->a, LB_FLOAT); }
const LcuType *T_vec(Fl *F, LcuBase b) { return lcu_t_vec(F->a, b); }
const LcuType *T_sd(Fl *F) { return lcu_t_sd(F->a); }
const LcuType *T_tuple(Fl *F, int n, const LcuType **ts)
{
    return n == 0 ? T_base(F, LB_UNIT) : lcu_t_tuple(F->a, n, ts);
}

/* ---- expressions ---- */
LcuExpr *X_var(Fl *F, Sym x) { return lcu_e_var(F->a, NOSPAN, x); }
LcuExpr *X_int(Fl *F, int64_t v) { return lcu_e_int(F->a, NOSPAN, v); }
LcuExpr *X_bool(Fl *F, bool v) { return lcu_e_bool(F->a, NOSPAN, v); }
LcuExpr *X_bin(Fl *F, LcuBinop op, LcuExpr *l, LcuExpr *r) { return lcu_e_binop(F->a, NOSPAN, op, l, r); }
LcuExpr *X_un(Fl *F, LcuUnop op, LcuExpr *e) { return lcu_e_unop(F->a, NOSPAN, op, e); }
LcuExpr *X_if(Fl *F, LcuExpr *c, LcuExpr *t, LcuExpr *e) { return lcu_e_if(F->a, NOSPAN, c, t, e); }
LcuExpr *X_idx_as(Fl *F, Sym v, LcuExpr *i, bool inrange) { return lcu_e_index(F->a, NOSPAN, v, NOSPAN, i, inrange); }
LcuExpr *X_idx(Fl *F, Sym v, LcuExpr *i) { return X_idx_as(F, v, i, false); }
LcuExpr *X_idx_in(Fl *F, Sym v, LcuExpr *i) { return X_idx_as(F, v, i, true); }
LcuExpr *X_len(Fl *F, Sym v) { return lcu_e_len(F->a, NOSPAN, v, false); }

LcuExpr *X_call(Fl *F, const char *fn, int n, LcuExpr **args)
{
    LcuExpr **as = arena_alloc(F->a, sizeof *as * (size_t)(n ? n : 1));
    if (n) memcpy(as, args, sizeof *as * (size_t)n);
    return lcu_e_call(F->a, NOSPAN, intern_cstr(F->in, fn), n, as);
}
LcuExpr *X_call1(Fl *F, const char *fn, LcuExpr *a) { return X_call(F, fn, 1, &a); }
LcuExpr *X_call2(Fl *F, const char *fn, LcuExpr *a, LcuExpr *b)
{
    LcuExpr *as[2] = { a, b };
    return X_call(F, fn, 2, as);
}

LcuExpr *X_tuple(Fl *F, int n, LcuExpr **es)
{
    if (n == 0) return lcu_e_unit(F->a, NOSPAN);
    if (n == 1) return es[0];
    LcuExpr **as = arena_alloc(F->a, sizeof *as * (size_t)n);
    memcpy(as, es, sizeof *as * (size_t)n);
    return lcu_e_tuple(F->a, NOSPAN, n, as);
}

LcuExpr *X_default(Fl *F, LcuBase b)
{
    switch (b) {
    case LB_INT: return X_int(F, 0);
    case LB_FLOAT: return lcu_e_float(F->a, NOSPAN, 0.0);
    case LB_BOOL: return X_bool(F, false);
    case LB_CHAR: return lcu_e_char(F->a, NOSPAN, 0);
    case LB_UNIT: return lcu_e_unit(F->a, NOSPAN);
    }
    ICE("bad base");
}

/* ---- SOACs ---- */
LcuThunk *fl_thunk(Fl *F, int np, Sym *params, LcuExpr *body)
{
    Sym *ps = arena_alloc(F->a, sizeof *ps * (size_t)(np ? np : 1));
    if (np) memcpy(ps, params, sizeof *ps * (size_t)np);
    return lcu_thunk(F->a, NOSPAN, np, ps, body, 0, NULL);
}
LcuThunk *fl_thunk1(Fl *F, Sym p, LcuExpr *body) { return fl_thunk(F, 1, &p, body); }
LcuArg *A_thunk(Fl *F, LcuThunk *t) { return lcu_arg_thunk(F->a, t); }
LcuArg *A_expr(Fl *F, LcuExpr *e) { return lcu_arg_expr(F->a, NOSPAN, e); }

LcuExpr *X_soac(Fl *F, LcuSoacKind k, int n, LcuArg **args)
{
    LcuArg **as = arena_alloc(F->a, sizeof *as * (size_t)n);
    memcpy(as, args, sizeof *as * (size_t)n);
    return lcu_e_soac(F->a, NOSPAN, lcu_soac(F->a, NOSPAN, k, n, as));
}

Sym fl_map(Fl *F, LcuBase b, Sym i, LcuExpr *body, LcuExpr *n)
{
    LcuArg *as[2] = { A_thunk(F, fl_thunk1(F, i, body)), A_expr(F, n) };
    return fl_emit(F, T_vec(F, b), X_soac(F, LS_MAP, 2, as));
}

Sym fl_dist(Fl *F, LcuBase b, LcuExpr *v, LcuExpr *n)
{
    Sym i = fl_fresh(F, "i");
    return fl_map(F, b, i, v, n);
}

Sym fl_gather_as(Fl *F, LcuBase b, Sym v, Sym idx, bool inrange)
{
    Sym i = fl_fresh(F, "i");
    return fl_map(F, b, i, X_idx_as(F, v, X_idx(F, idx, X_var(F, i)), inrange), X_len(F, idx));
}

Sym fl_gather(Fl *F, LcuBase b, Sym v, Sym idx) { return fl_gather_as(F, b, v, idx, false); }
Sym fl_gather_in(Fl *F, LcuBase b, Sym v, Sym idx) { return fl_gather_as(F, b, v, idx, true); }

/* op is a binary operator, or builtin (min/max/band/...) when op < 0. */
static LcuThunk *monoid(Fl *F, LcuBinop op, const char *builtin)
{
    Sym ps[2] = { fl_fresh(F, "a"), fl_fresh(F, "b") };
    LcuExpr *body = builtin ? X_call2(F, builtin, X_var(F, ps[0]), X_var(F, ps[1]))
                            : X_bin(F, op, X_var(F, ps[0]), X_var(F, ps[1]));
    return fl_thunk(F, 2, ps, body);
}

Sym fl_reduce(Fl *F, LcuBase b, LcuBinop op, const char *builtin, Sym v, LcuExpr *ident)
{
    Sym i = fl_fresh(F, "i");
    LcuArg *as[4] = { A_thunk(F, fl_thunk1(F, i, X_idx(F, v, X_var(F, i)))), A_expr(F, ident),
                      A_thunk(F, monoid(F, op, builtin)), A_expr(F, X_len(F, v)) };
    return fl_emit(F, T_base(F, b), X_soac(F, LS_REDUCE, 4, as));
}

Sym fl_any(Fl *F, Sym flags) { return fl_reduce(F, LB_BOOL, LOP_OR, NULL, flags, X_bool(F, false)); }
Sym fl_sum_int(Fl *F, Sym v) { return fl_reduce(F, LB_INT, LOP_ADD, NULL, v, X_int(F, 0)); }

static Sym seg_sum_of(Fl *F, Sym sd, Sym i, LcuExpr *elem)
{
    LcuArg *as[4] = { A_thunk(F, fl_thunk1(F, i, elem)), A_expr(F, X_int(F, 0)),
                      A_thunk(F, monoid(F, LOP_ADD, NULL)), A_expr(F, X_var(F, sd)) };
    return fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_SEG_REDUCE, 4, as));
}

Sym fl_seg_sum_int(Fl *F, Sym sd, Sym v)
{
    Sym i = fl_fresh(F, "i");
    return seg_sum_of(F, sd, i, X_idx(F, v, X_var(F, i)));
}

Sym fl_empty(Fl *F, LcuBase b)
{
    if (b == LB_CHAR) return fl_emit(F, T_vec(F, b), lcu_e_string(F->a, NOSPAN, "", 0));
    Sym i = fl_fresh(F, "i");
    return fl_map(F, b, i, X_default(F, b), X_int(F, 0));
}

/* The true flags added up by a REDUCE (int) or an exclusive SCAN ([int]). */
static Sym count_true(Fl *F, Sym flags, LcuSoacKind kind)
{
    Sym i = fl_fresh(F, "i");
    LcuArg *as[4] = { A_thunk(F, fl_thunk1(F, i, X_call1(F, "btoi", X_idx(F, flags, X_var(F, i))))),
                      A_expr(F, X_int(F, 0)), A_thunk(F, monoid(F, LOP_ADD, NULL)),
                      A_expr(F, X_len(F, flags)) };
    return fl_emit(F, kind == LS_SCAN ? T_vec(F, LB_INT) : T_int(F), X_soac(F, kind, 4, as));
}

Sym fl_count_true(Fl *F, Sym flags) { return count_true(F, flags, LS_REDUCE); }

/* Element i: the true flags before i. */
Sym fl_count_true_before(Fl *F, Sym flags) { return count_true(F, flags, LS_SCAN); }

/* The sum of v[i] where flags[i]: a REDUCE of the same size as
 * fl_count_true's, which fusion tuples with it (one launch, one wait). */
Sym fl_sum_where(Fl *F, Sym flags, Sym v)
{
    Sym i = fl_fresh(F, "i");
    LcuExpr *term = X_bin(F, LOP_MUL, X_call1(F, "btoi", X_idx(F, flags, X_var(F, i))), X_idx(F, v, X_var(F, i)));
    LcuArg *as[4] = { A_thunk(F, fl_thunk1(F, i, term)), A_expr(F, X_int(F, 0)), A_thunk(F, monoid(F, LOP_ADD, NULL)),
                      A_expr(F, X_len(F, flags)) };
    return fl_emit(F, T_int(F), X_soac(F, LS_REDUCE, 4, as));
}

void fl_partition_index(Fl *F, Sym flags, LcuExpr *n, Sym nt, Sym *idx_t, Sym *idx_f)
{
    Sym i = fl_fresh(F, "i"), j = fl_fresh(F, "j");
    LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, i, X_var(F, i))),
                      A_thunk(F, fl_thunk1(F, j, X_idx(F, flags, X_var(F, j)))), A_expr(F, n) };
    const LcuType *ts[2] = { T_vec(F, LB_INT), T_vec(F, LB_INT) };
    LcuExpr *part = X_soac(F, LS_PARTITION, 3, as);
    part->u.soac->kept = X_var(F, nt);
    Sym *r = fl_emit_tuple(F, 2, ts, part);
    *idx_t = r[0];
    *idx_f = r[1];
}

Sym fl_filter_index(Fl *F, Sym flags, LcuExpr *n)
{
    Sym i = fl_fresh(F, "i"), j = fl_fresh(F, "j");
    LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, i, X_var(F, i))),
                      A_thunk(F, fl_thunk1(F, j, X_idx(F, flags, X_var(F, j)))), A_expr(F, n) };
    return fl_emit(F, T_vec(F, LB_INT), X_soac(F, LS_FILTER, 3, as));
}

/* The elements (v_0[i], ..., v_k-1[i]) where flags[i], in order: one
 * FILTER whose elements carry their flag (the predicate sees elements, not
 * indices) instead of fl_filter_index and a gather per component, so a
 * flags MAP fuses into its pull.  The kept flags (all true) are written
 * and dropped.  out gets k vectors. */
void fl_filter_elems(Fl *F, int k, const LcuBase *bs, const Sym *vs, Sym flags, LcuExpr *n, Sym *out)
{
    Sym i = fl_fresh(F, "i");
    LcuExpr **es = arena_alloc(F->a, sizeof *es * (size_t)(k + 1));
    Sym *ps = arena_alloc(F->a, sizeof *ps * (size_t)(k + 1));
    const LcuType **ts = arena_alloc(F->a, sizeof *ts * (size_t)(k + 1));
    for (int c = 0; c <= k; c++) {
        es[c] = X_idx(F, c < k ? vs[c] : flags, X_var(F, i));
        ps[c] = fl_fresh(F, c < k ? "x" : "f");
        ts[c] = T_vec(F, c < k ? bs[c] : LB_BOOL);
    }
    LcuArg *as[3] = { A_thunk(F, fl_thunk1(F, i, X_tuple(F, k + 1, es))),
                      A_thunk(F, fl_thunk(F, k + 1, ps, X_var(F, ps[k]))), A_expr(F, n) };
    Sym *r = fl_emit_tuple(F, k + 1, ts, X_soac(F, LS_FILTER, 3, as));
    for (int c = 0; c < k; c++) out[c] = r[c];
}

/* ---- runtime checks ---- */
static int site_index(Fl *F, Span sp)
{
    if (!sp.src) return -1;
    for (int i = 0; i < F->site_spans.len; i++) {
        Span *s = F->site_spans.items[i];
        if (s->src == sp.src && s->line == sp.line && s->col == sp.col) return i;
    }
    Span *s = arena_alloc(F->a, sizeof *s);
    *s = sp;
    ptrvec_push(F->a, &F->site_spans, s);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s:%d:%d", sp.src->name, sp.line, sp.col);
    ptrvec_push(F->a, &F->sites, arena_strndup(F->a, buf, strlen(buf)));
    return F->site_spans.len - 1;
}

LcuExpr *fl_site(Fl *F, const Ctx *cx, Span sp)
{
    return cx->site ? X_var(F, cx->site) : X_int(F, site_index(F, sp));
}

static LcuExpr *check_call(Fl *F, const Ctx *cx, Span sp, LcuExpr *cond, const char *msg)
{
    LcuExpr *args[3] = { cond, fl_site(F, cx, sp), lcu_e_string(F->a, NOSPAN, msg, (int)strlen(msg)) };
    return X_call(F, "check", 3, args);
}

void fl_check(Fl *F, const Ctx *cx, Span sp, LcuExpr *cond, const char *msg)
{
    fl_emit(F, T_base(F, LB_UNIT), check_call(F, cx, sp, cond, msg));
}

void fl_check_lifted(Fl *F, const Ctx *cx, Span sp, LcuExpr *cond, const char *msg)
{
    LcuExpr *call = check_call(F, cx, sp, cond, msg);
    ptrvec_push(F->a, &F->empty_safe, call);
    fl_emit(F, T_base(F, LB_UNIT), call);
}

bool fl_check_empty_safe(const Fl *F, const LcuExpr *call)
{
    for (int i = 0; i < F->empty_safe.len; i++)
        if (F->empty_safe.items[i] == call) return true;
    return false;
}
