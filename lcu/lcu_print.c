/* lcu_print.c — the canonical λcu text form (grammar: doc/lcu.md).
 * Whatever this writes, lcu_parse reads back to a tree that prints the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_internal.h"

void lcu_print_type(FILE *out, const LcuType *t)
{
    switch (t->kind) {
    case LT_BASE: fputs(lcu_base_name(t->base), out); return;
    case LT_VEC: fprintf(out, "[%s]", lcu_base_name(t->base)); return;
    case LT_REF: fprintf(out, "&[%s]", lcu_base_name(t->base)); return;
    case LT_SD: fputs("sd", out); return;
    case LT_TUPLE:
        fputc('(', out);
        for (int i = 0; i < t->n; i++) {
            if (i) fputs(", ", out);
            lcu_print_type(out, t->elems[i]);
        }
        fputc(')', out);
        return;
    }
}

/* Shortest decimal that reads back as the same double, always with a '.'
 * or exponent so that it lexes as a float again. */
void lcu_format_float(char *buf, size_t n, double x)
{
    if (isnan(x) || isinf(x)) { snprintf(buf, n, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"); return; }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    if (!strpbrk(buf, ".e")) strncat(buf, ".0", n - strlen(buf) - 1);
}

void lcu_print_char_escaped(FILE *out, int c, char quote)
{
    c &= 255;
    if (c == '\n') fputs("\\n", out);
    else if (c == '\t') fputs("\\t", out);
    else if (c == '\\') fputs("\\\\", out);
    else if (c == quote) fprintf(out, "\\%c", quote);
    else if (c >= ' ' && c <= '~') fputc(c, out);
    else fprintf(out, "\\x%02x", c);
}

const char *lcu_binop_text(LcuBinop op)
{
    switch (op) {
    case LOP_ADD: return "+";
    case LOP_SUB: return "-";
    case LOP_MUL: return "*";
    case LOP_DIV: return "/";
    case LOP_MOD: return "%";
    case LOP_EQ: return "==";
    case LOP_NE: return "!=";
    case LOP_LT: return "<";
    case LOP_LE: return "<=";
    case LOP_GT: return ">";
    case LOP_GE: return ">=";
    case LOP_AND: return "&&";
    case LOP_OR: return "||";
    }
    return "?";
}

int lcu_binop_prec(LcuBinop op)
{
    switch (op) {
    case LOP_OR: return 1;
    case LOP_AND: return 2;
    case LOP_EQ: case LOP_NE: case LOP_LT: case LOP_LE: case LOP_GT: case LOP_GE: return 3;
    case LOP_ADD: case LOP_SUB: return 4;
    case LOP_MUL: case LOP_DIV: case LOP_MOD: return 5;
    }
    return 0;
}

static void indent(FILE *out, int n) { for (int i = 0; i < n; i++) fputs("  ", out); }
static void print_expr(FILE *out, const LcuExpr *e, int prec, int ind);
static void print_soac(FILE *out, const LcuSoac *s);

static void print_string(FILE *out, const char *s, int len)
{
    fputc('"', out);
    for (int i = 0; i < len; i++) lcu_print_char_escaped(out, (unsigned char)s[i], '"');
    fputc('"', out);
}

static void print_args(FILE *out, int n, LcuExpr **args, int ind)
{
    fputc('(', out);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        print_expr(out, args[i], 0, ind);
    }
    fputc(')', out);
}

static void print_bind(FILE *out, const char *keyword, const LcuBind *b, int ind)
{
    fprintf(out, "%s ", keyword);
    bool paren = b->nvars != 1;
    if (paren) fputc('(', out);
    for (int i = 0; i < b->nvars; i++) {
        if (i) fputs(", ", out);
        fputs(b->vars[i], out);
        if (b->types) { fputs(" : ", out); lcu_print_type(out, b->types[i]); }
    }
    if (paren) fputc(')', out);
    fputs(" = ", out);
    print_expr(out, b->rhs, 0, ind);
}

static void print_block(FILE *out, const LcuExpr *e, int ind)
{
    fputs("{\n", out);
    for (int i = 0; i < e->u.block.nbinds; i++) {
        indent(out, ind + 1);
        print_bind(out, "let", e->u.block.binds[i], ind + 1);
        fputc('\n', out);
    }
    indent(out, ind + 1);
    fputs("return ", out);
    print_expr(out, e->u.block.result, 0, ind + 1);
    fputc('\n', out);
    indent(out, ind);
    fputc('}', out);
}

/* prec: the binding strength the context demands; 0 = anything goes. */
static void print_expr(FILE *out, const LcuExpr *e, int prec, int ind)
{
    char buf[64];
    switch (e->kind) {
    case LE_INT: fprintf(out, "%lld", (long long)e->u.i); return;
    case LE_FLOAT: lcu_format_float(buf, sizeof buf, e->u.f); fputs(buf, out); return;
    case LE_BOOL: fputs(e->u.b ? "true" : "false", out); return;
    case LE_CHAR:
        fputc('\'', out);
        lcu_print_char_escaped(out, (int)e->u.i, '\'');
        fputc('\'', out);
        return;
    case LE_UNIT: fputs("()", out); return;
    case LE_VAR: fputs(e->u.var, out); return;
    case LE_TUPLE: print_args(out, e->u.tuple.n, e->u.tuple.elems, ind); return;
    case LE_RECUR:
        fputs("recur ", out);
        print_args(out, e->u.tuple.n, e->u.tuple.elems, ind);
        return;
    case LE_VECLIT:
        fputc('[', out);
        for (int i = 0; i < e->u.tuple.n; i++) {
            if (i) fputs(", ", out);
            print_expr(out, e->u.tuple.elems[i], 0, ind);
        }
        fputc(']', out);
        return;
    case LE_LET: case LE_LOOP:
        if (prec > 0) fputc('(', out);
        print_bind(out, e->kind == LE_LET ? "let" : "iterate", e->u.let.bind, ind);
        fputs(" in ", out);
        print_expr(out, e->u.let.body, 0, ind);
        if (prec > 0) fputc(')', out);
        return;
    case LE_IF:
        if (prec > 0) fputc('(', out);
        fputs("if ", out);
        print_expr(out, e->u.if_.cond, 0, ind);
        fputs(" then ", out);
        print_expr(out, e->u.if_.then_e, 0, ind);
        fputs(" else ", out);
        print_expr(out, e->u.if_.else_e, 0, ind);
        if (prec > 0) fputc(')', out);
        return;
    case LE_BINOP: {
        int p = lcu_binop_prec(e->u.bin.op);
        /* Left-associative; comparisons do not chain. */
        int lp = p == 3 ? p + 1 : p;
        if (p < prec) fputc('(', out);
        print_expr(out, e->u.bin.l, lp, ind);
        fprintf(out, " %s ", lcu_binop_text(e->u.bin.op));
        print_expr(out, e->u.bin.r, p + 1, ind);
        if (p < prec) fputc(')', out);
        return;
    }
    case LE_UNOP:
        switch (e->u.un.op) {
        case LUOP_NEG: case LUOP_NOT:
            if (prec > 6) fputc('(', out);
            fputs(e->u.un.op == LUOP_NEG ? "-" : "not ", out);
            /* The parser reads "-3" as one literal, so the negation of a
             * literal keeps its parentheses: -(3), -(0.5). */
            if (e->u.un.op == LUOP_NEG && (e->u.un.e->kind == LE_INT || e->u.un.e->kind == LE_FLOAT)) {
                fputc('(', out);
                print_expr(out, e->u.un.e, 0, ind);
                fputc(')', out);
            } else {
                print_expr(out, e->u.un.e, 6, ind);
            }
            if (prec > 6) fputc(')', out);
            return;
        case LUOP_TO_FLOAT: case LUOP_TO_INT:
            fputs(e->u.un.op == LUOP_TO_FLOAT ? "float(" : "int(", out);
            print_expr(out, e->u.un.e, 0, ind);
            fputc(')', out);
            return;
        }
        return;
    case LE_INDEX:
        fprintf(out, "%s%s", e->u.index.vec, e->u.index.inrange ? ".[" : "[");
        print_expr(out, e->u.index.idx, 0, ind);
        fputc(']', out);
        return;
    case LE_LEN:
        fprintf(out, e->u.len.paren ? "#(%s)" : "#%s", e->u.len.vec);
        return;
    case LE_RUN:
        fprintf(out, "run %s ", e->u.call.name);
        print_args(out, e->u.call.nargs, e->u.call.args, ind);
        return;
    case LE_CALL:
        fprintf(out, "%s ", e->u.call.name);
        print_args(out, e->u.call.nargs, e->u.call.args, ind);
        return;
    case LE_BLOCK: print_block(out, e, ind); return;
    case LE_STRING: print_string(out, e->u.str.s, e->u.str.len); return;
    case LE_SOAC: print_soac(out, e->u.soac); return;
    case LE_LIB:
        fprintf(out, "lib %s ", e->u.lib.name);
        print_string(out, e->u.lib.tag, (int)strlen(e->u.lib.tag));
        fputc(' ', out);
        print_args(out, e->u.lib.nargs, e->u.lib.args, ind);
        fputs(" -> ", out);
        lcu_print_type(out, e->u.lib.result);
        return;
    }
}

void lcu_print_expr(FILE *out, const LcuExpr *e) { print_expr(out, e, 0, 0); }

static void print_names(FILE *out, int n, Sym *names)
{
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        fputs(names[i], out);
    }
}

