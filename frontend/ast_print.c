/* ast_print.c — readable dump of the AST for --emit=ast|typed|mono.
 *
 * One node per line, indented by depth, with its source position; with
 * `with_types`, each expression's type follows after `::`. */
#include "ast.h"

typedef struct Dump { FILE *out; bool types; } Dump;

static void indent(Dump *d, int depth) { for (int i = 0; i < depth; i++) fputs("  ", d->out); }

static void pos(Dump *d, Span sp) { fprintf(d->out, " @%d:%d", sp.line, sp.col); }

static void texpr(Dump *d, const TypeExpr *t)
{
    switch (t->kind) {
    case TE_INT: fputs("int", d->out); return;
    case TE_FLOAT: fputs("float", d->out); return;
    case TE_BOOL: fputs("bool", d->out); return;
    case TE_CHAR: fputs("char", d->out); return;
    case TE_NAME:
        fputs(t->name, d->out);
        if (t->nargs) {
            fputc('(', d->out);
            for (int i = 0; i < t->nargs; i++) { if (i) fputs(", ", d->out); texpr(d, t->args[i]); }
            fputc(')', d->out);
        }
        return;
    case TE_SEQ: fputc('[', d->out); texpr(d, t->a); fputc(']', d->out); return;
    case TE_PAIR: fputc('(', d->out); texpr(d, t->a); fputs(", ", d->out); texpr(d, t->b); fputc(')', d->out); return;
    case TE_FUN: fputc('(', d->out); texpr(d, t->a); fputs(" -> ", d->out); texpr(d, t->b); fputc(')', d->out); return;
    }
}

static void typ(Dump *d, Type *t)
{
    if (!d->types || !t) return;
    fputs(" :: ", d->out);
    print_type(d->out, t, false);
}

static void pattern(Dump *d, const Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR:
        fputs(p->binder->name, d->out);
        if (d->types && p->binder->slot >= 0) fprintf(d->out, "#%d", p->binder->slot);
        return;
    case PAT_PAIR:
        fputc('(', d->out); pattern(d, p->fst); fputs(", ", d->out); pattern(d, p->snd); fputc(')', d->out);
        return;
    case PAT_CON:
        fprintf(d->out, "%s(", p->con); pattern(d, p->sub); fputc(')', d->out);
        return;
    }
}

static void expr(Dump *d, const Expr *e, int depth);

static void child(Dump *d, const char *label, const Expr *e, int depth)
{
    indent(d, depth);
    fprintf(d->out, "%s:\n", label);
    expr(d, e, depth + 1);
}

