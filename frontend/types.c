/* types.c — Hindley–Milner machinery with NESL's class-bounded variables
 * (NESL.md 4.2): number ⊂ ordinal ⊂ any, logical ⊂ any. */
#include "types.h"

Type *tc_fresh(TypeCtx *tc, TypeClass cls)
{
    Type *t = type_new(tc->c->arena, TY_VAR);
    t->cls = cls;
    t->level = tc->level;
    t->var_id = ++tc->c->next_var_id;
    return t;
}

Type *tc_funid(TypeCtx *tc, FunIdKind k, const void *id)
{
    Type *t = type_new(tc->c->arena, TY_FUNID);
    t->funid = id;
    t->funid_kind = k;
    return t;
}

const char *class_name(TypeClass cls)
{
    switch (cls) {
    case CLS_ANY: return "any";
    case CLS_ORDINAL: return "ordinal";
    case CLS_NUMBER: return "number";
    case CLS_LOGICAL: return "logical";
    }
    return "?";
}

bool type_in_class(Type *t, TypeClass cls)
{
    t = type_prune(t);
    switch (cls) {
    case CLS_ANY: return true;
    case CLS_NUMBER: return t->kind == TY_INT || t->kind == TY_FLOAT;
    case CLS_ORDINAL: return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_CHAR;
    case CLS_LOGICAL: return t->kind == TY_INT || t->kind == TY_BOOL;
    }
    return false;
}

/* The narrower of two classes, or -1 if neither contains the other. */
static int class_meet(TypeClass a, TypeClass b)
{
    if (a == b || b == CLS_ANY) return (int)a;
    if (a == CLS_ANY) return (int)b;
    if (a == CLS_NUMBER && b == CLS_ORDINAL) return CLS_NUMBER;
    if (a == CLS_ORDINAL && b == CLS_NUMBER) return CLS_NUMBER;
    return -1;
}

/* Occurs check, lowering levels of variables in t to `level` on the way. */
static bool occurs_adjust(Type *v, Type *t, int level)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_VAR:
        if (t == v) return true;
        if (t->level > level && t->level != GENERIC_LEVEL) t->level = level;
        return false;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID:
        return false;
    case TY_SEQ: return occurs_adjust(v, t->elem, level);
    case TY_PAIR: return occurs_adjust(v, t->fst, level) || occurs_adjust(v, t->snd, level);
    case TY_FUN:
        return occurs_adjust(v, t->arg, level) || occurs_adjust(v, t->res, level) ||
               (t->ident && occurs_adjust(v, t->ident, level));
    case TY_DATA:
        for (int i = 0; i < t->nargs; i++) if (occurs_adjust(v, t->args[i], level)) return true;
        return false;
    }
    return false;
}

UnifyResult unify(TypeCtx *tc, Type *a, Type *b)
{
    a = type_prune(a); b = type_prune(b);
    if (a == b) return UNIFY_OK;
    if (a->kind != TY_VAR && b->kind == TY_VAR) { Type *t = a; a = b; b = t; }
    if (a->kind == TY_VAR) {
        if (b->kind == TY_VAR) {
            int m = class_meet(a->cls, b->cls);
            if (m < 0) return UNIFY_CLASS;
            b->cls = (TypeClass)m;
            if (a->level < b->level) b->level = a->level;
            a->link = b;
            return UNIFY_OK;
        }
        if (b->kind == TY_FUNID) {
            if (a->cls != CLS_ANY) return UNIFY_CLASS;
            a->link = b;
            return UNIFY_OK;
        }
        if (!type_in_class(b, a->cls)) return UNIFY_CLASS;
        if (occurs_adjust(a, b, a->level)) return UNIFY_OCCURS;
        a->link = b;
        return UNIFY_OK;
    }
    if (a->kind != b->kind) return UNIFY_MISMATCH;
    UnifyResult r;
    switch (a->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM:
        return UNIFY_OK;
    case TY_FUNID:
        return a->funid == b->funid ? UNIFY_OK : UNIFY_FUNID;
    case TY_SEQ:
        return unify(tc, a->elem, b->elem);
    case TY_PAIR:
        if ((r = unify(tc, a->fst, b->fst))) return r;
        return unify(tc, a->snd, b->snd);
    case TY_FUN:
        if ((r = unify(tc, a->arg, b->arg))) return r;
        if ((r = unify(tc, a->res, b->res))) return r;
        if (a->ident && b->ident) return unify(tc, a->ident, b->ident);
        return UNIFY_OK;
    case TY_DATA:
        if (a->data != b->data) return UNIFY_MISMATCH;
        for (int i = 0; i < a->nargs; i++)
            if ((r = unify(tc, a->args[i], b->args[i]))) return r;
        return UNIFY_OK;
    case TY_VAR:
        break;
    }
    return UNIFY_MISMATCH;
}

