/* check_top.c — top-level forms, type syntax, datatypes, the library, and
 * the Compilation object. */
#include <stdlib.h>
#include <string.h>
#include "check_impl.h"

/* ---------------------------------------------------------------- type syntax */

typedef struct TyVarMap { Sym names[32]; Type *types[32]; int len; } TyVarMap;

DataDecl *lookup_datatype(Checker *ck, Sym name)
{
    DataDecl *d = ck->user ? scope_get_type(ck->user, name) : NULL;
    return d ? d : scope_get_type(ck->c->lib_scope, name);
}

static Type *convert(Checker *ck, TypeExpr *te, TyVarMap *map, bool free_vars)
{
    Arena *A = ck->c->arena;
    switch (te->kind) {
    case TE_INT: return type_base(A, TY_INT);
    case TE_FLOAT: return type_base(A, TY_FLOAT);
    case TE_BOOL: return type_base(A, TY_BOOL);
    case TE_CHAR: return type_base(A, TY_CHAR);
    case TE_SEQ: return type_seq(A, convert(ck, te->a, map, free_vars));
    case TE_PAIR: return type_pair(A, convert(ck, te->a, map, free_vars), convert(ck, te->b, map, free_vars));
    case TE_FUN: {
        Type *a = convert(ck, te->a, map, free_vars), *b = convert(ck, te->b, map, free_vars);
        return type_fun(A, a, b, tc_fresh(&ck->tc, CLS_ANY));
    }
    case TE_NAME: break;
    }
    if (te->nargs == 0)
        for (int i = 0; i < map->len; i++)
            if (map->names[i] == te->name) return map->types[i];
    if (!strcmp(te->name, "stream") && te->nargs == 0) return type_base(A, TY_STREAM);
    DataDecl *d = lookup_datatype(ck, te->name);
    if (d) {
        if (te->nargs != d->nctx) {
            type_error(ck, te->span, "datatype '%s' takes %d type argument%s, %d given",
                       d->name, d->nctx, d->nctx == 1 ? "" : "s", te->nargs);
            return tc_fresh(&ck->tc, CLS_ANY);
        }
        Type *t = type_new(A, TY_DATA);
        t->data = d; t->nargs = te->nargs;
        t->args = arena_alloc(A, sizeof *t->args * (size_t)(te->nargs + 1));
        for (int i = 0; i < te->nargs; i++) t->args[i] = convert(ck, te->args[i], map, free_vars);
        return t;
    }
    if (free_vars && te->nargs == 0 && map->len < 32) {
        Type *v = tc_fresh(&ck->tc, CLS_ANY);
        map->names[map->len] = te->name; map->types[map->len] = v; map->len++;
        return v;
    }
    type_error(ck, te->span, "unknown type '%s' (type variables must be listed in the context, e.g. :: (%s in any))",
               te->name, te->name);
    return tc_fresh(&ck->tc, CLS_ANY);
}

static void map_from_context(Checker *ck, TyVarMap *map, Context *ctx, int nctx)
{
    map->len = 0;
    for (int i = 0; i < nctx; i++) {
        for (int j = 0; j < i; j++)
            if (ctx[j].var == ctx[i].var)
                type_error(ck, ctx[i].span, "type variable '%s' is listed twice in the context", ctx[i].var);
        if (map->len == 32) { type_error(ck, ctx[i].span, "too many type variables (at most 32)"); break; }
        map->names[map->len] = ctx[i].var;
        map->types[map->len] = tc_fresh(&ck->tc, ctx[i].cls);
        map->len++;
    }
}

Type *convert_texpr(Checker *ck, TypeExpr *te, Context *ctx, int nctx, bool free_vars)
{
    TyVarMap map;
    map_from_context(ck, &map, ctx, nctx);
    return convert(ck, te, &map, free_vars);
}

void datatype_instance(Checker *ck, DataDecl *d, Type **field, Type **self)
{
    Type *self_generic = type_new(ck->c->arena, TY_DATA);
    self_generic->data = d; self_generic->nargs = d->nctx; self_generic->args = d->params;
    Type *f = instantiate(&ck->tc, type_fun(ck->c->arena, d->field_type, self_generic, NULL));
    *field = f->arg; *self = f->res;
}

/* ---------------------------------------------------------------- defaulting */

/* Top-level values are monomorphic: a variable nothing constrains becomes
 * int (every class contains int), a function identity a fresh one. */
