/* cprint.c — the printer of the C target AST: precedence-aware expressions
 * (parentheses only where C needs them, or where GCC's -Wparentheses would
 * ask for them), four-space indentation, one statement per line. */
#include <math.h>
#include <string.h>
#include "cast.h"

/* C precedence, higher binds tighter. */
enum { P_COND = 3, P_OR = 4, P_AND = 5, P_BAND = 8, P_EQ = 9, P_REL = 10, P_ADD = 12, P_MUL = 13, P_UNARY = 15, P_POSTFIX = 16 };

static int bin_prec(CBinop op)
{
    switch (op) {
    case CB_MUL: case CB_DIV: case CB_MOD: return P_MUL;
    case CB_ADD: case CB_SUB: return P_ADD;
    case CB_LT: case CB_LE: case CB_GT: case CB_GE: return P_REL;
    case CB_EQ: case CB_NE: return P_EQ;
    case CB_BAND: return P_BAND;
    case CB_AND: return P_AND;
    case CB_OR: return P_OR;
    }
    return P_POSTFIX;
}

static const char *bin_text(CBinop op)
{
    switch (op) {
    case CB_MUL: return "*";
    case CB_DIV: return "/";
    case CB_MOD: return "%";
    case CB_ADD: return "+";
    case CB_SUB: return "-";
    case CB_LT: return "<";
    case CB_LE: return "<=";
    case CB_GT: return ">";
    case CB_GE: return ">=";
    case CB_EQ: return "==";
    case CB_NE: return "!=";
    case CB_BAND: return "&";
    case CB_AND: return "&&";
    case CB_OR: return "||";
    }
    return "?";
}

static int prec(const CExpr *e)
{
    switch (e->kind) {
    case CX_INT: case CX_FLOAT: case CX_NAME: case CX_STR:
    case CX_CALL: case CX_INDEX: case CX_ARROW: case CX_MEMBER: case CX_SIZEOF:
        return P_POSTFIX;   /* negative literals print parenthesized */
    case CX_BIN: return bin_prec(e->u.bin.op);
    case CX_UN: case CX_CAST: return P_UNARY;
    case CX_COND: return P_COND;
    }
    return P_POSTFIX;
}

static void print_e(FILE *out, const CExpr *e);

static void print_sub(FILE *out, const CExpr *e, bool parens)
{
    if (parens) fputc('(', out);
    print_e(out, e);
    if (parens) fputc(')', out);
}

/* Logical and bitwise operators mixed with others, and chained comparisons,
 * get parentheses (clearer, and what -Wparentheses asks for). */
static bool mixed(CBinop parent, const CExpr *child)
{
    if (child->kind != CX_BIN) return false;
    CBinop c = child->u.bin.op;
    int pp = bin_prec(parent), cp = bin_prec(c);
    if (parent == CB_AND || parent == CB_OR || parent == CB_BAND) return c != parent;
    if ((pp == P_REL || pp == P_EQ) && (cp == P_REL || cp == P_EQ)) return true;
    return false;
}

static void print_float(FILE *out, double f)
{
    if (isnan(f)) { fputs("NAN", out); return; }
    if (isinf(f)) { fputs(f > 0 ? "HUGE_VAL" : "(-HUGE_VAL)", out); return; }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", f);
    if (!strpbrk(buf, ".e")) strcat(buf, ".0");
    if (buf[0] == '-') fprintf(out, "(%s)", buf);
    else fputs(buf, out);
}

static void print_int(FILE *out, int64_t v)
{
    if (v == INT64_MIN) fputs("(-9223372036854775807LL - 1)", out);
    else if (v == INT32_MIN) fputs("(-2147483647 - 1)", out);
    else if (v < INT32_MIN || v > INT32_MAX) fprintf(out, v < 0 ? "(%lldLL)" : "%lldLL", (long long)v);
    else fprintf(out, v < 0 ? "(%lld)" : "%lld", (long long)v);
}

static void print_str(FILE *out, const char *s, int len)
{
    fputc('"', out);
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '?') fputs("\\?", out);
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c >= ' ' && c <= '~') fputc(c, out);
        else fprintf(out, "\\%03o", c);
    }
    fputc('"', out);
}

