/* nesl_c.c — the top level of a NESL program for the C back end: the
 * interpreter's form loop (interp/eval_toplevel.c) described as data
 * (CgenNesl): definition lines, and for each value form its λcu function,
 * printed name and type, value descriptor, the globals it reads and those
 * its pattern binds (components of its flat result). */
#include <stdlib.h>
#include <string.h>
#include "nesl_c.h"
#include "../interp/interp.h"

typedef struct Top {
    Compilation *c;
    const MonoProgram *m;
    Type **gtypes;              /* by global index */
} Top;

static const char *span_text(Arena *a, Span s)
{
    if (!s.src || !s.src->name) return "";
    char buf[600];
    snprintf(buf, sizeof buf, "%.500s:%d:%d", s.src->name, s.line, s.col);
    return arena_strndup(a, buf, strlen(buf));
}

static const char *copy(Arena *a, char *s)
{
    if (!s) return NULL;
    const char *r = arena_strndup(a, s, strlen(s));
    free(s);
    return r;
}

static void note_globals(Top *t, const char **names, Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR:
        if (p->binder->is_global && p->binder->global_index >= 0 && p->binder->global_index < t->m->nglobals) {
            names[p->binder->global_index] = p->binder->name;
            t->gtypes[p->binder->global_index] = p->type;
        }
        return;
    case PAT_PAIR: note_globals(t, names, p->fst); note_globals(t, names, p->snd); return;
    case PAT_CON: note_globals(t, names, p->sub); return;
    }
}

/* The globals p binds: components [first, ...) of a value of type ty. */
static void binds_of(Top *t, PtrVec *out, Pattern *p, Type *ty, int first)
{
    Arena *a = t->c->arena;
    ty = type_prune(ty);
    switch (p->kind) {
    case PAT_VAR:
        if (p->binder->is_global && p->binder->global_index >= 0) {
            CgenBind *b = arena_alloc(a, sizeof *b);
            *b = (CgenBind){ p->binder->global_index, first, flat_arity(ty, false) };
            ptrvec_push(a, out, b);
        }
        return;
    case PAT_PAIR:
        binds_of(t, out, p->fst, ty->fst, first);
        binds_of(t, out, p->snd, ty->snd, first + flat_arity(ty->fst, false));
        return;
    case PAT_CON:
        binds_of(t, out, p->sub, flat_data_fields(a, ty), first);
        return;
    }
}

static const char *describe_tag(void *ctx, const char *tag)
{
    Top *t = ctx;
    return flat_describe_tag(t->c, t->m, tag);
}

CgenNesl *nesl_c_top(Compilation *c, const MonoProgram *m, const FlatProgram *fp, int print_length)
{
    Arena *a = c->arena;
    Top *t = arena_alloc(a, sizeof *t);
    size_t ng = (size_t)(m->nglobals > 0 ? m->nglobals : 1);
    t->c = c;
    t->m = m;
    t->gtypes = arena_alloc(a, sizeof *t->gtypes * ng);
    memset(t->gtypes, 0, sizeof *t->gtypes * ng);
    const char **names = arena_alloc(a, sizeof *names * ng);
    memset(names, 0, sizeof *names * ng);
    for (int i = 0; i < m->prog.nforms; i++)
        if ((m->prog.forms[i]->kind == TOP_BIND || m->prog.forms[i]->kind == TOP_EXPR) && m->prog.forms[i]->pat) note_globals(t, names, m->prog.forms[i]->pat);
    CgenNesl *n = arena_alloc(a, sizeof *n);
    memset(n, 0, sizeof *n);
    CgenForm *forms = arena_alloc(a, sizeof *forms * (size_t)(m->prog.nforms + 1));
    int nf = 0, cursor = 0;
    for (int i = 0; i < m->prog.nforms; i++) {
        TopForm *form = m->prog.forms[i];
        if (form->failed) continue;
        CgenForm *f = &forms[nf];
        memset(f, 0, sizeof *f);
        if (form->kind == TOP_FUN || form->kind == TOP_DATA) {
            if ((f->text = copy(a, interp_definition_text(form)))) nf++;
            continue;
        }
        const FlatForm *ff = NULL;
        for (int j = 0; j < fp->nforms && !ff; j++) {
            int k = (cursor + j) % fp->nforms;
            if (fp->forms[k].form == form) { ff = &fp->forms[k]; cursor = k + 1; }
        }
        if (!ff) ICE("no flattened function for the form at %d:%d", form->span.line, form->span.col);
        Type *ty = type_prune(form->expr->type);
        f->fun = ff->fun;
        if (!form->quiet) f->name = form->kind == TOP_EXPR ? "it" : copy(a, interp_binding_name(form->pat));
        f->type = type_to_string(a, ty, true);
        f->desc = flat_describe(a, ty);
        f->where = span_text(a, form->expr->span);
        f->nneeds = ff->nglobals;
        int *needs = arena_alloc(a, sizeof *needs * (size_t)(ff->nglobals + 1));
        int *ncomps = arena_alloc(a, sizeof *ncomps * (size_t)(ff->nglobals + 1));
        const char **where = arena_alloc(a, sizeof *where * (size_t)(ff->nglobals + 1));
        for (int k = 0; k < ff->nglobals; k++) {
            needs[k] = ff->globals[k];
            if (!t->gtypes[needs[k]]) ICE("global %d has no type", needs[k]);
            ncomps[k] = flat_arity(t->gtypes[needs[k]], false);
            where[k] = span_text(a, ff->global_spans[k]);
        }
        f->needs = needs;
        f->need_ncomps = ncomps;
        f->need_where = where;
        if (form->pat) {   /* TOP_EXPR binds `it` */
            PtrVec bs = { 0 };
            binds_of(t, &bs, form->pat, ty, 0);
            CgenBind *b = arena_alloc(a, sizeof *b * (size_t)(bs.len + 1));
            for (int k = 0; k < bs.len; k++) b[k] = *(CgenBind *)bs.items[k];
            f->nbinds = bs.len;
            f->binds = b;
        }
        nf++;
    }
    n->nforms = nf;
    n->forms = forms;
    n->nglobals = m->nglobals;
    n->global_names = names;
    n->print_length = print_length > 0 ? print_length : 100;
    n->describe_tag = describe_tag;
    n->ctx = t;
    return n;
}
