/* run_flat.c — running a flattened program: the reference interpreter's
 * top-level loop with each value form computed by its λcu function, and the
 * host bridge that answers λcu's `lib nesl_ID` (the interpreter's
 * primitives), `lib global` (global variables) and `lib clock`.
 *
 * Values cross between the two interpreters in the flat representation of
 * flatten.h: a NESL value of type t is U(t), a list of n values L(t).  Both
 * directions follow the layout table, datatypes through their field types
 * (parameters substituted), closures through the variables they capture. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_flat.h"
#include "toplevel.h"
#include "../frontend/frontend.h"

#define MAX_PRIM_ARITY 8

typedef struct BridgeType {     /* a parsed tag "L|ARG|RES" or "U|ARG|RES" */
    const char *tag;
    bool lifted;
    Type *arg, *res, *fun;      /* fun: ARG -> RES, the primitive's instance */
} BridgeType;

typedef struct GlobalInfo { Sym name; Type *type; } GlobalInfo;

typedef struct RunFlat {
    Compilation *c;
    const MonoProgram *mono;
    const FlatProgram *fp;
    const LcuProgram *prog;
    FILE *out, *err;            /* λcu's streams: the interpreter's */
    LcuStats *stats;            /* accumulated over the forms */
    Interp *I;                  /* the interpreter running the forms */
    GlobalInfo *globals;        /* by global index */
    PtrVec datas;               /* DataDecl *, library first, user last */
    PtrVec bridge;              /* BridgeType * */
    int cursor;                 /* where the search for the next FlatForm starts */
    int internal_errors;        /* forms λcu failed with an internal error */
} RunFlat;

/* Flat components being read: v[k..n). */
typedef struct Comps { LcuVal **v; int n, k; } Comps;

/* One conversion: values go to I->heap and li, temporaries to tmp.
 * A bridge tag's types have no function identities: the components of a
 * function value there are unknown, taken to be the surplus of the
 * arguments over the rest of the layout (all of it for the first such
 * function value); its value is a stand-in that prints as a function. */
typedef struct Cv {
    RunFlat *rf;
    Interp *I;
    LcuInterp *li;
    Arena *tmp;
    int unknown;                /* components of an identity-less function value */
} Cv;

/* ------------------------------------------------------------------ types */

/* A function type's identity, or NULL (types parsed from bridge tags). */
static Type *fun_ident(Type *t)
{
    Type *id = t->ident ? type_prune(t->ident) : NULL;
    return id && id->kind == TY_FUNID ? id : NULL;
}

static int arity(Type *t, bool lifted)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: return 1;
    case TY_SEQ: return (lifted ? 1 : 0) + arity(t->elem, true);
    case TY_PAIR: return arity(t->fst, lifted) + arity(t->snd, lifted);
    case TY_DATA: return flat_arity(t, lifted);
    case TY_FUN: return fun_ident(t) ? flat_arity(t, lifted) : 0;
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: bad value type %d", (int)t->kind);
}

/* ------------------------------------------------------------------ scalars */