static void print_e(FILE *out, const CExpr *e)
{
    switch (e->kind) {
    case CX_INT: print_int(out, e->u.i); return;
    case CX_FLOAT: print_float(out, e->u.f); return;
    case CX_NAME: fputs(e->u.name, out); return;
    case CX_STR: print_str(out, e->u.str.s, e->u.str.len); return;
    case CX_BIN: {
        int p = bin_prec(e->u.bin.op);
        print_sub(out, e->u.bin.l, prec(e->u.bin.l) < p || mixed(e->u.bin.op, e->u.bin.l));
        fprintf(out, " %s ", bin_text(e->u.bin.op));
        print_sub(out, e->u.bin.r, prec(e->u.bin.r) <= p || mixed(e->u.bin.op, e->u.bin.r));
        return;
    }
    case CX_UN: {
        const CExpr *x = e->u.un.e;
        switch (e->u.un.op) {
        case CU_NEG: fputc('-', out); break;
        case CU_NOT: fputc('!', out); break;
        case CU_ADDR: fputc('&', out); break;
        case CU_DEREF: fputc('*', out); break;
        }
        /* - -x and & *p would lex differently without the parentheses */
        print_sub(out, x, prec(x) < P_UNARY || x->kind == CX_UN);
        return;
    }
    case CX_CALL:
        fprintf(out, "%s(", e->u.call.fn);
        for (int i = 0; i < e->u.call.nargs; i++) {
            if (i) fputs(", ", out);
            print_e(out, e->u.call.args[i]);
        }
        fputc(')', out);
        return;
    case CX_INDEX:
        print_sub(out, e->u.index.a, prec(e->u.index.a) < P_POSTFIX);
        fputc('[', out);
        print_e(out, e->u.index.i);
        fputc(']', out);
        return;
    case CX_ARROW: case CX_MEMBER:
        print_sub(out, e->u.member.e, prec(e->u.member.e) < P_POSTFIX);
        fprintf(out, "%s%s", e->kind == CX_ARROW ? "->" : ".", e->u.member.field);
        return;
    case CX_COND:
        print_sub(out, e->u.cond.c, prec(e->u.cond.c) <= P_COND);
        fputs(" ? ", out);
        print_sub(out, e->u.cond.t, prec(e->u.cond.t) <= P_COND);
        fputs(" : ", out);
        print_sub(out, e->u.cond.e, prec(e->u.cond.e) < P_COND);
        return;
    case CX_CAST:
        fprintf(out, "(%s)", e->u.cast.type);
        print_sub(out, e->u.cast.e, prec(e->u.cast.e) < P_UNARY);
        return;
    case CX_SIZEOF: fprintf(out, "sizeof(%s)", e->u.cast.type); return;
    }
}

void cexpr_print(FILE *out, const CExpr *e) { print_e(out, e); }

/* "T name", "T *name", "const T &name" */
static void print_typed(FILE *out, const char *type, const char *name)
{
    size_t n = strlen(type);
    fprintf(out, n && (type[n - 1] == '*' || type[n - 1] == '&') ? "%s%s" : "%s %s", type, name);
}

static void indent(FILE *out, int d)
{
    for (int i = 0; i < d; i++) fputs("    ", out);
}

static void print_block(FILE *out, const CBlock *b, int d);