static void default_vars(Checker *ck, Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_VAR: t->link = type_base(ck->c->arena, TY_INT); return;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: return;
    case TY_SEQ: default_vars(ck, t->elem); return;
    case TY_PAIR: default_vars(ck, t->fst); default_vars(ck, t->snd); return;
    case TY_FUN:
        default_vars(ck, t->arg); default_vars(ck, t->res);
        if (t->ident && type_prune(t->ident)->kind == TY_VAR) type_prune(t->ident)->link = tc_funid(&ck->tc, FID_NONE, t);
        return;
    case TY_DATA: for (int i = 0; i < t->nargs; i++) default_vars(ck, t->args[i]); return;
    }
}

/* ---------------------------------------------------------------- forms */

static Scope *target_scope(Checker *ck) { return ck->user ? ck->user : ck->c->lib_scope; }

static Entity *new_entity(Checker *ck, EntityKind k)
{
    Entity *e = arena_alloc(ck->c->arena, sizeof *e);
    e->kind = k;
    return e;
}

static void begin_frame(Checker *ck)
{
    ck->nslots = 0; ck->nlocals = 0;
    ck->lambdas = (PtrVec){0};
}

static void end_frame(Checker *ck)
{
    for (int i = 0; i < ck->lambdas.len; i++) ((Expr *)ck->lambdas.items[i])->nslots = ck->nslots;
}

static void check_fundef(Checker *ck, TopForm *form)
{
    FunDecl *f = form->fun;
    Arena *A = ck->c->arena;
    int errs = ck->c->diag->nerrors;
    f->is_prelude = ck->in_prelude;
    Entity *prev = scope_get_value(target_scope(ck), f->name);
    FunDecl *fwd = prev && prev->kind == ENT_FUN && !prev->fun->body && !prev->fun->defined_by ? prev->fun : NULL;

    ck->tc.level = 1;
    Type *sigt = NULL;
    if (f->sig) {
        if (f->sig->kind != TE_FUN)
            type_error(ck, f->sig->span, "the signature of '%s' must be a function type (ARG -> RESULT)", f->name);
        else
            sigt = convert_texpr(ck, f->sig, f->ctx, f->nctx, false);
    }
    if (!f->body) {
        ck->tc.level = 0;
        if (!sigt) sigt = tc_fresh(&ck->tc, CLS_ANY);
        else unify(&ck->tc, type_prune(sigt)->ident, tc_funid(&ck->tc, FID_FUN, f));
        generalize(&ck->tc, sigt);
        f->type = sigt;
        Entity *en = new_entity(ck, ENT_FUN);
        en->fun = f;
        scope_put_value(target_scope(ck), f->name, en);
        if (!ck->in_prelude) ptrvec_push(A, &ck->forwards, f);
        return;
    }

    begin_frame(ck);
    Type *ft = tc_fresh(&ck->tc, CLS_ANY);
    ck->current_fn = f;
    ck->current_fn_type = ft;
    Type *pt = tc_fresh(&ck->tc, CLS_ANY);
    ck_bind_pattern(ck, f->param, pt, false);
    Type *funid = tc_funid(&ck->tc, FID_FUN, fwd ? fwd : f);
    static const char sig_what[] = "the definition of this function (checked against its signature)";
    static const char fwd_what[] = "the definition of this function (checked against its forward declaration)";
    if (!sigt && !fwd) {
        Type *bt = check_expr(ck, f->body);
        /* ft may be constrained already by recursive uses in the body
         * (`function h(x) = h` needs an infinite type). */
        expect_type(ck, f->span, type_fun(A, pt, bt, funid), ft,
                    "the definition of this function (with its recursive uses)");
    } else {
        /* The signature (and a forward declaration) constrain the parameter
         * and result types before the body is checked, so the body is
         * checked at the declared types: with `: int -> int`, the x of
         * `(x + x) and x` is an int, not a variable that would have to be
         * both a number and logical (NESL.md §4.2). */
        Type *rt = tc_fresh(&ck->tc, CLS_ANY);
        unify(&ck->tc, ft, type_fun(A, pt, rt, funid));   /* ft is fresh: cannot fail */
        bool declared_ok = (!sigt || expect_type(ck, f->span, ft, sigt, sig_what)) &&
                           (!fwd || expect_type(ck, f->span, ft, instantiate(&ck->tc, fwd->type), fwd_what));
        Type *bt = check_expr(ck, f->body);
        /* The body against the declared result, reported as before: the
         * inferred definition type against the declared one. */
        Type *defined = type_fun(A, pt, bt, tc_fresh(&ck->tc, CLS_ANY));
        if (declared_ok) expect_type(ck, f->span, defined, ft, sigt ? sig_what : fwd_what);
        else unify(&ck->tc, defined, ft);   /* already reported */
    }
    end_frame(ck);
    ck->current_fn = NULL;
    ck->tc.level = 0;
    generalize(&ck->tc, ft);
    f->type = ft;
    f->nslots = ck->nslots;
    if (ck->c->diag->nerrors > errs) {
        form->failed = true;
        Type *v = tc_fresh(&ck->tc, CLS_ANY);
        v->level = GENERIC_LEVEL;
        f->type = v;
    }
    if (fwd) { fwd->defined_by = f; f->forward = fwd; }
    /* Redefinition with an unchanged type re-links existing callers. */
    if (prev && prev->kind == ENT_FUN && prev->fun->body && !prev->fun->is_prelude && !form->failed) {
        char *old_t = type_to_string(A, prev->fun->type, true), *new_t = type_to_string(A, f->type, true);
        if (!strcmp(old_t, new_t)) prev->fun->replaced_by = f;
    }
    Entity *en = new_entity(ck, ENT_FUN);
    en->fun = f;
    scope_put_value(target_scope(ck), f->name, en);
}