static LcuBase base_of(TypeKind k)
{
    switch (k) {
    case TY_INT: case TY_STREAM: return LB_INT;
    case TY_FLOAT: return LB_FLOAT;
    case TY_BOOL: return LB_BOOL;
    case TY_CHAR: return LB_CHAR;
    case TY_SEQ: case TY_PAIR: case TY_DATA: case TY_FUN: case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: %d is not a scalar type", (int)k);
}

static LcuScalar to_scalar(Value v, TypeKind k)
{
    LcuScalar s = { 0 };
    if (k == TY_FLOAT) s.f = v.f;
    else if (k == TY_BOOL) s.i = v.b;
    else if (k == TY_CHAR) s.i = v.c;
    else s.i = v.i;
    return s;
}

static Value from_scalar(LcuScalar s, TypeKind k)
{
    switch (k) {
    case TY_INT: return v_int((int32_t)(uint32_t)s.i);
    case TY_FLOAT: return v_float(s.f);
    case TY_BOOL: return v_bool(s.i != 0);
    case TY_CHAR: return v_char((uint8_t)s.i);
    case TY_STREAM: {
        Value v;
        v.kind = V_STREAM;
        v.i = (int32_t)s.i;
        return v;
    }
    case TY_SEQ: case TY_PAIR: case TY_DATA: case TY_FUN: case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: %d is not a scalar type", (int)k);
}

/* ------------------------------------------------------------------ closures */

static Value closure_slot(Value f, Binder *b)
{
    if (f.kind != V_FUN || !f.fn || f.fn->kind != CLO_LAMBDA || b->slot < 0 || b->slot >= f.fn->nframe)
        ICE("value bridge: a function value does not match its lambda type");
    return f.fn->frame[b->slot];
}

/* The function value of type t whose captured variables bs hold vals. */
static Value make_closure(Cv *cv, Type *t, int nc, Binder **bs, const Value *vals)
{
    Type *id = fun_ident(t);
    Closure *c = arena_alloc(cv->I->heap, sizeof *c);
    switch (id ? id->funid_kind : FID_NONE) {
    case FID_NONE: c->kind = CLO_FUN; break;
    case FID_FUN: c->kind = CLO_FUN; c->fun = (FunDecl *)id->funid; break;
    case FID_CON: c->kind = CLO_CON; c->con = (DataDecl *)id->funid; break;
    case FID_PRIM:
        c->kind = CLO_PRIM;
        c->prim = (int)((const PrimInfo *)id->funid - prim_info);
        c->inst = t;
        break;
    case FID_LAMBDA: {
        Expr *lam = (Expr *)id->funid;
        c->kind = CLO_LAMBDA;
        c->lambda = lam;
        c->nframe = lam->nslots;
        c->frame = arena_alloc(cv->I->heap, sizeof *c->frame * (size_t)(lam->nslots > 0 ? lam->nslots : 1));
        for (int i = 0; i < nc; i++) {
            if (bs[i]->slot < 0 || bs[i]->slot >= lam->nslots) ICE("value bridge: captured variable outside its frame");
            c->frame[bs[i]->slot] = vals[i];
        }
        break;
    }
    }
    Value v;
    v.kind = V_FUN;
    v.fn = c;
    return v;
}

/* An identity-less function value: skip its components (each a scalar, or
 * a vector of n elements when lifted). */
static Value unknown_function(Cv *cv, Comps *cs, Type *t)
{
    if (cs->k + cv->unknown > cs->n) ICE("value bridge: too few flat components");
    cs->k += cv->unknown;
    cv->unknown = 0;
    return make_closure(cv, t, 0, NULL, NULL);
}

/* ------------------------------------------------------------------ Value → flat */

static void put(Cv *cv, PtrVec *out, LcuVal *v) { ptrvec_push(cv->tmp, out, v); }

static Value *tmp_values(Cv *cv, int64_t n)
{
    return arena_alloc(cv->tmp, sizeof(Value) * (size_t)(n > 0 ? n : 1));
}

static void to_l(Cv *cv, const Value *vs, int64_t n, Type *t, PtrVec *out);

static void to_u(Cv *cv, Value v, Type *t, PtrVec *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM:
        put(cv, out, lcu_val_scalar(cv->li, base_of(t->kind), to_scalar(v, t->kind)));
        return;
    case TY_SEQ: to_l(cv, v.seq->elems, v.seq->len, t->elem, out); return;
    case TY_PAIR:
        to_u(cv, v.pair->fst, t->fst, out);
        to_u(cv, v.pair->snd, t->snd, out);
        return;
    case TY_DATA: {
        to_u(cv, v.data->fields, flat_data_fields(cv->tmp, t), out);
        return;
    }
    case TY_FUN: {
        Binder **bs;
        Type **ts;
        int nc = flat_closure_captures(cv->tmp, t, &bs, &ts);
        for (int i = 0; i < nc; i++) to_u(cv, closure_slot(v, bs[i]), ts[i], out);
        return;
    }
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: bad value type %d", (int)t->kind);
}

static void to_l(Cv *cv, const Value *vs, int64_t n, Type *t, PtrVec *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: {
        LcuVal *vec = lcu_val_vec(cv->li, base_of(t->kind), n);
        for (int64_t i = 0; i < n; i++) vec->data[i] = to_scalar(vs[i], t->kind);
        put(cv, out, vec);
        return;
    }
    case TY_SEQ: {
        LcuVal *sd = lcu_val_sd(cv->li, n);
        int64_t total = 0;
        for (int64_t i = 0; i < n; i++) total += sd->data[i].i = vs[i].seq->len;
        Value *all = tmp_values(cv, total);
        for (int64_t i = 0, k = 0; i < n; k += vs[i].seq->len, i++)
            memcpy(all + k, vs[i].seq->elems, sizeof(Value) * (size_t)vs[i].seq->len);
        put(cv, out, sd);
        to_l(cv, all, total, t->elem, out);
        return;
    }
    case TY_PAIR: {
        Value *a = tmp_values(cv, n), *b = tmp_values(cv, n);
        for (int64_t i = 0; i < n; i++) { a[i] = vs[i].pair->fst; b[i] = vs[i].pair->snd; }
        to_l(cv, a, n, t->fst, out);
        to_l(cv, b, n, t->snd, out);
        return;
    }
    case TY_DATA: {
        Value *f = tmp_values(cv, n);
        for (int64_t i = 0; i < n; i++) f[i] = vs[i].data->fields;
        to_l(cv, f, n, flat_data_fields(cv->tmp, t), out);
        return;
    }
    case TY_FUN: {
        Binder **bs;
        Type **ts;
        int nc = flat_closure_captures(cv->tmp, t, &bs, &ts);
        for (int c = 0; c < nc; c++) {
            Value *col = tmp_values(cv, n);
            for (int64_t i = 0; i < n; i++) col[i] = closure_slot(vs[i], bs[c]);
            to_l(cv, col, n, ts[c], out);
        }
        return;
    }
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: bad value type %d", (int)t->kind);
}

/* ------------------------------------------------------------------ flat → Value */


static LcuVal *next_comp(Comps *cs, LcuValKind want, int64_t len)
{
    if (cs->k >= cs->n) ICE("value bridge: too few flat components");
    LcuVal *v = cs->v[cs->k++];
    if (v->kind != want || (want != LV_SCALAR && v->len != len))
        ICE("value bridge: flat component %d has kind %d (length %lld), expected kind %d (length %lld)",
            cs->k - 1, (int)v->kind, (long long)v->len, (int)want, (long long)len);
    return v;
}

static void from_l(Cv *cv, Comps *cs, int64_t n, Type *t, Value *out);

static Value from_u(Cv *cv, Comps *cs, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM:
        return from_scalar(next_comp(cs, LV_SCALAR, 0)->s, t->kind);
    case TY_SEQ: {
        if (arity(t->elem, true) == 0)
            ICE("value bridge: a sequence whose elements have no flat components");
        if (cs->k >= cs->n) ICE("value bridge: too few flat components");
        int64_t count = cs->v[cs->k]->len;    /* the first component of L(elem) */
        Seq *s = seq_alloc(cv->I->heap, count);
        from_l(cv, cs, count, t->elem, s->elems);
        return v_seq(s);
    }
    case TY_PAIR: {
        Value a = from_u(cv, cs, t->fst);
        Value b = from_u(cv, cs, t->snd);
        return v_pair(cv->I->heap, a, b);
    }
    case TY_DATA: {
        return v_data(cv->I->heap, t->data, from_u(cv, cs, flat_data_fields(cv->tmp, t)));
    }
    case TY_FUN: {
        if (!fun_ident(t)) return unknown_function(cv, cs, t);
        Binder **bs;
        Type **ts;
        int nc = flat_closure_captures(cv->tmp, t, &bs, &ts);
        Value *vals = tmp_values(cv, nc);
        for (int i = 0; i < nc; i++) vals[i] = from_u(cv, cs, ts[i]);
        return make_closure(cv, t, nc, bs, vals);
    }
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: bad value type %d", (int)t->kind);
}

static void from_l(Cv *cv, Comps *cs, int64_t n, Type *t, Value *out)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: {
        LcuVal *vec = next_comp(cs, LV_VEC, n);
        for (int64_t i = 0; i < n; i++) out[i] = from_scalar(vec->data[i], t->kind);
        return;
    }
    case TY_SEQ: {
        LcuVal *sd = next_comp(cs, LV_SD, n);
        int64_t total = 0;
        for (int64_t i = 0; i < n; i++) total += sd->data[i].i;
        Value *all = tmp_values(cv, total);
        from_l(cv, cs, total, t->elem, all);
        for (int64_t i = 0, k = 0; i < n; k += sd->data[i].i, i++) {
            Seq *s = seq_alloc(cv->I->heap, sd->data[i].i);
            memcpy(s->elems, all + k, sizeof(Value) * (size_t)s->len);
            out[i] = v_seq(s);
        }
        return;
    }
    case TY_PAIR: {
        Value *a = tmp_values(cv, n), *b = tmp_values(cv, n);
        from_l(cv, cs, n, t->fst, a);
        from_l(cv, cs, n, t->snd, b);
        for (int64_t i = 0; i < n; i++) out[i] = v_pair(cv->I->heap, a[i], b[i]);
        return;
    }
    case TY_DATA: {
        Value *f = tmp_values(cv, n);
        from_l(cv, cs, n, flat_data_fields(cv->tmp, t), f);
        for (int64_t i = 0; i < n; i++) out[i] = v_data(cv->I->heap, t->data, f[i]);
        return;
    }
    case TY_FUN: {
        if (!fun_ident(t)) {
            out[0] = unknown_function(cv, cs, t);
            for (int64_t i = 1; i < n; i++) out[i] = out[0];
            return;
        }
        Binder **bs;
        Type **ts;
        int nc = flat_closure_captures(cv->tmp, t, &bs, &ts);
        Value **cols = arena_alloc(cv->tmp, sizeof *cols * (size_t)(nc > 0 ? nc : 1));
        for (int c = 0; c < nc; c++) {
            cols[c] = tmp_values(cv, n);
            from_l(cv, cs, n, ts[c], cols[c]);
        }
        Value *vals = tmp_values(cv, nc);
        for (int64_t i = 0; i < n; i++) {
            for (int c = 0; c < nc; c++) vals[c] = cols[c][i];
            out[i] = make_closure(cv, t, nc, bs, vals);
        }
        return;
    }
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value bridge: bad value type %d", (int)t->kind);
}

/* ------------------------------------------------------------------ bridge types */

static DataDecl *find_datatype(RunFlat *rf, Sym name)
{
    for (int i = rf->datas.len - 1; i >= 0; i--) {
        DataDecl *d = rf->datas.items[i];
        if (d->name == name || !strcmp(d->name, name)) return d;
    }
    return NULL;
}

static Type *texpr_type(RunFlat *rf, TypeExpr *te)
{
    Arena *A = rf->c->arena;
    switch (te->kind) {
    case TE_INT: return type_base(A, TY_INT);
    case TE_FLOAT: return type_base(A, TY_FLOAT);
    case TE_BOOL: return type_base(A, TY_BOOL);
    case TE_CHAR: return type_base(A, TY_CHAR);
    case TE_SEQ: return type_seq(A, texpr_type(rf, te->a));
    case TE_PAIR: return type_pair(A, texpr_type(rf, te->a), texpr_type(rf, te->b));
    case TE_FUN: return type_fun(A, texpr_type(rf, te->a), texpr_type(rf, te->b), NULL);
    case TE_NAME: {
        if (te->nargs == 0 && !strcmp(te->name, "stream")) return type_base(A, TY_STREAM);
        DataDecl *d = find_datatype(rf, te->name);
        if (!d || d->nctx != te->nargs) ICE("value bridge: unknown type '%s' in a bridge tag", te->name);
        Type *t = type_new(A, TY_DATA);
        t->data = d;
        t->nargs = te->nargs;
        t->args = arena_alloc(A, sizeof *t->args * (size_t)(te->nargs + 1));
        for (int i = 0; i < te->nargs; i++) t->args[i] = texpr_type(rf, te->args[i]);
        return t;
    }
    }
    ICE("value bridge: bad type expression kind %d", (int)te->kind);
}

static Type *parse_bridge_type(RunFlat *rf, const char *text, size_t len)
{
    Arena *A = rf->c->arena;
    char *buf = arena_alloc(A, len + 3);
    buf[0] = '(';
    memcpy(buf + 1, text, len);
    buf[len + 1] = ')';
    Source *src = arena_alloc(A, sizeof *src);
    *src = (Source){ "<bridge type>", buf, len + 2 };
    Context *ctx = NULL;
    int nctx = 0;
    TypeExpr *te = parse_type_text(rf->c, src, &ctx, &nctx);
    if (!te) ICE("value bridge: cannot parse the type '%.*s'", (int)len, text);
    return texpr_type(rf, te);
}

static const BridgeType *bridge_type(RunFlat *rf, const char *tag)
{
    for (int i = 0; i < rf->bridge.len; i++) {
        const BridgeType *b = rf->bridge.items[i];
        if (b->tag == tag || !strcmp(b->tag, tag)) return b;
    }
    const char *bar = tag[0] && tag[1] == '|' ? strchr(tag + 2, '|') : NULL;
    if (!bar || (tag[0] != 'L' && tag[0] != 'U')) ICE("value bridge: bad tag \"%s\"", tag);
    BridgeType *b = arena_alloc(rf->c->arena, sizeof *b);
    b->tag = arena_strndup(rf->c->arena, tag, strlen(tag));
    b->lifted = tag[0] == 'L';
    b->arg = parse_bridge_type(rf, tag + 2, (size_t)(bar - (tag + 2)));
    b->res = parse_bridge_type(rf, bar + 1, strlen(bar + 1));
    b->fun = type_fun(rf->c->arena, b->arg, b->res, NULL);
    ptrvec_push(rf->c->arena, &rf->bridge, b);
    return b;
}

/* ------------------------------------------------------------------ the hook
 * Library calls that λcu leaves to the host:
 *   nesl_ID "L|ARG|RES" (site, n, args...)   primitive ID on n arguments, in order
 *   nesl_ID "U|ARG|RES" (site, args...)      primitive ID once
 *   global "NAME|TYPE" (site, index)         the value of a global variable
 *   clock "" ()                              seconds, for time(e) */

typedef enum { CALL_PRIM, CALL_GLOBAL, CALL_CLOCK } CallKind;

typedef struct Call {
    CallKind kind;
    int prim;                   /* CALL_PRIM */
    const BridgeType *bt;       /* CALL_PRIM */
    const char *tag;
    int64_t n;                  /* CALL_PRIM lifted: the count; CALL_GLOBAL: the index */
    Span where;
    Comps cs;                   /* CALL_PRIM: the argument's components */
    const LcuType *result;
} Call;

static int prim_of(const char *name)
{
    if (strncmp(name, "nesl_", 5) != 0) return -1;
    for (int p = 0; p < PRIM__COUNT; p++)
        if (!strcmp(name + 5, prim_id_name(p))) return p;
    return -1;
}

/* A k-ary primitive on the k top-level components of its argument. */
static Value apply_prim(Interp *I, int prim, const BridgeType *bt, Value arg, Span where)
{
    Value args[MAX_PRIM_ARITY];
    int k = prim_info[prim].arity;
    if (k < 1 || k > MAX_PRIM_ARITY) ICE("primitive %s has unsupported arity %d", prim_info[prim].name, k);
    for (int j = 0; j < k - 1; j++) {
        if (arg.kind != V_PAIR) ICE("value bridge: primitive argument is not a tuple");
        args[j] = arg.pair->fst;
        arg = arg.pair->snd;
    }
    args[k - 1] = arg;
    return prim_impls[prim](I, args, bt->fun, where);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static LcuVal *run_call(Cv *cv, Call *c)
{
    Interp *I = cv->I;
    PtrVec out = { 0 };
    switch (c->kind) {
    case CALL_PRIM:
        cv->unknown = c->cs.n - arity(c->bt->arg, c->bt->lifted);
        if (cv->unknown < 0) ICE("value bridge: %d flat arguments for \"%s\"", c->cs.n, c->tag);
        if (!c->bt->lifted) {
            Value r = apply_prim(I, c->prim, c->bt, from_u(cv, &c->cs, c->bt->arg), c->where);
            to_u(cv, r, c->bt->res, &out);
        } else {
            Value *as = tmp_values(cv, c->n), *rs = tmp_values(cv, c->n);
            from_l(cv, &c->cs, c->n, c->bt->arg, as);
            for (int64_t i = 0; i < c->n; i++) rs[i] = apply_prim(I, c->prim, c->bt, as[i], c->where);
            to_l(cv, rs, c->n, c->bt->res, &out);
        }
        if (c->cs.k != c->cs.n) ICE("value bridge: %d flat arguments for %d components", c->cs.n, c->cs.k);
        break;
    case CALL_GLOBAL: {
        int64_t g = c->n;
        const char *bar = strchr(c->tag, '|');
        int len = bar ? (int)(bar - c->tag) : (int)strlen(c->tag);
        if (g < 0 || g >= I->nglobals || !I->global_set[g])
            rt_error(I, c->where, "Variable %.*s is unbound because its definition failed.", len, c->tag);
        Type *t = cv->rf->globals[g].type;
        if (!t && bar) t = parse_bridge_type(cv->rf, bar + 1, strlen(bar + 1));
        if (!t) ICE("value bridge: global %lld has no type", (long long)g);
        to_u(cv, I->globals[g], t, &out);
        break;
    }
    case CALL_CLOCK: {
        LcuScalar s = { 0 };
        s.f = now_seconds();
        ptrvec_push(cv->tmp, &out, lcu_val_scalar(cv->li, LB_FLOAT, s));
        break;
    }
    }
    /* A value without components travels as a unit (or [unit]) stand-in. */
    if (out.len == 0 && c->result && lcu_t_arity(c->result) == 1 && c->result->base == LB_UNIT) {
        LcuScalar u = { 0 };
        if (c->result->kind == LT_BASE)
            ptrvec_push(cv->tmp, &out, lcu_val_scalar(cv->li, LB_UNIT, u));
        else if (c->result->kind == LT_VEC || c->result->kind == LT_REF)
            ptrvec_push(cv->tmp, &out, lcu_val_vec(cv->li, LB_UNIT, c->kind == CALL_PRIM ? c->n : 1));
    }
    if (c->result && out.len != lcu_t_arity(c->result))
        ICE("value bridge: %d result components, the call of \"%s\" declares %d", out.len, c->tag, lcu_t_arity(c->result));
    return lcu_val_tuple(cv->li, out.len, (LcuVal **)out.items);
}

/* run_call under its own error context: a runtime error (already reported
 * at its site) gives NULL, so that λcu unwinds. */
static LcuVal *guarded_call(Cv *cv, Call *c)
{
    RtErrorCtx ectx;
    RtErrorCtx *saved = cv->I->errctx;
    LcuVal *r;
    ectx.active = true;
    cv->I->errctx = &ectx;
    if (setjmp(ectx.jb) == 0)
        r = run_call(cv, c);
    else
        r = NULL;
    ectx.active = false;
    cv->I->errctx = saved;
    return r;
}

static Span site_span(RunFlat *rf, const LcuVal *site)
{
    if (site->kind != LV_SCALAR) ICE("value bridge: the site argument is not an int");
    int64_t s = site->s.i;
    return s >= 0 && s < rf->fp->flan->nsites ? rf->fp->site_spans[s] : (Span){ 0 };
}

/* An unbound global read for no elements (lib global with a count of 0,
 * flatten/expr.c guarded_body): zeros and empty vectors of its type. */
static LcuVal *stand_ins(LcuInterp *li, const LcuType *t)
{
    int n = lcu_t_arity(t);
    LcuVal **cs = calloc((size_t)n + 1, sizeof *cs);
    for (int k = 0; k < n; k++) {
        const LcuType *ct = lcu_t_component(t, k);
        LcuScalar z = { 0 };
        cs[k] = ct->kind == LT_SD ? lcu_val_sd(li, 0) : ct->kind == LT_BASE ? lcu_val_scalar(li, ct->base, z) : lcu_val_vec(li, ct->base, 0);
    }
    LcuVal *r = lcu_val_tuple(li, n, cs);
    free(cs);
    return r;
}

static LcuVal *bridge_hook(void *ctx, LcuInterp *li, const char *name, const char *tag,
                           int nargs, LcuVal **args, const LcuType *result)
{
    RunFlat *rf = ctx;
    Call c = { .tag = tag, .result = result };
    if (!strcmp(name, "global")) {
        if (nargs != 2 && nargs != 3) ICE("value bridge: global \"%s\" called with %d arguments", tag, nargs);
        c.kind = CALL_GLOBAL;
        c.where = site_span(rf, args[0]);
        c.n = args[1]->s.i;
        int64_t g = c.n;
        if (nargs == 3 && args[2]->s.i == 0 && (g < 0 || g >= rf->I->nglobals || !rf->I->global_set[g]))
            return stand_ins(li, result);
    } else if (!strcmp(name, "clock")) {
        c.kind = CALL_CLOCK;
    } else {
        c.kind = CALL_PRIM;
        c.prim = prim_of(name);
        if (c.prim < 0) ICE("λcu library call '%s' has no implementation", name);
        c.bt = bridge_type(rf, tag);
        int first = c.bt->lifted ? 2 : 1;
        if (nargs < first) ICE("value bridge: %s \"%s\" called with %d arguments", name, tag, nargs);
        c.where = site_span(rf, args[0]);
        c.n = c.bt->lifted ? args[1]->s.i : 1;
        c.cs = (Comps){ args + first, nargs - first, 0 };
    }
    Cv cv = { rf, rf->I, li, arena_new(), 0 };
    LcuVal *r = guarded_call(&cv, &c);
    arena_free(cv.tmp);
    fflush(rf->I->out);
    return r;
}

/* ------------------------------------------------------------------ forms */

static const FlatForm *find_flat_form(RunFlat *rf, TopForm *form)
{
    int n = rf->fp->nforms;
    for (int j = 0; j < n; j++) {
        int i = (rf->cursor + j) % n;
        if (rf->fp->forms[i].form == form) {
            rf->cursor = i + 1;
            return &rf->fp->forms[i];
        }
    }
    ICE("no flattened function for the form at %d:%d", form->span.line, form->span.col);
}

static const LcuFun *find_fun(const LcuProgram *p, Sym name)
{
    for (int i = 0; i < p->nfuns; i++)
        if (p->funs[i]->name == name || !strcmp(p->funs[i]->name, name)) return p->funs[i];
    ICE("the λcu program has no function '%s'", name);
}

static Value eval_flat_form(Interp *I, TopForm *form, void *ctx)
{
    RunFlat *rf = ctx;
    rf->I = I;
    const FlatForm *ff = find_flat_form(rf, form);
    for (int i = 0; i < ff->nglobals; i++) {
        int g = ff->globals[i];
        if (g < 0 || g >= I->nglobals || !I->global_set[g])
            rt_error(I, ff->global_spans[i], "Variable %s is unbound because its definition failed.",
                     g >= 0 && g < I->nglobals && rf->globals[g].name ? rf->globals[g].name : "?");
    }
    const LcuFun *fn = find_fun(rf->prog, ff->fun);
    /* A λcu interpreter per form: its values live until the form's end. */
    LcuInterp *li = lcu_interp_new(rf->prog, rf->out, rf->err, rf->stats);
    lcu_interp_set_hook(li, bridge_hook, rf);
    lcu_interp_set_guarded(li, true);
    Cv cv = { rf, I, li, arena_new(), 0 };
    PtrVec flat = { 0 }, grouped = { 0 };
    for (int i = 0; i < ff->nglobals; i++) {
        int g = ff->globals[i], before = flat.len;
        if (!rf->globals[g].type) ICE("global %d has no type", g);
        to_u(&cv, I->globals[g], rf->globals[g].type, &flat);
        ptrvec_push(cv.tmp, &grouped,
                    lcu_val_tuple(li, flat.len - before, (LcuVal **)flat.items + before));
    }
    /* One parameter per flat component, or one (a tuple) per global. */
    PtrVec *args = fn->nparams == flat.len ? &flat : fn->nparams == grouped.len ? &grouped : NULL;
    if (!args) ICE("λcu function '%s' takes %d parameters for %d globals (%d components)",
                   ff->fun, fn->nparams, grouped.len, flat.len);
    fflush(I->out);
    LcuVal *res = NULL;
    if (!lcu_interp_call(li, ff->fun, args->len, (LcuVal **)args->items, &res)) {
        /* λcu reported the error at its site: abort the form quietly. */
        if (lcu_interp_failure(li) == LCU_FAIL_INTERNAL) rf->internal_errors++;
        arena_free(cv.tmp);
        lcu_interp_free(li);
        fflush(I->err);
        if (!I->errctx || !I->errctx->active) ICE("λcu runtime error outside a top-level form");
        longjmp(I->errctx->jb, 1);
    }
    Type *t = form->expr->type;
    int want = flat_arity(t, false);
    Comps cs = res && res->kind == LV_TUPLE ? (Comps){ res->elems, res->n, 0 } : (Comps){ &res, res ? 1 : 0, 0 };
    if (want == 0) cs.n = 0;      /* nothing to read (a unit stand-in, if any) */
    if (cs.n != want) ICE("λcu function '%s' returned %d components, %d expected", ff->fun, cs.n, want);
    Value v = from_u(&cv, &cs, t);
    arena_free(cv.tmp);
    lcu_interp_free(li);
    return v;
}

/* ------------------------------------------------------------------ setup */

static void note_globals(RunFlat *rf, Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR:
        if (p->binder->is_global && p->binder->global_index >= 0 && p->binder->global_index < rf->mono->nglobals)
            rf->globals[p->binder->global_index] = (GlobalInfo){ p->binder->name, p->type };
        return;
    case PAT_PAIR: note_globals(rf, p->fst); note_globals(rf, p->snd); return;
    case PAT_CON: note_globals(rf, p->sub); return;
    }
    ICE("bad pattern kind %d", (int)p->kind);
}

static void note_datatypes(RunFlat *rf, const Program *p)
{
    for (int i = 0; p && i < p->nforms; i++)
        if (p->forms[i]->kind == TOP_DATA && p->forms[i]->data)
            ptrvec_push(rf->c->arena, &rf->datas, p->forms[i]->data);
}

int run_flat_program(Compilation *c, const MonoProgram *mono, const FlatProgram *fp,
                     const LcuProgram *prog, const InterpOptions *opt, LcuStats *stats)
{
    RunFlat rf = { .c = c, .mono = mono, .fp = fp, .prog = prog };
    rf.globals = arena_alloc(c->arena, sizeof *rf.globals * (size_t)(mono->nglobals > 0 ? mono->nglobals : 1));
    for (int i = 0; i < mono->prog.nforms; i++)
        if (mono->prog.forms[i]->kind == TOP_BIND && mono->prog.forms[i]->pat)
            note_globals(&rf, mono->prog.forms[i]->pat);
    note_datatypes(&rf, c->prelude);
    note_datatypes(&rf, &mono->prog);
    rf.out = opt->out ? opt->out : stdout;
    rf.err = opt->err ? opt->err : stderr;
    rf.stats = stats;
    int failures = interp_program_with(mono, opt, eval_flat_form, &rf);
    return rf.internal_errors ? -1 : failures;
}