void generalize(TypeCtx *tc, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_VAR:
        if (t->level > tc->level) t->level = GENERIC_LEVEL;
        return;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID:
        return;
    case TY_SEQ: generalize(tc, t->elem); return;
    case TY_PAIR: generalize(tc, t->fst); generalize(tc, t->snd); return;
    case TY_FUN:
        generalize(tc, t->arg); generalize(tc, t->res);
        if (t->ident) generalize(tc, t->ident);
        return;
    case TY_DATA:
        for (int i = 0; i < t->nargs; i++) generalize(tc, t->args[i]);
        return;
    }
}

typedef struct InstMap { Type **from, **to; int len, cap; } InstMap;

static Type *inst_rec(TypeCtx *tc, Type *t, InstMap *m)
{
    t = type_prune(t);
    Arena *A = tc->c->arena;
    switch (t->kind) {
    case TY_VAR: {
        if (t->level != GENERIC_LEVEL) return t;
        for (int i = 0; i < m->len; i++) if (m->from[i] == t) return m->to[i];
        if (m->len == m->cap) {
            int cap = m->cap ? m->cap * 2 : 8;
            Type **f = arena_alloc(A, sizeof *f * (size_t)cap), **to = arena_alloc(A, sizeof *to * (size_t)cap);
            for (int i = 0; i < m->len; i++) { f[i] = m->from[i]; to[i] = m->to[i]; }
            m->from = f; m->to = to; m->cap = cap;
        }
        Type *v = tc_fresh(tc, t->cls);
        m->from[m->len] = t; m->to[m->len] = v; m->len++;
        return v;
    }
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID:
        return t;
    case TY_SEQ: return type_seq(A, inst_rec(tc, t->elem, m));
    case TY_PAIR: return type_pair(A, inst_rec(tc, t->fst, m), inst_rec(tc, t->snd, m));
    case TY_FUN:
        return type_fun(A, inst_rec(tc, t->arg, m), inst_rec(tc, t->res, m),
                        t->ident ? inst_rec(tc, t->ident, m) : NULL);
    case TY_DATA: {
        Type *d = type_new(A, TY_DATA);
        d->data = t->data; d->nargs = t->nargs;
        d->args = arena_alloc(A, sizeof *d->args * (size_t)(t->nargs + 1));
        for (int i = 0; i < t->nargs; i++) d->args[i] = inst_rec(tc, t->args[i], m);
        return d;
    }
    }
    return t;
}

Type *instantiate(TypeCtx *tc, Type *t)
{
    InstMap m = {0};
    return inst_rec(tc, t, &m);
}

bool type_has_vars(Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_VAR: return true;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: return false;
    case TY_SEQ: return type_has_vars(t->elem);
    case TY_PAIR: return type_has_vars(t->fst) || type_has_vars(t->snd);
    case TY_FUN: return type_has_vars(t->arg) || type_has_vars(t->res);
    case TY_DATA:
        for (int i = 0; i < t->nargs; i++) if (type_has_vars(t->args[i])) return true;
        return false;
    }
    return false;
}

/* Like type_equal_concrete, but function types must also have the same
 * identity: instances are specialised per function argument (the flattener
 * calls function-typed parameters statically). */
bool type_equal_ident(Type *a, Type *b)
{
    a = type_prune(a); b = type_prune(b);
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TY_VAR: return false;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: return true;
    case TY_FUNID:
        return (a->funid && a->funid == b->funid) || (a->funid_kind == FID_NONE && b->funid_kind == FID_NONE);
    case TY_SEQ: return type_equal_ident(a->elem, b->elem);
    case TY_PAIR: return type_equal_ident(a->fst, b->fst) && type_equal_ident(a->snd, b->snd);
    case TY_FUN:
        if (!type_equal_ident(a->arg, b->arg) || !type_equal_ident(a->res, b->res)) return false;
        if (!a->ident || !b->ident) return a->ident == b->ident;
        return type_equal_ident(a->ident, b->ident);
    case TY_DATA:
        if (a->data != b->data) return false;
        for (int i = 0; i < a->nargs; i++) if (!type_equal_ident(a->args[i], b->args[i])) return false;
        return true;
    }
    return false;
}

bool type_equal_concrete(Type *a, Type *b)
{
    a = type_prune(a); b = type_prune(b);
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TY_VAR: return false;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: return true;
    case TY_FUNID: return a->funid == b->funid;
    case TY_SEQ: return type_equal_concrete(a->elem, b->elem);
    case TY_PAIR: return type_equal_concrete(a->fst, b->fst) && type_equal_concrete(a->snd, b->snd);
    case TY_FUN: return type_equal_concrete(a->arg, b->arg) && type_equal_concrete(a->res, b->res);
    case TY_DATA:
        if (a->data != b->data) return false;
        for (int i = 0; i < a->nargs; i++) if (!type_equal_concrete(a->args[i], b->args[i])) return false;
        return true;
    }
    return false;
}
