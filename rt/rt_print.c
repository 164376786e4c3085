/* rt_print.c — NESL's printed forms of values (interp/print.c, NESL.md 5.9,
 * 10), driven by value descriptors:
 *   top level (result lines): T/F, strings quoted, floats to 15 significant
 *     digits Common-Lisp style (-ffloat32: the shortest decimal that reads
 *     back to the same float32, doc/decisions.md), `,...` past
 *     print_length, functions `fn`;
 *   `@` (NESL's `string`): t/f, strings as sequences of chars, floats to 8
 *     significant digits, never truncated, functions `function`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_host.h"

enum { RESULT_LINE_WIDTH = 120 };

typedef struct Decimal { bool neg; char digits[24]; int ndigits, exp; } Decimal;

static Decimal decimal_parse(const char *s)
{
    Decimal d;
    memset(&d, 0, sizeof d);
    if (*s == '-') { d.neg = true; s++; }
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '0' && *s <= '9' && d.ndigits < (int)sizeof d.digits - 1) d.digits[d.ndigits++] = *s;
    if (*s) d.exp = atoi(s + 1);
    while (d.ndigits > 1 && d.digits[d.ndigits - 1] == '0') d.ndigits--;
    d.digits[d.ndigits] = '\0';
    return d;
}

static void decimal_fixed(NStr *b, const Decimal *d)
{
    if (d->neg) nstr_putc(b, '-');
    if (d->exp >= 0) {
        for (int i = 0; i <= d->exp; i++) nstr_putc(b, i < d->ndigits ? d->digits[i] : '0');
        nstr_putc(b, '.');
        if (d->ndigits > d->exp + 1) nstr_puts(b, d->digits + d->exp + 1);
        else nstr_putc(b, '0');
    } else {
        nstr_puts(b, "0.");
        for (int i = 0; i < -d->exp - 1; i++) nstr_putc(b, '0');
        nstr_puts(b, d->digits);
    }
}

static void decimal_sci(NStr *b, const Decimal *d, char marker, bool plus)
{
    if (d->neg) nstr_putc(b, '-');
    nstr_putc(b, d->digits[0]);
    nstr_putc(b, '.');
    nstr_puts(b, d->ndigits > 1 ? d->digits + 1 : "0");
    nstr_putc(b, marker);
    if (plus && d->exp >= 0) nstr_putc(b, '+');
    nstr_printf(b, "%d", d->exp);
}

static bool float_special(NStr *b, double x)
{
    if (isnan(x)) { nstr_puts(b, "NaN"); return true; }
    if (isinf(x)) { nstr_puts(b, x > 0 ? "Infinity" : "-Infinity"); return true; }
    if (x == 0.0) { nstr_puts(b, "0.0"); return true; }
    return false;
}

static void float_toplevel(NStr *b, double x)
{
    if (float_special(b, x)) return;
    char buf[48];
    snprintf(buf, sizeof buf, "%.14e", x);     /* 15 significant digits, */
    double r = strtod(buf, NULL);
    for (int prec = 0; prec <= 16; prec++) {   /* then the shortest that reads back */
        snprintf(buf, sizeof buf, "%.*e", prec, r);
        if (strtod(buf, NULL) == r) break;
    }
    Decimal d = decimal_parse(buf);
    if (d.exp >= -3 && d.exp <= 6) decimal_fixed(b, &d);
    else decimal_sci(b, &d, 'E', false);
}

/* -ffloat32: x holds a float32; the fewest significant digits that read
 * back to it (at most 9), in the same fixed or scientific form. */
static void float32_toplevel(NStr *b, double x)
{
    if (float_special(b, x)) return;
    char buf[48];
    for (int prec = 0; prec <= 8; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, x);
        if (strtof(buf, NULL) == (float)x) break;
    }
    Decimal d = decimal_parse(buf);
    if (d.exp >= -3 && d.exp <= 6) decimal_fixed(b, &d);
    else decimal_sci(b, &d, 'E', false);
}