static void check_datatype(Checker *ck, TopForm *form)
{
    DataDecl *d = form->data;
    Arena *A = ck->c->arena;
    int errs = ck->c->diag->nerrors;
    TyVarMap map;
    ck->tc.level = 1;
    map_from_context(ck, &map, d->ctx, d->nctx);
    d->params = arena_alloc(A, sizeof *d->params * (size_t)(d->nctx + 1));
    for (int i = 0; i < map.len; i++) { d->params[i] = map.types[i]; map.types[i]->level = GENERIC_LEVEL; }
    Type *fields = NULL;
    for (int i = d->nfields - 1; i >= 0; i--) {
        TypeExpr *te = d->fields[i];
        Type *ft;
        if (te->kind == TE_NAME && te->name == d->name) {
            type_error(ck, te->span, "recursive datatype '%s' is not supported by NESL", d->name);
            ft = tc_fresh(&ck->tc, CLS_ANY);
        } else ft = convert(ck, te, &map, false);
        fields = fields ? type_pair(A, ft, fields) : ft;
    }
    ck->tc.level = 0;
    d->field_type = fields;
    if (ck->c->diag->nerrors > errs) form->failed = true;
    Type *self = type_new(A, TY_DATA);
    self->data = d; self->nargs = d->nctx; self->args = d->params;
    Entity *en = new_entity(ck, ENT_CON);
    en->data = d;
    en->type = type_fun(A, fields, self, tc_funid(&ck->tc, FID_CON, d));
    scope_put_value(target_scope(ck), d->name, en);
    scope_put_type(target_scope(ck), d->name, d);
}

static void register_pattern_globals(Checker *ck, Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR: {
        Entity *en = new_entity(ck, ENT_GLOBAL);
        en->binder = p->binder;
        scope_put_value(target_scope(ck), p->binder->name, en);
        return;
    }
    case PAT_PAIR: register_pattern_globals(ck, p->fst); register_pattern_globals(ck, p->snd); return;
    case PAT_CON: register_pattern_globals(ck, p->sub); return;
    }
}

static void check_binding(Checker *ck, TopForm *form)
{
    int errs = ck->c->diag->nerrors;
    if (form->kind == TOP_EXPR) {
        if (ck->in_prelude) type_error(ck, form->span, "the library may not contain top-level expressions");
        form->pat = pattern_new(ck->c->arena, PAT_VAR, form->span);
        form->pat->binder = binder_new(ck->c->arena, intern_cstr(ck->c->names, "it"), form->span);
    }
    begin_frame(ck);
    ck->tc.level = 0;
    Type *t = check_expr(ck, form->expr);
    ck_bind_pattern(ck, form->pat, t, true);
    end_frame(ck);
    form->nslots = ck->nslots;
    default_vars(ck, t);
    if (ck->c->diag->nerrors > errs) form->failed = true;
    register_pattern_globals(ck, form->pat);
    if (ck->in_prelude) form->quiet = true;
}

