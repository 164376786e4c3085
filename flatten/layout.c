/* layout.c — the flat representation of NESL types (the table in flatten.h):
 * the λcu component types of a value, unlifted (U) or lifted (L), and the
 * variables a lambda captures (the components of its function values). */
#include <string.h>
#include "flatten.h"

/* Substitution of a datatype's parameters by the arguments of the TY_DATA
 * being laid out; an argument is itself read in the enclosing environment. */
typedef struct DEnv {
    Type **params, **args;
    int n;
    const struct DEnv *parent;
} DEnv;

/* Follows links and datatype parameters; ICE on a variable nothing binds. */
static Type *resolve(Type *t, const DEnv **env)
{
    for (;;) {
        t = type_prune(t);
        if (!t) ICE("flat_layout: missing type");
        if (t->kind != TY_VAR) return t;
        bool found = false;
        for (const DEnv *e = *env; e && !found; e = e->parent)
            for (int i = 0; i < e->n; i++)
                if (type_prune(e->params[i]) == t) {
                    t = e->args[i];
                    *env = e->parent;
                    found = true;
                    break;
                }
        if (!found) ICE("flat_layout: type variable %d is not monomorphic", t->var_id);
    }
}

static bool in_vec(const PtrVec *v, const void *x);

/* Bind the type variables of generic type g to the parts of concrete c. */
static void match(Arena *a, PtrVec *vars, PtrVec *tys, Type *g, Type *c)
{
    g = type_prune(g);
    c = type_prune(c);
    if (!g || !c) return;
    if (g->kind == TY_VAR) {
        if (!in_vec(vars, g)) {
            ptrvec_push(a, vars, g);
            ptrvec_push(a, tys, c);
        }
        return;
    }
    if (g->kind != c->kind) return;
    switch (g->kind) {
    case TY_SEQ: match(a, vars, tys, g->elem, c->elem); return;
    case TY_PAIR: match(a, vars, tys, g->fst, c->fst); match(a, vars, tys, g->snd, c->snd); return;
    case TY_FUN: match(a, vars, tys, g->arg, c->arg); match(a, vars, tys, g->res, c->res); return;
    case TY_DATA:
        for (int i = 0; i < g->nargs && i < c->nargs; i++) match(a, vars, tys, g->args[i], c->args[i]);
        return;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: return;
    case TY_VAR: return;
    }
}

/* A lambda in a polymorphic function stands for all its instances, and the
 * types of its captured variables are generic: the instance at hand is read
 * off the concrete function type t (variables that t does not determine are
 * not supported: resolve() reports them). */
static DEnv lambda_instance(Arena *tmp, Expr *lam, Type *t)
{
    PtrVec vars = { 0 }, tys = { 0 };
    match(tmp, &vars, &tys, lam->type, t);
    return (DEnv){ (Type **)vars.items, (Type **)tys.items, vars.len, NULL };
}

/* What a walk of layout() writes (NULL: only count): the component types
 * appended to types (unless NULL) and, of a lifted layout, the parent of the
 * component at index i (LcuLiftShape, lcu.h) at parents[i - base] (unless
 * NULL). */
typedef struct LayoutOut {
    Arena *a;
    PtrVec *types;
    int *parents;
    int base;
} LayoutOut;

/* Lays out t's components from index `at` of the list on; `parent` is what
 * the top-level ones count (in a lifted layout).  Returns their number. */
