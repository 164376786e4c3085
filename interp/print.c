/* print.c — NESL 3.1's printed forms of values (NESL.md 5.9, 10).
 *
 * Two formats share one recursive printer:
 *   top level (REPL result lines): T/F, strings quoted, floats rounded to 15
 *     significant digits and printed Common-Lisp style, `,...` past
 *     print_length elements, functions `fn`;
 *   `@` (NESL's `string`): t/f, strings as sequences of chars, floats to 8
 *     significant digits, never truncated, functions `function`.
 * The static type drives printing (it decides e.g. that an empty [char] is
 * `""`); where the type is not known (an unresolved variable) the value's own
 * tags are used instead. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp_impl.h"

/* A result line `name = value : type` longer than this many characters
 * (newline excluded) is split over three lines (NESL.md 10: "stays on one
 * line when it fits in 120 characters", read as length <= 120). */
enum { RESULT_LINE_WIDTH = 120 };

/* ------------------------------------------------------------------ StrBuf */

static void sb_reserve(StrBuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < b->len + extra + 1) ncap *= 2;
    char *nd = realloc(b->data, ncap);
    if (!nd) ICE("out of memory in the value printer");
    b->data = nd;
    b->cap = ncap;
}

void sb_putc(StrBuf *b, char c)
{
    sb_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void sb_puts(StrBuf *b, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

/* Formats into a stack buffer first: most pieces are short, and a sized
 * buffer (not vsnprintf(NULL, 0, ...)) keeps GCC's -Wformat-truncation
 * quiet under -fsanitize=undefined. */
void sb_printf(StrBuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) ICE("bad format in sb_printf");
    sb_reserve(b, (size_t)n);
    if ((size_t)n < sizeof tmp) {
        memcpy(b->data + b->len, tmp, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

void sb_free(StrBuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ------------------------------------------------------------------ floats */

/* A decimal d1.d2...dn * 10^exp, digits without trailing zeros. */
typedef struct Decimal {
    bool neg;
    char digits[24];
    int ndigits;
    int exp;
} Decimal;

/* Parses printf's "%.*e" output ("-1.2345e+07") into a Decimal. */
static Decimal decimal_parse(const char *s)
{
    Decimal d;
    memset(&d, 0, sizeof d);
    if (*s == '-') { d.neg = true; s++; }
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '0' && *s <= '9' && d.ndigits < (int)sizeof d.digits - 1)
            d.digits[d.ndigits++] = *s;
    if (*s) d.exp = atoi(s + 1);
    while (d.ndigits > 1 && d.digits[d.ndigits - 1] == '0') d.ndigits--;
    d.digits[d.ndigits] = '\0';
    return d;
}

/* Positional notation: at least one digit on each side of the point. */
static void decimal_fixed(StrBuf *b, const Decimal *d)
{
    if (d->neg) sb_putc(b, '-');
    if (d->exp >= 0) {
        for (int i = 0; i <= d->exp; i++) sb_putc(b, i < d->ndigits ? d->digits[i] : '0');
        sb_putc(b, '.');
        if (d->ndigits > d->exp + 1)
            sb_puts(b, d->digits + d->exp + 1);
        else
            sb_putc(b, '0');
    } else {
        sb_puts(b, "0.");
        for (int i = 0; i < -d->exp - 1; i++) sb_putc(b, '0');
        sb_puts(b, d->digits);
    }
}

/* d.ddd followed by the exponent marker and the exponent. */
static void decimal_sci(StrBuf *b, const Decimal *d, char marker, bool plus)
{
    if (d->neg) sb_putc(b, '-');
    sb_putc(b, d->digits[0]);
    sb_putc(b, '.');
    sb_puts(b, d->ndigits > 1 ? d->digits + 1 : "0");
    sb_putc(b, marker);
    if (plus && d->exp >= 0) sb_putc(b, '+');
    sb_printf(b, "%d", d->exp);
}

/* NaN and infinities (which the evaluator normally refuses to print). */
static bool float_special(StrBuf *b, double x)
{
    if (isnan(x)) { sb_puts(b, "NaN"); return true; }
    if (isinf(x)) { sb_puts(b, x > 0 ? "Infinity" : "-Infinity"); return true; }
    if (x == 0.0) { sb_puts(b, "0.0"); return true; }   /* -0.0 too */
    return false;
}

void format_float_toplevel(StrBuf *b, double x)
{
    if (float_special(b, x)) return;
    char buf[48];
    /* Round to 15 significant digits... */
    snprintf(buf, sizeof buf, "%.14e", x);
    double r = strtod(buf, NULL);
    /* ...then take the shortest decimal that reads back as that double. */
    for (int prec = 0; prec <= 16; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, r);
        if (strtod(buf, NULL) == r) break;
    }
    Decimal d = decimal_parse(buf);
    /* Fixed exactly when 1e-3 <= |x| < 1e7. */
    if (d.exp >= -3 && d.exp <= 6)
        decimal_fixed(b, &d);
    else
        decimal_sci(b, &d, 'E', false);
}

void format_float_at(StrBuf *b, double x)
{
    if (float_special(b, x)) return;
    char buf[48];
    snprintf(buf, sizeof buf, "%.7e", x);   /* 8 significant digits */
    Decimal d = decimal_parse(buf);
    /* k = exp + 1 after rounding; positional when -2 <= k <= 7. */
    if (d.exp >= -3 && d.exp <= 6)
        decimal_fixed(b, &d);
    else
        decimal_sci(b, &d, 'e', true);
}

/* ------------------------------------------------------------------ values */

/* Substitution of a datatype's parameters by the arguments of the TY_DATA
 * being printed; an argument is itself read in the enclosing environment. */
typedef struct TEnv {
    Type **params, **args;
    int n;
    const struct TEnv *parent;
} TEnv;

typedef struct PrintMode {
    bool at;            /* `@` format rather than the top-level one */
    int print_length;   /* top level only; <= 0: unlimited */
} PrintMode;

/* Follows links and datatype parameters; NULL when the type is unknown. */
static Type *resolve(Type *t, const TEnv **env)
{
    for (;;) {
        t = type_prune(t);
        if (!t || t->kind != TY_VAR) return t;
        const TEnv *e = *env;
        bool found = false;
        for (; e && !found; e = e->parent)
            for (int i = 0; i < e->n; i++)
                if (type_prune(e->params[i]) == t) {
                    t = e->args[i];
                    *env = e->parent;
                    found = true;
                    break;
                }
        if (!found) return NULL;
    }
}

static void fmt_value(StrBuf *b, Value v, Type *t, const TEnv *env, const PrintMode *m);

/* The components of a tuple, flat along the right spine: `a, b, c`. */
static void fmt_items(StrBuf *b, Value v, Type *t, const TEnv *env, const PrintMode *m)
{
    for (;;) {
        const TEnv *e = env;
        Type *rt = resolve(t, &e);
        bool is_pair = rt ? rt->kind == TY_PAIR : v.kind == V_PAIR;
        if (!is_pair || v.kind != V_PAIR) {
            fmt_value(b, v, rt, e, m);
            return;
        }
        fmt_value(b, v.pair->fst, rt ? rt->fst : NULL, e, m);
        sb_puts(b, ", ");
        v = v.pair->snd;
        t = rt ? rt->snd : NULL;
        env = e;
    }
}

static void fmt_char(StrBuf *b, uint8_t c)
{
    sb_putc(b, '`');
    sb_putc(b, (char)c);
}

static void fmt_string(StrBuf *b, const Seq *s)
{
    sb_putc(b, '"');
    for (int64_t i = 0; i < s->len; i++) {
        char c = (char)s->elems[i].c;
        if (c == '"' || c == '\\') sb_putc(b, '\\');
        sb_putc(b, c);
    }
    sb_putc(b, '"');
}

static void fmt_seq(StrBuf *b, const Seq *s, Type *elem, const TEnv *env, const PrintMode *m)
{
    if (!m->at) {
        const TEnv *e = env;
        Type *re = resolve(elem, &e);
        bool is_string = re ? re->kind == TY_CHAR
                            : (s->len > 0 && s->elems[0].kind == V_CHAR);
        if (is_string) { fmt_string(b, s); return; }
    }
    sb_putc(b, '[');
    for (int64_t i = 0; i < s->len; i++) {
        if (!m->at && m->print_length > 0 && i == m->print_length) {
            sb_puts(b, ",...");
            break;
        }
        if (i) sb_puts(b, ", ");
        fmt_value(b, s->elems[i], elem, env, m);
    }
    sb_putc(b, ']');
}

static void fmt_data(StrBuf *b, const DataVal *dv, Type *t, const TEnv *env, const PrintMode *m)
{
    DataDecl *d = dv->decl;
    sb_puts(b, d && d->name ? d->name : "?");
    TEnv inner = { NULL, NULL, 0, env };
    Type *ft = NULL;
    if (d && t && t->kind == TY_DATA) {
        ft = d->field_type;
        inner.params = d->params;
        inner.args = t->args;
        inner.n = d->params ? (t->nargs < d->nctx ? t->nargs : d->nctx) : 0;
    }
    sb_putc(b, '(');
    fmt_items(b, dv->fields, ft, ft ? &inner : env, m);
    sb_putc(b, ')');
}

static void fmt_by_value(StrBuf *b, Value v, const PrintMode *m)
{
    switch (v.kind) {
    case V_INT: sb_printf(b, "%" PRId32, v.i); return;
    case V_FLOAT:
        if (m->at) format_float_at(b, v.f); else format_float_toplevel(b, v.f);
        return;
    case V_BOOL: sb_puts(b, v.b ? (m->at ? "t" : "T") : (m->at ? "f" : "F")); return;
    case V_CHAR: fmt_char(b, v.c); return;
    case V_SEQ: fmt_seq(b, v.seq, NULL, NULL, m); return;
    case V_PAIR:
        sb_putc(b, '(');
        fmt_items(b, v, NULL, NULL, m);
        sb_putc(b, ')');
        return;
    case V_DATA: fmt_data(b, v.data, NULL, NULL, m); return;
    case V_FUN: sb_puts(b, m->at ? "function" : "fn"); return;
    case V_STREAM: sb_puts(b, "stream"); return;
    }
}

static void fmt_value(StrBuf *b, Value v, Type *t, const TEnv *env, const PrintMode *m)
{
    t = resolve(t, &env);
    if (!t) { fmt_by_value(b, v, m); return; }
    switch (t->kind) {
    case TY_INT:
    case TY_FLOAT:
    case TY_BOOL:
    case TY_CHAR:
    case TY_STREAM:
        fmt_by_value(b, v, m);
        return;
    case TY_SEQ:
        if (v.kind != V_SEQ) break;
        fmt_seq(b, v.seq, t->elem, env, m);
        return;
    case TY_PAIR:
        if (v.kind != V_PAIR) break;
        sb_putc(b, '(');
        fmt_items(b, v, t, env, m);
        sb_putc(b, ')');
        return;
    case TY_DATA:
        if (v.kind != V_DATA) break;
        fmt_data(b, v.data, t, env, m);
        return;
    case TY_FUN:
    case TY_FUNID:
        sb_puts(b, m->at ? "function" : "fn");
        return;
    case TY_VAR:
        break;      /* resolve() never returns one */
    }
    fmt_by_value(b, v, m);   /* type and value disagree: trust the value */
}

void format_value(StrBuf *b, Value v, Type *t, int print_length)
{
    PrintMode m = { false, print_length };
    fmt_value(b, v, t, NULL, &m);
}

void value_to_nesl_string(StrBuf *b, Value v, Type *t)
{
    PrintMode m = { true, 0 };
    fmt_value(b, v, t, NULL, &m);
}

/* ------------------------------------------------------------------ result lines */

static void print_line(FILE *out, const char *name, const char *value, const char *type)
{
    size_t len = strlen(name) + 3 + strlen(value) + 3 + strlen(type);
    if (len <= RESULT_LINE_WIDTH)
        fprintf(out, "%s = %s : %s\n", name, value, type);
    else
        fprintf(out, "%s = \n  %s\n   : %s\n", name, value, type);
}

void print_result(FILE *out, const char *name, Value v, Type *t, int print_length)
{
    StrBuf vb = { NULL, 0, 0 };
    sb_puts(&vb, "");
    format_value(&vb, v, t, print_length);
    Arena *a = arena_new();
    /* Result types are concrete; a context would be empty anyway. */
    char *ts = type_to_string(a, t, true);
    print_line(out, name, vb.data, ts);
    arena_free(a);
    sb_free(&vb);
}

void print_fn_result(FILE *out, const char *name, Type *generic_type)
{
    Arena *a = arena_new();
    char *ts = type_to_string(a, generic_type, true);
    print_line(out, name, "fn", ts);
    arena_free(a);
}