static void check_form(Checker *ck, TopForm *form)
{
    switch (form->kind) {
    case TOP_FUN: check_fundef(ck, form); return;
    case TOP_DATA: check_datatype(ck, form); return;
    case TOP_BIND: case TOP_EXPR: check_binding(ck, form); return;
    }
}

/* ---------------------------------------------------------------- library */

static bool load_library(Compilation *c)
{
    Checker ck = { .c = c, .tc = { c, 0 }, .in_prelude = true };
    c->lib_scope = scope_new();
    int errs = c->diag->nerrors;
    for (int i = 0; i < PRIM__COUNT; i++) {
        Source *src = arena_alloc(c->arena, sizeof *src);
        src->name = arena_strndup(c->arena, prim_info[i].name, strlen(prim_info[i].name));
        src->text = prim_info[i].sig;
        src->len = strlen(prim_info[i].sig);
        Context *ctx = NULL; int nctx = 0;
        TypeExpr *te = parse_type_text(c, src, &ctx, &nctx);
        if (!te) ICE("cannot parse the signature of primitive '%s'", prim_info[i].name);
        ck.tc.level = 1;
        Type *t = convert_texpr(&ck, te, ctx, nctx, false);
        ck.tc.level = 0;
        if (type_prune(t)->kind == TY_FUN) unify(&ck.tc, type_prune(t)->ident, tc_funid(&ck.tc, FID_PRIM, &prim_info[i]));
        generalize(&ck.tc, t);
        Entity *en = new_entity(&ck, ENT_PRIM);
        en->prim = i; en->type = t;
        scope_put_value(c->lib_scope, intern_cstr(c->names, prim_info[i].name), en);
    }
    Source *src = arena_alloc(c->arena, sizeof *src);
    src->name = nesl_prelude_name;
    src->text = nesl_prelude_text;
    src->len = strlen(nesl_prelude_text);
    Program *p = parse_program(c, src);
    if (p)
        for (int i = 0; i < p->nforms; i++) check_form(&ck, p->forms[i]);
    c->prelude = p;
    if (c->diag->nerrors > errs) {
        fprintf(c->diag->out, "nesslc: internal error: the library failed to compile\n");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- entry points */

Compilation *compilation_new(Diag *diag)
{
    Compilation *c = calloc(1, sizeof *c);
    if (!c) ICE("out of memory");
    c->arena = arena_new();
    c->names = interner_new();
    c->diag = diag;
    return c;
}

void compilation_free(Compilation *c)
{
    if (!c) return;
    scope_free(c->lib_scope);
    scope_free(c->user_scope);
    arena_free(c->arena);
    interner_free(c->names);
    free(c);
}

struct LibrarySnapshot {
    ArenaSnapshot *arena;
    size_t names;
    int nglobals, next_var_id;
};

LibrarySnapshot *library_snapshot(Compilation *c)
{
    if (c->user_scope || (!c->prelude && !load_library(c))) return NULL;
    LibrarySnapshot *s = calloc(1, sizeof *s);
    if (!s) ICE("out of memory");
    s->arena = arena_snapshot(c->arena);
    s->names = interner_mark(c->names);
    s->nglobals = c->nglobals;
    s->next_var_id = c->next_var_id;
    return s;
}

void library_restore(Compilation *c, const LibrarySnapshot *s)
{
    scope_free(c->user_scope);
    c->user_scope = NULL;
    arena_restore(c->arena, s->arena);
    interner_release(c->names, s->names);
    c->nglobals = s->nglobals;
    c->next_var_id = s->next_var_id;
}

void library_snapshot_free(LibrarySnapshot *s)
{
    if (!s) return;
    arena_snapshot_free(s->arena);
    free(s);
}

bool check_program(Compilation *c, Program *p)
{
    int errs = c->diag->nerrors;
    if (!c->prelude && !load_library(c)) return false;
    Checker ck = { .c = c, .tc = { c, 0 } };
    if (!c->user_scope) c->user_scope = scope_new();
    ck.user = c->user_scope;
    for (int i = 0; i < p->nforms; i++) check_form(&ck, p->forms[i]);
    for (int i = 0; i < ck.forwards.len; i++) {
        FunDecl *f = ck.forwards.items[i];
        if (!f->defined_by)
            type_error(&ck, f->span, "function '%s' is declared but never defined", f->name);
    }
    return c->diag->nerrors == errs;
}
