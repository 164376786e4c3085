/* prims_any.c — type-directed primitives that work on values of any type
 * (identity, eql, hash) and the string conversions (@, ||, exp_string). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prims_common.h"

/* value_identity leaves a NULL closure where a function would be needed. */
static bool has_missing_fun(Value v)
{
    switch (v.kind) {
    case V_INT: case V_FLOAT: case V_BOOL: case V_CHAR: case V_STREAM: case V_SEQ:
        return false;   /* identities of sequences are empty */
    case V_PAIR: return has_missing_fun(v.pair->fst) || has_missing_fun(v.pair->snd);
    case V_DATA: return has_missing_fun(v.data->fields);
    case V_FUN: return v.fn == NULL;
    }
    ICE("bad value kind %d", (int)v.kind);
}

static Value identity_of(Interp *I, Type *t, Span where)
{
    Value v = value_identity(I->heap, t);
    if (has_missing_fun(v))
        rt_error(I, where, "Function identity: a function type has no identity value.");
    return v;
}

Value p_IDENTITY(Interp *I, Value *args, Type *ty, Span where)
{
    (void)args;
    return identity_of(I, prim_res_type(ty), where);
}

Value p_ELT_IDENTITY(Interp *I, Value *args, Type *ty, Span where)
{
    (void)args;
    return identity_of(I, prim_res_type(ty), where);
}

Value p_EQL(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    return v_bool(value_eql(args[0], args[1]));
}

/* ------------------------------------------------------------------ hash */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 33);
}

/* Equal (eql) values hash equally: -0.0 and 0.0 are folded together. */
static uint64_t hash_value(Value v)
{
    switch (v.kind) {
    case V_INT: case V_STREAM: return mix(1, (uint32_t)v.i);
    case V_FLOAT: {
        double f = v.f == 0.0 ? 0.0 : v.f;
        uint64_t bits;
        memcpy(&bits, &f, sizeof bits);
        return mix(2, bits);
    }
    case V_BOOL: return mix(3, v.b);
    case V_CHAR: return mix(4, v.c);
    case V_SEQ: {
        uint64_t h = mix(5, (uint64_t)v.seq->len);
        for (int64_t k = 0; k < v.seq->len; k++)
            h = mix(h, hash_value(v.seq->elems[k]));
        return h;
    }
    case V_PAIR: return mix(mix(6, hash_value(v.pair->fst)), hash_value(v.pair->snd));
    case V_DATA: return mix(7, hash_value(v.data->fields));
    case V_FUN: return 8;      /* all functions are eql */
    }
    ICE("bad value kind %d", (int)v.kind);
}

Value p_HASH(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t m = args[1].i;
    if (m < 1)
        rt_error(I, where, "Hash range must be positive.");
    return v_int((int32_t)(hash_value(args[0]) % (uint64_t)m));
}

/* ------------------------------------------------------------------ strings */

Value p_STRING(Interp *I, Value *args, Type *ty, Span where)
{
    (void)where;
    StrBuf b = {0};
    value_to_nesl_string(&b, args[0], prim_arg_type(ty));
    Value r = v_string(I->heap, b.data ? b.data : "", (int64_t)b.len);
    sb_free(&b);
    return r;
}

/* s || w: pad with spaces to |w|, text on the left when w > 0. */
Value p_PAD(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    Seq *s = args[0].seq;
    int64_t w = args[1].i;
    bool left = w > 0;
    if (w < 0)
        w = -w;
    if (s->len >= w)
        return args[0];
    Seq *r = prim_new_seq(I, w, where);
    int64_t pad = w - s->len, at = left ? 0 : pad;
    for (int64_t k = 0; k < w; k++)
        r->elems[k] = v_char(' ');
    for (int64_t k = 0; k < s->len; k++)
        r->elems[at + k] = s->elems[k];
    return v_seq(r);
}

/* exp_string(1234.5, 2) = "1.23e+3": C's %e with the exponent's leading
 * zeros removed. */
Value p_EXP_STRING(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    int32_t d = args[1].i;
    if (d > 8)
        rt_error(I, where, "exp_string: at most 8 digits after the point.");
    if (d < 0)
        rt_error(I, where, "exp_string: the number of digits must not be negative.");
    char buf[64], out[64];
    snprintf(buf, sizeof buf, "%.*e", (int)d, args[0].f);
    char *e = strchr(buf, 'e');
    if (!e)     /* inf or nan */
        return v_string(I->heap, buf, (int64_t)strlen(buf));
    size_t head = (size_t)(e - buf);
    memcpy(out, buf, head);
    size_t o = head;
    out[o++] = 'e';
    const char *p = e + 1;
    out[o++] = *p == '-' ? '-' : '+';
    if (*p == '-' || *p == '+')
        p++;
    while (*p == '0' && p[1] != '\0')
        p++;
    while (*p)
        out[o++] = *p++;
    return v_string(I->heap, out, (int64_t)o);
}