static void print_thunk(FILE *out, const LcuThunk *t)
{
    fputs("{ ", out);
    if (t->nparams == 1) fputs(t->params[0], out);
    else { fputc('(', out); print_names(out, t->nparams, t->params); fputc(')', out); }
    fputs(" => ", out);
    print_expr(out, t->body, 0, 0);
    if (t->nusing) { fputs(" using ", out); print_names(out, t->nusing, t->using_); }
    fputs(" }", out);
}

static void print_soac(FILE *out, const LcuSoac *s)
{
    fputs(lcu_soac_name(s->kind), out);
    for (int j = 0; j < s->nargs; j++) {
        const LcuArg *g = s->args[j];
        fputc(' ', out);
        switch (g->kind) {
        case LA_THUNK: print_thunk(out, g->u.thunk); break;
        case LA_EXPR:
            /* The paper writes both (#xs) and #(xs); keep whichever was used. */
            if (g->u.expr->kind == LE_LEN && g->u.expr->u.len.paren) print_expr(out, g->u.expr, 0, 0);
            else { fputc('(', out); print_expr(out, g->u.expr, 0, 0); fputc(')', out); }
            break;
        }
    }
    if (s->kept) {
        fputs(" kept (", out);
        print_expr(out, s->kept, 0, 0);
        fputc(')', out);
    }
}