static int layout(const LayoutOut *o, Type *t, const DEnv *env, bool lifted, int parent, int at)
{
    t = resolve(t, &env);
    LcuBase b = LB_INT;
    switch (t->kind) {
    case TY_INT: case TY_STREAM: b = LB_INT; break;
    case TY_FLOAT: b = LB_FLOAT; break;
    case TY_BOOL: b = LB_BOOL; break;
    case TY_CHAR: b = LB_CHAR; break;
    case TY_SEQ:
        if (!lifted)   /* U([s]) = L(s) counting the sequence's length, no component */
            return layout(o, t->elem, env, true, LCU_LIFT_UNIFORM, at);
        if (o && o->types) ptrvec_push(o->a, o->types, (void *)lcu_t_sd(o->a));
        if (o && o->parents) o->parents[at - o->base] = parent;
        return 1 + layout(o, t->elem, env, true, at, at + 1);
    case TY_PAIR: {
        int n = layout(o, t->fst, env, lifted, parent, at);
        return n + layout(o, t->snd, env, lifted, parent, at + n);
    }
    case TY_DATA: {
        DataDecl *d = t->data;
        DEnv inner = { d->params, t->args, t->nargs < d->nctx ? t->nargs : d->nctx, env };
        return layout(o, d->field_type, &inner, lifted, parent, at);
    }
    case TY_FUN: {
        Type *id = t->ident ? type_prune(t->ident) : NULL;
        if (!id || id->kind != TY_FUNID)
            ICE("flat_layout: a function type without a function identity");
        if (id->funid_kind != FID_LAMBDA)
            return 0;                   /* named function, primitive, constructor */
        Arena *tmp = arena_new();
        Expr *lam = (Expr *)id->funid;
        Binder **bs;
        Type **ts;
        int nc = flat_lambda_captures(tmp, lam, &bs, &ts);
        DEnv inst = lambda_instance(tmp, lam, t);
        int n = 0;
        for (int i = 0; i < nc; i++) n += layout(o, ts[i], &inst, lifted, parent, at + n);
        arena_free(tmp);
        return n;
    }
    case TY_FUNID: ICE("flat_layout: a function identity is not a value type");
    case TY_VAR: ICE("flat_layout: unresolved type variable");
    }
    if (o && o->types) ptrvec_push(o->a, o->types, (void *)(lifted ? lcu_t_vec(o->a, b) : lcu_t_base(o->a, b)));
    if (o && o->parents) o->parents[at - o->base] = parent;
    return 1;
}

/* t with every variable replaced through env: a concrete type. */
static Type *concrete(Arena *a, Type *t, const DEnv *env)
{
    t = resolve(t, &env);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: case TY_VAR:
        return t;
    case TY_SEQ: return type_seq(a, concrete(a, t->elem, env));
    case TY_PAIR: return type_pair(a, concrete(a, t->fst, env), concrete(a, t->snd, env));
    case TY_FUN: return type_fun(a, concrete(a, t->arg, env), concrete(a, t->res, env), t->ident);
    case TY_DATA: {
        Type *d = type_new(a, TY_DATA);
        d->data = t->data;
        d->nargs = t->nargs;
        d->args = arena_alloc(a, sizeof *d->args * (size_t)(t->nargs + 1));
        for (int i = 0; i < t->nargs; i++) d->args[i] = concrete(a, t->args[i], env);
        return d;
    }
    }
    return t;
}

Type *flat_data_fields(Arena *a, Type *data_type)
{
    Type *t = type_prune(data_type);
    DataDecl *d = t->data;
    DEnv inner = { d->params, t->args, t->nargs < d->nctx ? t->nargs : d->nctx, NULL };
    return concrete(a, d->field_type, &inner);
}

int flat_closure_captures(Arena *a, Type *fun_type, Binder ***out_binders, Type ***out_types)
{
    Type *t = type_prune(fun_type);
    Type *id = t->kind == TY_FUN && t->ident ? type_prune(t->ident) : NULL;
    if (!id || id->kind != TY_FUNID || id->funid_kind != FID_LAMBDA) {
        *out_binders = arena_alloc(a, sizeof **out_binders);
        *out_types = arena_alloc(a, sizeof **out_types);
        return 0;
    }
    Expr *lam = (Expr *)id->funid;
    Type **ts;
    int nc = flat_lambda_captures(a, lam, out_binders, &ts);
    DEnv inst = lambda_instance(a, lam, t);
    for (int i = 0; i < nc; i++) ts[i] = concrete(a, ts[i], &inst);
    *out_types = ts;
    return nc;
}