static void float_at(NStr *b, double x)
{
    if (float_special(b, x)) return;
    char buf[48];
    snprintf(buf, sizeof buf, "%.7e", x);
    Decimal d = decimal_parse(buf);
    if (d.exp >= -3 && d.exp <= 6) decimal_fixed(b, &d);
    else decimal_sci(b, &d, 'e', true);
}

typedef struct Mode { bool at, f32; int print_length; } Mode;

static void fmt(NStr *b, NV v, const NTy *t, const Mode *m);

/* A tuple's components along the right spine: `a, b, c`. */
static void fmt_items(NStr *b, NV v, const NTy *t, const Mode *m)
{
    while (t->kind == NT_PAIR) {
        fmt(b, v.e[0], t->a, m);
        nstr_puts(b, ", ");
        v = v.e[1];
        t = t->b;
    }
    fmt(b, v, t, m);
}

static void fmt(NStr *b, NV v, const NTy *t, const Mode *m)
{
    switch (t->kind) {
    case NT_INT: nstr_printf(b, "%d", (int)v.i); return;
    case NT_FLOAT:
        if (m->at) float_at(b, v.f);
        else if (m->f32) float32_toplevel(b, v.f);
        else float_toplevel(b, v.f);
        return;
    case NT_BOOL: nstr_puts(b, v.i ? (m->at ? "t" : "T") : (m->at ? "f" : "F")); return;
    case NT_CHAR: nstr_putc(b, '`'); nstr_putc(b, (char)v.i); return;
    case NT_STREAM: nstr_puts(b, "stream"); return;
    case NT_SEQ:
        if (!m->at && t->a->kind == NT_CHAR) {
            nstr_putc(b, '"');
            for (int64_t i = 0; i < v.n; i++) {
                char c = (char)v.e[i].i;
                if (c == '"' || c == '\\') nstr_putc(b, '\\');
                nstr_putc(b, c);
            }
            nstr_putc(b, '"');
            return;
        }
        nstr_putc(b, '[');
        for (int64_t i = 0; i < v.n; i++) {
            if (!m->at && m->print_length > 0 && i == m->print_length) { nstr_puts(b, ",..."); break; }
            if (i) nstr_puts(b, ", ");
            fmt(b, v.e[i], t->a, m);
        }
        nstr_putc(b, ']');
        return;
    case NT_PAIR:
        nstr_putc(b, '(');
        fmt_items(b, v, t, m);
        nstr_putc(b, ')');
        return;
    case NT_DATA:
        nstr_put(b, t->name, (size_t)t->nname);
        nstr_putc(b, '(');
        fmt_items(b, v.e[0], t->a, m);
        nstr_putc(b, ')');
        return;
    case NT_FUN: case NT_ANYFUN: nstr_puts(b, m->at ? "function" : "fn"); return;
    }
}

void nv_format(NStr *b, NV v, const NTy *t, bool at, bool f32, int print_length)
{
    Mode m = { at, f32, at ? 0 : print_length };
    nstr_puts(b, "");
    fmt(b, v, t, &m);
}

bool nv_printable(NV v, int print_length)
{
    switch (v.kind) {
    case NT_FLOAT: return isfinite(v.f);
    case NT_INT: case NT_BOOL: case NT_CHAR: case NT_STREAM: case NT_FUN: case NT_ANYFUN: return true;
    case NT_PAIR: return nv_printable(v.e[0], print_length) && nv_printable(v.e[1], print_length);
    case NT_DATA: return nv_printable(v.e[0], print_length);
    case NT_SEQ: {
        int64_t n = print_length > 0 && v.n > print_length ? print_length : v.n;
        for (int64_t i = 0; i < n; i++)
            if (!nv_printable(v.e[i], print_length)) return false;
        return true;
    }
    }
    return true;
}

void nv_print_result(FILE *out, const char *name, const char *value, const char *type)
{
    size_t len = strlen(name) + 3 + strlen(value) + 3 + strlen(type);
    if (len <= RESULT_LINE_WIDTH) fprintf(out, "%s = %s : %s\n", name, value, type);
    else fprintf(out, "%s = \n  %s\n   : %s\n", name, value, type);
}
