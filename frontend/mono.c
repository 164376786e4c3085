/* mono.c — monomorphization: one instance of each function per concrete type
 * it is used at, reached from the top level (DESIGN.md §2).
 *
 * Instances are created on demand while cloning bodies and processed from a
 * worklist, so mutually recursive functions are cloned once each.  Binders
 * are shared between instances (their slots are the same); every Expr and
 * Pattern of an instance carries a concrete type. */
#include <string.h>
#include "check_impl.h"

typedef struct Subst { Type **from, **to; int len, cap; } Subst;

typedef struct Mono {
    Compilation *c;
    MonoProgram *m;
    PtrVec queue;
    PtrVec instances;
} Mono;

static void subst_add(Mono *mo, Subst *s, Type *from, Type *to)
{
    if (s->len == s->cap) {
        int cap = s->cap ? s->cap * 2 : 8;
        Type **f = arena_alloc(mo->c->arena, sizeof *f * (size_t)cap), **t = arena_alloc(mo->c->arena, sizeof *t * (size_t)cap);
        if (s->len) { memcpy(f, s->from, sizeof *f * (size_t)s->len); memcpy(t, s->to, sizeof *t * (size_t)s->len); }
        s->from = f; s->to = t; s->cap = cap;
    }
    s->from[s->len] = from; s->to[s->len] = to; s->len++;
}

/* A concrete copy of t under s; variables nothing determined become int
 * (they cannot influence the result), identities a fresh identity. */
static Type *resolve(Mono *mo, Type *t, const Subst *s)
{
    Arena *A = mo->c->arena;
    t = type_prune(t);
    if (!t) return type_base(A, TY_INT);
    switch (t->kind) {
    case TY_VAR:
        for (int i = 0; i < s->len; i++) if (s->from[i] == t) return s->to[i];
        return type_base(A, TY_INT);
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID:
        return t;
    case TY_SEQ: return type_seq(A, resolve(mo, t->elem, s));
    case TY_PAIR: return type_pair(A, resolve(mo, t->fst, s), resolve(mo, t->snd, s));
    case TY_FUN: {
        Type *id = t->ident ? type_prune(t->ident) : NULL;
        Type *rid;
        if (id && id->kind == TY_FUNID) {
            rid = id;       /* a lambda of the generic body: this instance's own identity */
            for (int i = 0; i < s->len; i++) if (s->from[i] == id) rid = s->to[i];
        } else {
            rid = NULL;
            for (int i = 0; id && i < s->len; i++) if (s->from[i] == id) rid = s->to[i];
            if (!rid) { rid = type_new(A, TY_FUNID); rid->funid = rid; }
        }
        return type_fun(A, resolve(mo, t->arg, s), resolve(mo, t->res, s), rid);
    }
    case TY_DATA: {
        Type *d = type_new(A, TY_DATA);
        d->data = t->data; d->nargs = t->nargs;
        d->args = arena_alloc(A, sizeof *d->args * (size_t)(t->nargs + 1));
        for (int i = 0; i < t->nargs; i++) d->args[i] = resolve(mo, t->args[i], s);
        return d;
    }
    }
    return t;
}

/* Bind the generic variables of g to the parts of concrete c. */
static void match(Mono *mo, Subst *s, Type *g, Type *c)
{
    g = type_prune(g); c = type_prune(c);
    if (!g || !c) return;
    if (g->kind == TY_VAR) {
        for (int i = 0; i < s->len; i++) if (s->from[i] == g) return;
        subst_add(mo, s, g, c);
        return;
    }
    if (g->kind != c->kind) return;
    switch (g->kind) {
    case TY_SEQ: match(mo, s, g->elem, c->elem); return;
    case TY_PAIR: match(mo, s, g->fst, c->fst); match(mo, s, g->snd, c->snd); return;
    case TY_FUN:
        match(mo, s, g->arg, c->arg); match(mo, s, g->res, c->res);
        if (g->ident && c->ident) match(mo, s, g->ident, c->ident);
        return;
    case TY_DATA: for (int i = 0; i < g->nargs && i < c->nargs; i++) match(mo, s, g->args[i], c->args[i]); return;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: case TY_VAR:
        return;
    }
}