void flat_layout(Arena *a, Type *t, bool lifted, PtrVec *out)
{
    LayoutOut o = { a, out, NULL, 0 };
    layout(&o, t, NULL, lifted, LCU_LIFT_UNIFORM, 0);
}

int flat_layout_parents(Type *t, int base, int outer, int *out)
{
    LayoutOut o = { NULL, NULL, out, base };
    return layout(&o, t, NULL, true, outer, base);
}

int flat_arity(Type *t, bool lifted)
{
    return layout(NULL, t, NULL, lifted, LCU_LIFT_UNIFORM, 0);
}

/* ------------------------------------------------------------------ captures */

typedef struct Cap {
    Arena *a;
    PtrVec inner;       /* binders introduced inside the lambda */
    PtrVec refs;        /* EX_VAR REF_LOCAL references, in order */
} Cap;

static void cap_pattern(Cap *c, Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR: ptrvec_push(c->a, &c->inner, p->binder); return;
    case PAT_PAIR: cap_pattern(c, p->fst); cap_pattern(c, p->snd); return;
    case PAT_CON: cap_pattern(c, p->sub); return;
    }
    ICE("flat_lambda_captures: bad pattern kind %d", (int)p->kind);
}

static void cap_expr(Cap *c, Expr *e)
{
    if (!e) return;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY:
        return;
    case EX_VAR:
        if (e->ref == REF_LOCAL) ptrvec_push(c->a, &c->refs, e);
        return;
    case EX_PAIR: case EX_APPLY: case EX_SUBSCRIPT:
        cap_expr(c, e->a);
        cap_expr(c, e->b);
        return;
    case EX_IF: case EX_RANGE:
        cap_expr(c, e->a);
        cap_expr(c, e->b);
        cap_expr(c, e->c);
        return;
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) {
            cap_expr(c, e->binds[i].value);
            cap_pattern(c, e->binds[i].pat);
        }
        cap_expr(c, e->a);
        return;
    case EX_LAMBDA:
        cap_pattern(c, e->param);
        cap_expr(c, e->a);
        return;
    case EX_OP:
        for (int i = 0; i < e->nargs; i++) cap_expr(c, e->args[i]);
        return;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) cap_expr(c, e->gens[i].seq);
        for (int i = 0; i < e->ngens; i++) cap_pattern(c, e->gens[i].pat);
        cap_expr(c, e->a);
        cap_expr(c, e->b);
        return;
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) cap_expr(c, e->elems[i]);
        return;
    case EX_TIME:
        cap_expr(c, e->a);
        return;
    }
    ICE("flat_lambda_captures: bad expression kind %d", (int)e->kind);
}

static bool in_vec(const PtrVec *v, const void *x)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == x) return true;
    return false;
}

/* The local variables free in a lambda's body (binders bound neither by its
 * pattern nor inside it), in order of first occurrence, with the types of
 * their first references (binders are shared between instances, so their
 * own types may be polymorphic). */
int flat_lambda_captures(Arena *a, Expr *lambda, Binder ***out_binders, Type ***out_types)
{
    if (!lambda || lambda->kind != EX_LAMBDA) ICE("flat_lambda_captures: not a lambda");
    Cap c = { .a = a };
    cap_pattern(&c, lambda->param);
    cap_expr(&c, lambda->a);
    PtrVec bs = { 0 }, ts = { 0 };
    for (int i = 0; i < c.refs.len; i++) {
        Expr *v = c.refs.items[i];
        if (in_vec(&c.inner, v->binder) || in_vec(&bs, v->binder)) continue;
        ptrvec_push(a, &bs, v->binder);
        ptrvec_push(a, &ts, type_prune(v->type));
    }
    /* Never NULL, so that callers may copy even an empty list. */
    *out_binders = bs.len ? (Binder **)bs.items : arena_alloc(a, sizeof(Binder *));
    *out_types = ts.len ? (Type **)ts.items : arena_alloc(a, sizeof(Type *));
    return bs.len;
}