static void print_params(FILE *out, int n, const LcuParam *ps)
{
    fputc('(', out);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        fprintf(out, "%s : ", ps[i].name);
        lcu_print_type(out, ps[i].type);
    }
    fputc(')', out);
}

static void print_kernel(FILE *out, const LcuKernel *k)
{
    fprintf(out, "kernel %s ", k->name);
    print_params(out, k->nparams, k->params);
    fputs(" -> ", out);
    lcu_print_type(out, k->result);
    fputs(" {\n", out);
    for (int i = 0; i < k->nbinds; i++) {
        const LcuKBind *b = k->binds[i];
        fputs("  let ", out);
        if (b->nvars == 1) fputs(b->vars[0], out);
        else { fputc('(', out); print_names(out, b->nvars, b->vars); fputc(')', out); }
        fputs(" = ", out);
        print_soac(out, b->soac);
        fputc('\n', out);
    }
    fputs("  return ", out);
    if (k->ret_paren || k->nrets != 1) { fputc('(', out); print_names(out, k->nrets, k->rets); fputc(')', out); }
    else fputs(k->rets[0], out);
    fputs("\n}\n", out);
}

static void print_fun(FILE *out, const LcuFun *f)
{
    fprintf(out, "function %s ", f->name);
    print_params(out, f->nparams, f->params);
    fputs(" -> ", out);
    lcu_print_type(out, f->result);
    fputc(' ', out);
    print_block(out, f->body, 0);
    fputc('\n', out);
}

void lcu_print(FILE *out, const LcuProgram *p)
{
    bool first = true;
    for (int i = 0; i < p->nsites; i++) {
        fprintf(out, "site %d ", i);
        print_string(out, p->sites[i], (int)strlen(p->sites[i]));
        fputc('\n', out);
        first = false;
    }
    for (int i = 0; i < p->nkernels; i++) {
        if (!first) fputc('\n', out);
        first = false;
        print_kernel(out, p->kernels[i]);
    }
    for (int i = 0; i < p->nfuns; i++) {
        if (!first) fputc('\n', out);
        first = false;
        print_fun(out, p->funs[i]);
    }
}