static FunDecl *get_instance(Mono *mo, FunDecl *f, Type *t)
{
    while (f->defined_by) f = f->defined_by;
    if (!f->body) ICE("function '%s' has no body at monomorphization", f->name);
    for (FunDecl *i = f->next_instance; i; i = i->next_instance)
        if (type_equal_ident(i->type, t)) return i;
    FunDecl *inst = arena_alloc(mo->c->arena, sizeof *inst);
    *inst = *f;
    inst->generic = f;
    inst->type = t;
    inst->body = NULL;
    inst->next_instance = f->next_instance;
    f->next_instance = inst;
    ptrvec_push(mo->c->arena, &mo->queue, inst);
    ptrvec_push(mo->c->arena, &mo->instances, inst);
    if (f->replaced_by) inst->replacement = get_instance(mo, f->replaced_by, t);
    return inst;
}

static Pattern *clone_pattern(Mono *mo, const Pattern *p, const Subst *s)
{
    Pattern *n = pattern_new(mo->c->arena, p->kind, p->span);
    *n = *p;
    n->type = resolve(mo, p->type, s);
    switch (p->kind) {
    case PAT_VAR: break;
    case PAT_PAIR: n->fst = clone_pattern(mo, p->fst, s); n->snd = clone_pattern(mo, p->snd, s); break;
    case PAT_CON: n->sub = clone_pattern(mo, p->sub, s); break;
    }
    return n;
}

static Expr *clone_expr(Mono *mo, const Expr *e, const Subst *s)
{
    Arena *A = mo->c->arena;
    Expr *n = arena_alloc(A, sizeof *n);
    *n = *e;
    n->type = resolve(mo, e->type, s);
    if (e->inst) n->inst = resolve(mo, e->inst, s);
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY:
        break;
    case EX_VAR:
        if (e->ref == REF_FUN) n->fun = get_instance(mo, e->fun, n->inst);
        break;
    case EX_PAIR: case EX_APPLY: case EX_SUBSCRIPT:
        n->a = clone_expr(mo, e->a, s); n->b = clone_expr(mo, e->b, s);
        break;
    case EX_IF:
        n->a = clone_expr(mo, e->a, s); n->b = clone_expr(mo, e->b, s); n->c = clone_expr(mo, e->c, s);
        break;
    case EX_LET:
        n->binds = arena_alloc(A, sizeof *n->binds * (size_t)e->nbinds);
        for (int i = 0; i < e->nbinds; i++) {
            n->binds[i].value = clone_expr(mo, e->binds[i].value, s);
            n->binds[i].pat = clone_pattern(mo, e->binds[i].pat, s);
        }
        n->a = clone_expr(mo, e->a, s);
        break;
    case EX_LAMBDA: {
        n->param = clone_pattern(mo, e->param, s);
        n->a = clone_expr(mo, e->a, s);
        Type *nid = n->type && type_prune(n->type)->kind == TY_FUN ? type_prune(type_prune(n->type)->ident) : NULL;
        if (nid && nid->kind == TY_FUNID && nid->funid_kind == FID_LAMBDA && !nid->funid) nid->funid = n;
        break;
    }
    case EX_OP:
        for (int i = 0; i < e->nargs; i++) n->args[i] = clone_expr(mo, e->args[i], s);
        break;
    case EX_EACH:
        n->gens = arena_alloc(A, sizeof *n->gens * (size_t)e->ngens);
        for (int i = 0; i < e->ngens; i++) {
            n->gens[i].seq = clone_expr(mo, e->gens[i].seq, s);
            n->gens[i].pat = clone_pattern(mo, e->gens[i].pat, s);
        }
        n->a = clone_expr(mo, e->a, s);
        if (e->b) n->b = clone_expr(mo, e->b, s);
        break;
    case EX_SEQ:
        n->elems = arena_alloc(A, sizeof *n->elems * (size_t)e->nelems);
        for (int i = 0; i < e->nelems; i++) n->elems[i] = clone_expr(mo, e->elems[i], s);
        break;
    case EX_RANGE:
        n->a = clone_expr(mo, e->a, s); n->b = clone_expr(mo, e->b, s);
        if (e->c) n->c = clone_expr(mo, e->c, s);
        break;
    case EX_TIME:
        n->a = clone_expr(mo, e->a, s);
        break;
    }
    return n;
}

/* Each instance's copy of a lambda gets its own function identity (bound
 * when the copy is made), so that a closure's type says which copy, with
 * which concrete captured variables, it is. */