static void expr(Dump *d, const Expr *e, int depth)
{
    indent(d, depth);
    FILE *o = d->out;
    switch (e->kind) {
    case EX_INT: fprintf(o, "int %d", e->ival); break;
    case EX_FLOAT: fprintf(o, "float %.17g", e->fval); break;
    case EX_BOOL: fprintf(o, "bool %s", e->bval ? "t" : "f"); break;
    case EX_CHAR: fprintf(o, "char %d", e->ival); break;
    case EX_STRING:
        fputs("string \"", o);
        for (int i = 0; i < e->slen; i++) {
            unsigned char ch = (unsigned char)e->str[i];
            if (ch == '"' || ch == '\\') fprintf(o, "\\%c", ch);
            else if (ch < 32 || ch > 126) fprintf(o, "\\x%02x", ch);
            else fputc(ch, o);
        }
        fputc('"', o);
        break;
    case EX_VAR:
        fprintf(o, "var %s", e->name);
        switch (e->ref) {
        case REF_NONE: break;
        case REF_LOCAL: fprintf(o, " (local #%d)", e->binder->slot); break;
        case REF_GLOBAL: fprintf(o, " (global %d)", e->binder->global_index); break;
        case REF_FUN: fprintf(o, " (function%s)", e->fun && e->fun->generic ? ", instance" : ""); break;
        case REF_PRIM: fprintf(o, " (primitive)"); break;
        case REF_CON: fprintf(o, " (constructor)"); break;
        }
        break;
    case EX_PAIR: fputs("pair", o); break;
    case EX_IF: fputs("if", o); break;
    case EX_LET: fputs("let", o); break;
    case EX_LAMBDA: fputs("lambda ", o); pattern(d, e->param); break;
    case EX_APPLY: fputs("apply", o); break;
    case EX_OP: fprintf(o, "op %s", op_spelling(e->op)); break;
    case EX_SUBSCRIPT: fputs("subscript", o); break;
    case EX_EACH: fputs(e->body_from_pattern ? "each (body = pattern)" : "each", o); break;
    case EX_SEQ: fprintf(o, "seq %d", e->nelems); break;
    case EX_EMPTY: fputs("empty ", o); texpr(d, e->texpr); break;
    case EX_RANGE: fputs("range", o); break;
    case EX_TIME: fputs("time", o); break;
    }
    pos(d, e->span);
    typ(d, e->type);
    fputc('\n', o);
    int in = depth + 1;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR: case EX_STRING:
    case EX_VAR: case EX_EMPTY:
        break;
    case EX_PAIR: expr(d, e->a, in); expr(d, e->b, in); break;
    case EX_IF: child(d, "cond", e->a, in); child(d, "then", e->b, in); child(d, "else", e->c, in); break;
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++) {
            indent(d, in); fputs("bind ", o); pattern(d, e->binds[i].pat); fputc('\n', o);
            expr(d, e->binds[i].value, in + 1);
        }
        child(d, "in", e->a, in);
        break;
    case EX_LAMBDA: expr(d, e->a, in); break;
    case EX_APPLY: expr(d, e->a, in); expr(d, e->b, in); break;
    case EX_OP: for (int i = 0; i < e->nargs; i++) expr(d, e->args[i], in); break;
    case EX_SUBSCRIPT: expr(d, e->a, in); expr(d, e->b, in); break;
    case EX_EACH:
        child(d, "body", e->a, in);
        for (int i = 0; i < e->ngens; i++) {
            indent(d, in); fputs("gen ", o); pattern(d, e->gens[i].pat); fputs(" in\n", o);
            expr(d, e->gens[i].seq, in + 1);
        }
        if (e->b) child(d, "filter", e->b, in);
        break;
    case EX_SEQ: for (int i = 0; i < e->nelems; i++) expr(d, e->elems[i], in); break;
    case EX_RANGE: expr(d, e->a, in); expr(d, e->b, in); if (e->c) expr(d, e->c, in); break;
    case EX_TIME: expr(d, e->a, in); break;
    }
}

static void context(Dump *d, const Context *ctx, int n)
{
    static const char *const cls[] = { "any", "ordinal", "number", "logical" };
    if (!n) return;
    fputs(" :: (", d->out);
    for (int i = 0; i < n; i++) fprintf(d->out, "%s%s in %s", i ? "; " : "", ctx[i].var, cls[ctx[i].cls]);
    fputc(')', d->out);
}

void print_fundecl(FILE *out, const FunDecl *f, bool with_types)
{
    Dump d = { out, with_types };
    fprintf(out, "function %s ", f->name);
    pattern(&d, f->param);
    if (f->sig) { fputs(" : ", out); texpr(&d, f->sig); context(&d, f->ctx, f->nctx); }
    pos(&d, f->span);
    if (with_types && f->type) { fputs(" :: ", out); print_type(out, f->type, true); }
    fputc('\n', out);
    if (f->body) expr(&d, f->body, 1);
}

void print_program(FILE *out, const Program *p, bool with_types)
{
    Dump d = { out, with_types };
    for (int i = 0; i < p->nforms; i++) {
        const TopForm *t = p->forms[i];
        switch (t->kind) {
        case TOP_FUN: print_fundecl(out, t->fun, with_types); break;
        case TOP_DATA:
            fprintf(out, "datatype %s(", t->data->name);
            for (int k = 0; k < t->data->nfields; k++) { if (k) fputs(", ", out); texpr(&d, t->data->fields[k]); }
            fputc(')', out);
            context(&d, t->data->ctx, t->data->nctx);
            pos(&d, t->span);
            fputc('\n', out);
            break;
        case TOP_BIND:
            fputs("bind ", out); pattern(&d, t->pat); pos(&d, t->span); fputc('\n', out);
            expr(&d, t->expr, 1);
            break;
        case TOP_EXPR:
            fputs("expr", out); pos(&d, t->span); fputc('\n', out);
            expr(&d, t->expr, 1);
            break;
        }
    }
}
