/* prims_parse.c — prim_parse_object: read a value of a known type back from
 * its `@` form (NESL.md 5.9), for read_object_from_file.  Also accepts the
 * top-level printed forms T/F and "quoted strings". */
#include <stdlib.h>
#include <string.h>
#include "prims_common.h"

typedef struct Reader {
    Interp *I;
    const char *p;
    bool ok;
} Reader;

static void skip_blanks(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static bool expect(Reader *r, char c)
{
    skip_blanks(r);
    if (*r->p != c)
        return r->ok = false;
    r->p++;
    return true;
}

static Value parse_value(Reader *r, Type *t);

/* The inside of parentheses: right-nested tuples are written flat. */
static Value parse_tuple_body(Reader *r, Type *t)
{
    t = type_prune(t);
    if (t->kind != TY_PAIR)
        return parse_value(r, t);
    Value a = parse_value(r, t->fst);
    if (!r->ok || !expect(r, ','))
        return a;
    Value b = parse_tuple_body(r, t->snd);
    return v_pair(r->I->heap, a, b);
}

static Value parse_seq(Reader *r, Type *elem)
{
    skip_blanks(r);
    int64_t n = 0, cap = 16;
    Value *tmp = malloc((size_t)cap * sizeof *tmp);
    if (*r->p == '"' && type_prune(elem)->kind == TY_CHAR) {
        for (r->p++; *r->p && *r->p != '"'; r->p++) {
            if (*r->p == '\\' && r->p[1])
                r->p++;
            if (n == cap && !(tmp = realloc(tmp, (size_t)(cap *= 2) * sizeof *tmp)))
                ICE("out of memory");
            tmp[n++] = v_char((uint8_t)*r->p);
        }
        r->ok = r->ok && expect(r, '"');
    } else if (expect(r, '[')) {
        skip_blanks(r);
        if (*r->p == ']') {
            r->p++;
        } else {
            for (;;) {
                Value v = parse_value(r, elem);
                if (!r->ok)
                    break;
                if (n == cap && !(tmp = realloc(tmp, (size_t)(cap *= 2) * sizeof *tmp)))
                    ICE("out of memory");
                tmp[n++] = v;
                skip_blanks(r);
                if (*r->p == ',') { r->p++; continue; }
                r->ok = expect(r, ']');
                break;
            }
        }
    }
    Seq *s = seq_alloc(r->I->heap, n);
    if (n > 0)
        memcpy(s->elems, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    return v_seq(s);
}

static Value parse_value(Reader *r, Type *t)
{
    t = type_prune(t);
    skip_blanks(r);
    char *end;
    switch (t->kind) {
    case TY_INT: {
        long long x = strtoll(r->p, &end, 10);
        if (end == r->p) r->ok = false;
        r->p = end;
        return v_int((int32_t)(uint32_t)(unsigned long long)x);
    }
    case TY_FLOAT: {
        double x = strtod(r->p, &end);
        if (end == r->p) r->ok = false;
        r->p = end;
        return v_float(x);
    }
    case TY_BOOL: {
        char c = *r->p;
        if (c == 't' || c == 'T') { r->p++; return v_bool(true); }
        if (c == 'f' || c == 'F') { r->p++; return v_bool(false); }
        r->ok = false;
        return v_bool(false);
    }
    case TY_CHAR:
        if (r->p[0] != '`' || r->p[1] == '\0') {
            r->ok = false;
            return v_char(' ');
        }
        r->p += 2;
        return v_char((uint8_t)r->p[-1]);
    case TY_SEQ:
        return parse_seq(r, t->elem);
    case TY_PAIR: {
        if (!expect(r, '('))
            return value_identity(r->I->heap, t);
        Value v = parse_tuple_body(r, t);
        if (r->ok)
            expect(r, ')');
        return v;
    }
    case TY_DATA:       /* field types need the instance's substitution: not supported yet */
    case TY_STREAM: case TY_FUN: case TY_FUNID: case TY_VAR:
        break;
    }
    r->ok = false;
    return value_identity(r->I->heap, t);
}

/* prim_parse_object(example, text) = (value, ok): ok when the whole text is
 * one value of the example's type. */
Value p_PARSE_OBJECT(Interp *I, Value *args, Type *ty, Span where)
{
    (void)where;
    Reader r = { I, prim_cstring(I, args[1]), true };
    Type *t = prim_arg_k(ty, 0, 2);
    Value v = parse_value(&r, t);
    skip_blanks(&r);
    if (*r.p != '\0')
        r.ok = false;
    if (!r.ok)
        v = args[0];
    return v_pair(I->heap, v, v_bool(r.ok));
}