static bool mentions(Type *t, Type *id)
{
    t = type_prune(t);
    if (!t) return false;
    switch (t->kind) {
    case TY_FUNID: return t == id;
    case TY_SEQ: return mentions(t->elem, id);
    case TY_PAIR: return mentions(t->fst, id) || mentions(t->snd, id);
    case TY_FUN: return mentions(t->arg, id) || mentions(t->res, id) || (t->ident && mentions(t->ident, id));
    case TY_DATA:
        for (int i = 0; i < t->nargs; i++) if (mentions(t->args[i], id)) return true;
        return false;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_VAR: return false;
    }
    return false;
}

/* fun_type: the generic function's type; a lambda that escapes through it
 * keeps its identity (callers see that one). */
static void fresh_lambda_ids(Mono *mo, Subst *s, const Expr *e, Type *fun_type)
{
    if (!e) return;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING: case EX_EMPTY: case EX_VAR:
        return;
    case EX_LAMBDA: {
        Type *t = type_prune(e->type);
        Type *id = t && t->kind == TY_FUN && t->ident ? type_prune(t->ident) : NULL;
        if (id && id->kind == TY_FUNID && id->funid_kind == FID_LAMBDA && id->funid == e && !mentions(fun_type, id)) {
            Type *nid = type_new(mo->c->arena, TY_FUNID);
            nid->funid_kind = FID_LAMBDA;
            subst_add(mo, s, id, nid);
        }
        fresh_lambda_ids(mo, s, e->a, fun_type);
        return;
    }
    case EX_PAIR: case EX_APPLY: case EX_SUBSCRIPT: case EX_IF: case EX_RANGE: case EX_TIME:
        fresh_lambda_ids(mo, s, e->a, fun_type); fresh_lambda_ids(mo, s, e->b, fun_type); fresh_lambda_ids(mo, s, e->c, fun_type);
        return;
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) fresh_lambda_ids(mo, s, e->binds[i].value, fun_type);
        fresh_lambda_ids(mo, s, e->a, fun_type);
        return;
    case EX_OP:
        for (int i = 0; i < e->nargs; i++) fresh_lambda_ids(mo, s, e->args[i], fun_type);
        return;
    case EX_EACH:
        for (int i = 0; i < e->ngens; i++) fresh_lambda_ids(mo, s, e->gens[i].seq, fun_type);
        fresh_lambda_ids(mo, s, e->a, fun_type); fresh_lambda_ids(mo, s, e->b, fun_type);
        return;
    case EX_SEQ:
        for (int i = 0; i < e->nelems; i++) fresh_lambda_ids(mo, s, e->elems[i], fun_type);
        return;
    }
}

static TopForm *clone_form(Mono *mo, const TopForm *f)
{
    TopForm *n = arena_alloc(mo->c->arena, sizeof *n);
    *n = *f;
    Subst none = {0};
    if (f->kind == TOP_BIND || f->kind == TOP_EXPR) {
        n->expr = clone_expr(mo, f->expr, &none);
        n->pat = clone_pattern(mo, f->pat, &none);
    }
    return n;
}

static void drain(Mono *mo)
{
    for (int qi = 0; qi < mo->queue.len; qi++) {
        FunDecl *inst = mo->queue.items[qi];
        FunDecl *g = inst->generic;
        Subst s = {0};
        match(mo, &s, g->type, inst->type);
        fresh_lambda_ids(mo, &s, g->body, g->type);
        inst->param = clone_pattern(mo, g->param, &s);
        inst->body = clone_expr(mo, g->body, &s);
    }
    mo->queue.len = 0;
}

MonoProgram *monomorphize(Compilation *c, const Program *checked)
{
    Mono mo = { .c = c };
    MonoProgram *m = arena_alloc(c->arena, sizeof *m);
    mo.m = m;
    PtrVec forms = {0};
    const Program *parts[2] = { c->prelude, checked };
    for (int k = 0; k < 2; k++) {
        const Program *p = parts[k];
        if (!p) continue;
        for (int i = 0; i < p->nforms; i++) {
            const TopForm *f = p->forms[i];
            if (f->failed) continue;
            if (k == 0 && f->kind != TOP_BIND) continue;   /* library functions come in by use */
            ptrvec_push(c->arena, &forms, clone_form(&mo, f));
            drain(&mo);
        }
    }
    m->prog.forms = (TopForm **)forms.items;
    m->prog.nforms = forms.len;
    m->instances = (FunDecl **)mo.instances.items;
    m->ninstances = mo.instances.len;
    m->nglobals = c->nglobals;
    return m;
}
