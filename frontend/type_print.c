/* type_print.c — NESL 3.1's printed form of types (NESL.md 4.6, 5.9, 10).
 *
 *   int, float            outermost pair: no parentheses
 *   int, float, bool      right-nested tuples: flat
 *   (int, int), int       a pair in the first position: parenthesised
 *   [(int, float)]        pairs inside sequences / datatype arguments / arrows:
 *   (float, float) -> float   parenthesised
 *   (int -> int) -> int   a function as an arrow's argument: parenthesised;
 *   (a -> b, a) -> b      elsewhere bare (`->` binds tighter than `,`)
 *   a -> a :: (a in number)   unbound variables named a, b, c, ... in order of
 *                         first appearance; with_context lists every one. */
#include <stdlib.h>
#include <string.h>

#include "ast.h"

/* Where a type occurs; decides its parentheses. */
typedef enum {
    POS_TOP,        /* the whole type */
    POS_FST,        /* first component of a pair */
    POS_SND,        /* second component: continues a flat tuple */
    POS_ARG,        /* argument of an arrow */
    POS_RES,        /* result of an arrow */
    POS_INNER,      /* inside [ ] or a datatype's argument list */
} Pos;

/* Per-call printing state: output text and the variables seen so far. */
typedef struct TPrint {
    char *buf; size_t len, cap;
    Type **vars; int nvars, capvars;
} TPrint;

static void tp_grow(TPrint *p, size_t extra)
{
    if (p->len + extra + 1 <= p->cap) return;
    size_t ncap = p->cap ? p->cap : 64;
    while (ncap < p->len + extra + 1) ncap *= 2;
    char *nb = realloc(p->buf, ncap);
    if (!nb) ICE("out of memory printing a type");
    p->buf = nb;
    p->cap = ncap;
}

static void tp_puts(TPrint *p, const char *s)
{
    size_t n = strlen(s);
    tp_grow(p, n);
    memcpy(p->buf + p->len, s, n);
    p->len += n;
    p->buf[p->len] = '\0';
}

/* Index of variable v in order of first appearance (adding it if new). */
static int tp_var_index(TPrint *p, Type *v)
{
    for (int i = 0; i < p->nvars; i++)
        if (p->vars[i] == v) return i;
    if (p->nvars == p->capvars) {
        int ncap = p->capvars ? p->capvars * 2 : 8;
        Type **nv = realloc(p->vars, (size_t)ncap * sizeof *nv);
        if (!nv) ICE("out of memory printing a type");
        p->vars = nv;
        p->capvars = ncap;
    }
    p->vars[p->nvars] = v;
    return p->nvars++;
}

/* a, b, ..., z, then a1, b1, ... */
static void tp_var_name(TPrint *p, int idx)
{
    char name[32];
    if (idx < 26)
        snprintf(name, sizeof name, "%c", 'a' + idx);
    else
        snprintf(name, sizeof name, "%c%d", 'a' + idx % 26, idx / 26);
    tp_puts(p, name);
}

static const char *class_name(TypeClass c)
{
    switch (c) {
    case CLS_ANY: return "any";
    case CLS_ORDINAL: return "ordinal";
    case CLS_NUMBER: return "number";
    case CLS_LOGICAL: return "logical";
    }
    return "any";
}

static void tp_type(TPrint *p, Type *t, Pos pos)
{
    t = type_prune(t);
    if (!t) { tp_puts(p, "?"); return; }
    switch (t->kind) {
    case TY_INT: tp_puts(p, "int"); return;
    case TY_FLOAT: tp_puts(p, "float"); return;
    case TY_BOOL: tp_puts(p, "bool"); return;
    case TY_CHAR: tp_puts(p, "char"); return;
    case TY_STREAM: tp_puts(p, "stream"); return;
    case TY_SEQ:
        tp_puts(p, "[");
        tp_type(p, t->elem, POS_INNER);
        tp_puts(p, "]");
        return;
    case TY_PAIR: {
        bool parens = pos != POS_TOP && pos != POS_SND;
        if (parens) tp_puts(p, "(");
        tp_type(p, t->fst, POS_FST);
        tp_puts(p, ", ");
        tp_type(p, t->snd, POS_SND);
        if (parens) tp_puts(p, ")");
        return;
    }
    case TY_DATA:
        tp_puts(p, t->data && t->data->name ? t->data->name : "?");
        if (t->nargs > 0) {
            tp_puts(p, "(");
            for (int i = 0; i < t->nargs; i++) {
                if (i) tp_puts(p, ", ");
                tp_type(p, t->args[i], POS_INNER);
            }
            tp_puts(p, ")");
        }
        return;
    case TY_FUN: {
        bool parens = pos == POS_ARG;
        if (parens) tp_puts(p, "(");
        tp_type(p, t->arg, POS_ARG);
        tp_puts(p, " -> ");
        tp_type(p, t->res, POS_RES);
        if (parens) tp_puts(p, ")");
        return;
    }
    case TY_FUNID:
        /* Only ever a TY_FUN's identity; printed like a function value. */
        tp_puts(p, "fn");
        return;
    case TY_VAR:
        tp_var_name(p, tp_var_index(p, t));
        return;
    }
}

/* Prints t into a fresh malloc'd TPrint; caller frees p->buf and p->vars. */
static void tp_run(TPrint *p, Type *t, bool with_context)
{
    memset(p, 0, sizeof *p);
    tp_puts(p, "");
    tp_type(p, t, POS_TOP);
    if (with_context && p->nvars > 0) {
        tp_puts(p, " :: (");
        for (int i = 0; i < p->nvars; i++) {
            if (i) tp_puts(p, "; ");
            tp_var_name(p, i);
            tp_puts(p, " in ");
            tp_puts(p, class_name(p->vars[i]->cls));
        }
        tp_puts(p, ")");
    }
}

void print_type(FILE *out, Type *t, bool with_context)
{
    TPrint p;
    tp_run(&p, t, with_context);
    fputs(p.buf, out);
    free(p.buf);
    free(p.vars);
}

char *type_to_string(Arena *a, Type *t, bool with_context)
{
    TPrint p;
    tp_run(&p, t, with_context);
    char *s = arena_strndup(a, p.buf, p.len);
    free(p.buf);
    free(p.vars);
    return s;
}
