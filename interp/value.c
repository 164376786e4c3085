/* value.c — constructors, deep copy, identity and equality of runtime values. */
#include <string.h>
#include "interp_impl.h"

Seq *seq_alloc(Arena *heap, int64_t len)
{
    if (len < 0)
        ICE("negative sequence length %lld", (long long)len);
    Seq *s = arena_alloc(heap, sizeof(Seq) + (size_t)len * sizeof(Value));
    s->len = len;
    return s;
}

Value v_seq(Seq *s)
{
    Value v;
    v.kind = V_SEQ;
    v.seq = s;
    return v;
}

Value v_pair(Arena *heap, Value a, Value b)
{
    PairVal *p = arena_alloc(heap, sizeof *p);
    p->fst = a;
    p->snd = b;
    Value v;
    v.kind = V_PAIR;
    v.pair = p;
    return v;
}

Value v_string(Arena *heap, const char *s, int64_t n)
{
    Seq *q = seq_alloc(heap, n);
    for (int64_t k = 0; k < n; k++)
        q->elems[k] = v_char((uint8_t)s[k]);
    return v_seq(q);
}

Value v_data(Arena *heap, DataDecl *d, Value fields)
{
    DataVal *dv = arena_alloc(heap, sizeof *dv);
    dv->decl = d;
    dv->fields = fields;
    Value v;
    v.kind = V_DATA;
    v.data = dv;
    return v;
}

Value value_copy(Arena *to, Value v)
{
    switch (v.kind) {
    case V_INT: case V_FLOAT: case V_BOOL: case V_CHAR: case V_STREAM:
        return v;
    case V_SEQ: {
        Seq *s = seq_alloc(to, v.seq->len);
        for (int64_t k = 0; k < s->len; k++)
            s->elems[k] = value_copy(to, v.seq->elems[k]);
        return v_seq(s);
    }
    case V_PAIR:
        return v_pair(to, value_copy(to, v.pair->fst), value_copy(to, v.pair->snd));
    case V_DATA:
        return v_data(to, v.data->decl, value_copy(to, v.data->fields));
    case V_FUN: {
        /* Closures own a copy of their frame, which may point into the heap. */
        Closure *c = arena_alloc(to, sizeof *c);
        *c = *v.fn;
        if (c->nframe > 0) {
            c->frame = arena_alloc(to, (size_t)c->nframe * sizeof(Value));
            for (int k = 0; k < c->nframe; k++)
                c->frame[k] = value_copy(to, v.fn->frame[k]);
        }
        Value r;
        r.kind = V_FUN;
        r.fn = c;
        return r;
    }
    }
    ICE("bad value kind %d", (int)v.kind);
}

/* ---- identity ----
 * Datatype fields are written over the declaration's type parameters; a
 * Subst maps those parameters to the instance's arguments, which are
 * themselves expressed in the enclosing substitution (nested datatypes). */
typedef struct Subst {
    Type **from, **to;
    int n;
    const struct Subst *outer;
} Subst;

static Value identity_in(Arena *heap, Type *t, const Subst *env)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: return v_int(0);
    case TY_FLOAT: return v_float(0.0);
    case TY_BOOL: return v_bool(false);
    case TY_CHAR: return v_char(' ');
    case TY_STREAM: {
        Value v;
        v.kind = V_STREAM;
        v.i = 3;    /* nullstr: the harmless stream */
        return v;
    }
    case TY_SEQ: return v_seq(seq_alloc(heap, 0));
    case TY_PAIR:
        return v_pair(heap, identity_in(heap, t->fst, env), identity_in(heap, t->snd, env));
    case TY_DATA: {
        DataDecl *d = t->data;
        Subst sub = { d->params, t->args, t->nargs < d->nctx ? t->nargs : d->nctx, env };
        return v_data(heap, d, identity_in(heap, d->field_type, &sub));
    }
    case TY_FUN: case TY_FUNID: {
        /* No function is "zero"; callers check for function types first. */
        Value v;
        v.kind = V_FUN;
        v.fn = NULL;
        return v;
    }
    case TY_VAR:
        for (const Subst *s = env; s; s = s->outer)
            for (int k = 0; k < s->n; k++)
                if (type_prune(s->from[k]) == t)
                    return identity_in(heap, s->to[k], s->outer);
        /* An unconstrained variable left by the monomorphizer: any value will do. */
        return v_int(0);
    }
    ICE("bad type kind %d", (int)t->kind);
}

Value value_identity(Arena *heap, Type *t)
{
    return identity_in(heap, t, NULL);
}

bool value_eql(Value a, Value b)
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case V_INT: case V_STREAM: return a.i == b.i;
    case V_FLOAT: return a.f == b.f;
    case V_BOOL: return a.b == b.b;
    case V_CHAR: return a.c == b.c;
    case V_SEQ:
        if (a.seq->len != b.seq->len)
            return false;
        for (int64_t k = 0; k < a.seq->len; k++)
            if (!value_eql(a.seq->elems[k], b.seq->elems[k]))
                return false;
        return true;
    case V_PAIR:
        return value_eql(a.pair->fst, b.pair->fst) && value_eql(a.pair->snd, b.pair->snd);
    case V_DATA:
        return value_eql(a.data->fields, b.data->fields);
    case V_FUN:
        return true;    /* NESL.md 4.5: functions always compare equal */
    }
    ICE("bad value kind %d", (int)a.kind);
}
