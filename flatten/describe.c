/* describe.c — value descriptors of NESL types for the C back end's runtime
 * (rt/nesl_host.h, doc/codegen.md): a prefix code that says how a value's
 * flat components (flatten.h's layout table) are laid out and how it
 * prints.  Datatypes carry their name and substituted field tuple, closures
 * the types of their captured variables; a function type without an
 * identity (in a host-bridge tag) is `?`. */
#include <string.h>
#include "flatten_impl.h"

typedef struct Buf { Arena *a; char *s; size_t len, cap; } Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        while (cap < b->len + n + 1) cap *= 2;
        char *t = arena_alloc(b->a, cap);
        if (b->len) memcpy(t, b->s, b->len);
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void puts_(Buf *b, const char *s) { put(b, s, strlen(s)); }

static void describe(Buf *b, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: puts_(b, "i"); return;
    case TY_FLOAT: puts_(b, "f"); return;
    case TY_BOOL: puts_(b, "b"); return;
    case TY_CHAR: puts_(b, "c"); return;
    case TY_STREAM: puts_(b, "s"); return;
    case TY_SEQ: puts_(b, "["); describe(b, t->elem); return;
    case TY_PAIR: puts_(b, "("); describe(b, t->fst); describe(b, t->snd); return;
    case TY_DATA:
        puts_(b, "D");
        puts_(b, t->data->name);
        puts_(b, ";");
        describe(b, flat_data_fields(b->a, t));
        return;
    case TY_FUN: {
        Type *id = t->ident ? type_prune(t->ident) : NULL;
        if (!id || id->kind != TY_FUNID) { puts_(b, "?"); return; }
        Binder **bs;
        Type **ts;
        int nc = flat_closure_captures(b->a, t, &bs, &ts);
        char n[32];
        snprintf(n, sizeof n, "F%d;", nc);
        puts_(b, n);
        for (int i = 0; i < nc; i++) describe(b, ts[i]);
        return;
    }
    case TY_FUNID: case TY_VAR: break;
    }
    ICE("value descriptor of a type of kind %d", (int)t->kind);
}

char *flat_describe(Arena *a, Type *t)
{
    Buf b = { a, NULL, 0, 0 };
    puts_(&b, "");
    describe(&b, t);
    return b.s;
}

/* ---- host-bridge tags: "U|ARG|RES" / "L|ARG|RES" (NESL type text) ---- */
static DataDecl *find_datatype(const Program *const *progs, int nprogs, Sym name)
{
    DataDecl *found = NULL;
    for (int k = 0; k < nprogs; k++)
        for (int i = 0; progs[k] && i < progs[k]->nforms; i++) {
            TopForm *f = progs[k]->forms[i];
            if (f->kind == TOP_DATA && f->data && (f->data->name == name || !strcmp(f->data->name, name))) found = f->data;
        }
    return found;
}

static Type *texpr_type(Arena *A, const Program *const *progs, int nprogs, TypeExpr *te)
{
    switch (te->kind) {
    case TE_INT: return type_base(A, TY_INT);
    case TE_FLOAT: return type_base(A, TY_FLOAT);
    case TE_BOOL: return type_base(A, TY_BOOL);
    case TE_CHAR: return type_base(A, TY_CHAR);
    case TE_SEQ: return type_seq(A, texpr_type(A, progs, nprogs, te->a));
    case TE_PAIR: return type_pair(A, texpr_type(A, progs, nprogs, te->a), texpr_type(A, progs, nprogs, te->b));
    case TE_FUN: return type_fun(A, texpr_type(A, progs, nprogs, te->a), texpr_type(A, progs, nprogs, te->b), NULL);
    case TE_NAME: {
        if (te->nargs == 0 && !strcmp(te->name, "stream")) return type_base(A, TY_STREAM);
        DataDecl *d = find_datatype(progs, nprogs, te->name);
        if (!d || d->nctx != te->nargs) return NULL;
        Type *t = type_new(A, TY_DATA);
        t->data = d;
        t->nargs = te->nargs;
        t->args = arena_alloc(A, sizeof *t->args * (size_t)(te->nargs + 1));
        for (int i = 0; i < te->nargs; i++)
            if (!(t->args[i] = texpr_type(A, progs, nprogs, te->args[i]))) return NULL;
        return t;
    }
    }
    return NULL;
}

static bool describe_text(Compilation *c, const MonoProgram *m, Buf *b, const char *text, size_t len)
{
    Arena *A = c->arena;
    char *buf = arena_alloc(A, len + 3);
    buf[0] = '(';
    memcpy(buf + 1, text, len);
    buf[len + 1] = ')';
    buf[len + 2] = 0;
    Source *src = arena_alloc(A, sizeof *src);
    *src = (Source){ "<bridge type>", buf, len + 2 };
    Context *ctx = NULL;
    int nctx = 0;
    TypeExpr *te = parse_type_text(c, src, &ctx, &nctx);
    const Program *progs[2] = { c->prelude, &m->prog };
    Type *t = te ? texpr_type(A, progs, 2, te) : NULL;
    if (!t) return false;
    describe(b, t);
    return true;
}

char *flat_describe_tag(Compilation *c, const MonoProgram *m, const char *tag)
{
    const char *bar = tag[0] && tag[1] == '|' ? strchr(tag + 2, '|') : NULL;
    if (!bar || (tag[0] != 'L' && tag[0] != 'U')) return NULL;
    Buf b = { c->arena, NULL, 0, 0 };
    puts_(&b, "");
    if (!describe_text(c, m, &b, tag + 2, (size_t)(bar - (tag + 2)))) return NULL;
    if (!describe_text(c, m, &b, bar + 1, strlen(bar + 1))) return NULL;
    return b.s;
}