static void print_stmt(FILE *out, const CStmt *s, int d)
{
    indent(out, d);
    switch (s->kind) {
    case CS_DECL:
        print_typed(out, s->u.decl.type, s->u.decl.name);
        if (s->u.decl.init) { fputs(" = ", out); print_e(out, s->u.decl.init); }
        fputs(";\n", out);
        return;
    case CS_ASSIGN:
        print_e(out, s->u.assign.lhs);
        fputs(s->u.assign.add ? " += " : " = ", out);
        print_e(out, s->u.assign.rhs);
        fputs(";\n", out);
        return;
    case CS_EXPR:
        print_e(out, s->u.expr);
        fputs(";\n", out);
        return;
    case CS_IF:
        fputs("if (", out);
        print_e(out, s->u.if_.c);
        fputs(") {\n", out);
        print_block(out, s->u.if_.then_b, d + 1);
        indent(out, d);
        if (s->u.if_.else_b) {
            fputs("} else {\n", out);
            print_block(out, s->u.if_.else_b, d + 1);
            indent(out, d);
        }
        fputs("}\n", out);
        return;
    case CS_FOR:
        fprintf(out, "for (int64_t %s = ", s->u.for_.var);
        print_e(out, s->u.for_.lo);
        fprintf(out, "; %s < ", s->u.for_.var);
        print_e(out, s->u.for_.hi);
        fprintf(out, "; %s++) {\n", s->u.for_.var);
        print_block(out, s->u.for_.body, d + 1);
        indent(out, d);
        fputs("}\n", out);
        return;
    case CS_BLOCK: case CS_LOOP:
        fputs(s->kind == CS_LOOP ? "for (;;) {\n" : "{\n", out);
        print_block(out, s->u.block, d + 1);
        indent(out, d);
        fputs("}\n", out);
        return;
    case CS_PRAGMA: fprintf(out, "#pragma %s\n", s->u.text); return;
    case CS_RETURN:
        fputs("return", out);
        if (s->u.expr) { fputc(' ', out); print_e(out, s->u.expr); }
        fputs(";\n", out);
        return;
    case CS_COMMENT: fprintf(out, "/* %s */\n", s->u.text); return;
    case CS_JUMP: fprintf(out, "%s;\n", s->u.text); return;
    }
}

static void print_block(FILE *out, const CBlock *b, int d)
{
    for (int i = 0; i < b->n; i++) print_stmt(out, b->stmts[i], d);
}

static void print_head(FILE *out, const CFunc *f)
{
    if (f->attr) fprintf(out, "%s ", f->attr);
    if (f->is_static) fputs("static ", out);
    print_typed(out, f->ret, f->name);
    fputc('(', out);
    if (!f->nparams) fputs("void", out);
    for (int i = 0; i < f->nparams; i++) {
        if (i) fputs(", ", out);
        print_typed(out, f->params[i].type, f->params[i].name);
    }
    fputc(')', out);
    if (f->post) fputs(f->post, out);
}

void cunit_print(FILE *out, const CUnit *u)
{
    if (u->comment) fprintf(out, "/* %s */\n", u->comment);
    for (int i = 0; i < u->includes.len; i++) fprintf(out, "#include %s\n", (const char *)u->includes.items[i]);
    for (int i = 0; i < u->structs.len; i++) {
        const CStruct *s = u->structs.items[i];
        fprintf(out, "\ntypedef struct %s {\n", s->name);
        for (int j = 0; j < s->n; j++) {
            indent(out, 1);
            print_typed(out, s->types[j], s->fields[j]);
            fputs(";\n", out);
        }
        for (int j = 0; j < s->methods.len; j++) {
            const CFunc *m = s->methods.items[j];
            indent(out, 1);
            print_head(out, m);
            fputs("\n    {\n", out);
            print_block(out, m->body, 2);
            fputs("    }\n", out);
        }
        fprintf(out, "} %s;\n", s->name);
    }
    for (int i = 0; i < u->tables.len; i++) {
        const CTable *t = u->tables.items[i];
        fprintf(out, "\nstatic const char *const %s[%d] = {", t->name, t->n ? t->n : 1);
        for (int j = 0; j < t->n; j++) {
            fputs(j ? ",\n    " : "\n    ", out);
            print_str(out, t->strs[j], (int)strlen(t->strs[j]));
        }
        fputs(t->n ? "\n};\n" : " 0 };\n", out);
    }
    bool any = false;
    for (int i = 0; i < u->funcs.len; i++) {
        const CFunc *f = u->funcs.items[i];
        if (!f->is_static) continue;
        if (!any) fputc('\n', out);
        any = true;
        print_head(out, f);
        fputs(";\n", out);
    }
    for (int i = 0; i < u->funcs.len; i++) {
        const CFunc *f = u->funcs.items[i];
        fputc('\n', out);
        if (f->comment) fprintf(out, "/* %s */\n", f->comment);
        print_head(out, f);
        fputs("\n{\n", out);
        print_block(out, f->body, 1);
        fputs("}\n", out);
    }
    for (int i = 0; i < u->raw.len; i++) fputs(u->raw.items[i], out);
}
