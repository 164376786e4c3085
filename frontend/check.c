/* check.c — name resolution and type inference for NESL (NESL.md §4).
 *
 * Hindley–Milner with class-bounded variables, no let-polymorphism: top-level
 * functions are generalised after their body is checked; everything bound
 * inside a body is monomorphic.  Each top-level form is checked on its own;
 * a form with an error is marked `failed` and the names it defines are bound
 * to fresh variables so later forms do not report follow-on errors. */
#include <string.h>
#include "check_impl.h"

/* ---------------------------------------------------------------- errors */

char *show_type(Checker *ck, Type *t) { return type_to_string(ck->c->arena, t, false); }

void type_error(Checker *ck, Span sp, const char *fmt, ...)
{
    va_list ap; va_start(ap, fmt);
    ck->c->diag->nerrors++;
    if (ck->c->diag->nerrors <= ck->c->diag->max_errors) diag_vreport(ck->c->diag, "error", sp, fmt, ap);
    else ck->c->diag->suppressed = true;
    va_end(ap);
}

/* Unify `actual` (the type of the thing at `sp`) with `expected`; on failure
 * report "WHAT has type X, expected Y" with the reason. */
/* Walk two types that failed to unify for a class reason; report the
 * bounded variable and the type on the other side. */
static bool find_class_clash(Type *a, Type *b, Type **var, Type **other)
{
    a = type_prune(a); b = type_prune(b);
    if (a->kind == TY_VAR && b->kind == TY_VAR) {
        if (a->cls != b->cls && a->cls != CLS_ANY && b->cls != CLS_ANY) { *var = b; *other = a; return true; }
        return false;
    }
    if (a->kind == TY_VAR) { Type *t = a; a = b; b = t; }
    if (b->kind == TY_VAR) {
        if (b->cls != CLS_ANY && !(a->kind != TY_VAR && type_in_class(a, b->cls))) { *var = b; *other = a; return true; }
        return false;
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TY_SEQ: return find_class_clash(a->elem, b->elem, var, other);
    case TY_PAIR: return find_class_clash(a->fst, b->fst, var, other) || find_class_clash(a->snd, b->snd, var, other);
    case TY_FUN: return find_class_clash(a->arg, b->arg, var, other) || find_class_clash(a->res, b->res, var, other);
    case TY_DATA:
        for (int i = 0; i < a->nargs && i < b->nargs; i++)
            if (find_class_clash(a->args[i], b->args[i], var, other)) return true;
        return false;
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: case TY_STREAM: case TY_FUNID: case TY_VAR:
        return false;
    }
    return false;
}

bool expect_type(Checker *ck, Span sp, Type *actual, Type *expected, const char *what)
{
    UnifyResult r = unify(&ck->tc, actual, expected);
    switch (r) {
    case UNIFY_OK: return true;
    case UNIFY_MISMATCH:
        type_error(ck, sp, "%s has type '%s' but '%s' is expected", what, show_type(ck, actual), show_type(ck, expected));
        return false;
    case UNIFY_OCCURS:
        type_error(ck, sp, "%s would need an infinite type ('%s' = '%s')", what, show_type(ck, actual), show_type(ck, expected));
        return false;
    case UNIFY_CLASS: {
        /* Name the class that failed: find the bounded variable and the
         * type that clashed with it. */
        Type *var = NULL, *other = NULL;
        find_class_clash(actual, expected, &var, &other);
        const char *members = !var ? "" : var->cls == CLS_NUMBER ? "int or float" :
                              var->cls == CLS_ORDINAL ? "int, float or char" :
                              var->cls == CLS_LOGICAL ? "int or bool" : "any type";
        if (var && other && type_prune(other)->kind != TY_VAR) {
            char *at = show_type(ck, actual), *ot = show_type(ck, other);
            if (!strcmp(at, ot))
                type_error(ck, sp, "%s has type '%s', which is not in class %s (%s)", what, at, class_name(var->cls), members);
            else
                type_error(ck, sp, "%s has type '%s', but '%s' is not in class %s (%s)", what, at, ot,
                           class_name(var->cls), members);
        } else if (var && other)
            type_error(ck, sp, "%s must be in class %s here, but is already required to be in class %s "
                       "(a type variable cannot be in both)", what, class_name(var->cls), class_name(type_prune(other)->cls));
        else if (var && var->cls != CLS_ANY)
            type_error(ck, sp, "%s has type '%s' but a type in class %s is expected (%s)", what,
                       show_type(ck, actual), class_name(var->cls),
                       var->cls == CLS_NUMBER ? "int or float" : var->cls == CLS_ORDINAL ? "int, float or char" : "int or bool");
        else
            type_error(ck, sp, "%s has type '%s', which does not fit '%s' (incompatible type classes)", what,
                       show_type(ck, actual), show_type(ck, expected));
        return false;
    }
    case UNIFY_FUNID:
        type_error(ck, sp, "%s is a different function than expected: two different functions never have the same "
                   "type in NESL (so [sin, cos] is rejected)", what);
        return false;
    }
    return false;
}

/* ---------------------------------------------------------------- locals and slots */

static Binder *lookup_local(Checker *ck, Sym name)
{
    for (int i = ck->nlocals - 1; i >= 0; i--)
        if (ck->locals[i].name == name) return ck->locals[i].binder;
    return NULL;
}

static void push_local(Checker *ck, Binder *b)
{
    if (ck->nlocals == ck->caplocals) {
        int cap = ck->caplocals ? ck->caplocals * 2 : 64;
        LocalEntry *n = arena_alloc(ck->c->arena, sizeof *n * (size_t)cap);
        if (ck->nlocals) memcpy(n, ck->locals, sizeof *n * (size_t)ck->nlocals);
        ck->locals = n; ck->caplocals = cap;
    }
    ck->locals[ck->nlocals++] = (LocalEntry){ b->name, b };
}

/* Bind a pattern of type `t`: local binders get frame slots, globals get
 * global indices.  `seen` catches a name bound twice in one pattern. */
static void ck_bind_pattern_rec(Checker *ck, Pattern *p, Type *t, bool global, PtrVec *seen)
{
    p->type = t;
    switch (p->kind) {
    case PAT_VAR: {
        Binder *b = p->binder;
        for (int i = 0; i < seen->len; i++)
            if (((Binder *)seen->items[i])->name == b->name)
                type_error(ck, p->span, "'%s' is bound twice in the same pattern", b->name);
        ptrvec_push(ck->c->arena, seen, b);
        b->type = t;
        if (global) {
            b->is_global = true;
            b->global_index = ck->c->nglobals++;
        } else {
            b->slot = ck->nslots++;
            push_local(ck, b);
        }
        return;
    }
    case PAT_PAIR: {
        Type *a = tc_fresh(&ck->tc, CLS_ANY), *b = tc_fresh(&ck->tc, CLS_ANY);
        expect_type(ck, p->span, t, type_pair(ck->c->arena, a, b), "this tuple pattern's value");
        ck_bind_pattern_rec(ck, p->fst, a, global, seen);
        ck_bind_pattern_rec(ck, p->snd, b, global, seen);
        return;
    }
    case PAT_CON: {
        DataDecl *d = lookup_datatype(ck, p->con);
        if (!d) {
            type_error(ck, p->span, "'%s' is not a datatype constructor", p->con);
            ck_bind_pattern_rec(ck, p->sub, tc_fresh(&ck->tc, CLS_ANY), global, seen);
            return;
        }
        p->data = d;
        Type *ft, *dt;
        datatype_instance(ck, d, &ft, &dt);
        expect_type(ck, p->span, t, dt, "the value matched by this constructor pattern");
        ck_bind_pattern_rec(ck, p->sub, ft, global, seen);
        return;
    }
    }
}

void ck_bind_pattern(Checker *ck, Pattern *p, Type *t, bool global)
{
    PtrVec seen = {0};
    ck_bind_pattern_rec(ck, p, t, global, &seen);
}

/* ---------------------------------------------------------------- variables */

/* Serial-only functions (file I/O, rand_seed: NESL.md 3.9 item 6) may not
 * be called inside an apply-to-each, directly or through other functions. */
static void note_serial_use(Checker *ck, Expr *e, bool serial)
{
    if (!serial) return;
    if (ck->current_fn) ck->current_fn->serial_only = true;
    if (ck->each_depth > 0)
        type_error(ck, e->span, "'%s' does serial I/O and cannot be used inside an apply-to-each", e->name);
}

static void resolve_entity(Checker *ck, Expr *e, Entity *en)
{
    switch (en->kind) {
    case ENT_FUN: {
        FunDecl *f = en->fun;
        e->ref = REF_FUN; e->fun = f;
        if (f == ck->current_fn) e->inst = ck->current_fn_type;   /* recursion is monomorphic */
        else e->inst = instantiate(&ck->tc, f->type);
        e->type = e->inst;
        note_serial_use(ck, e, f->serial_only || (f->defined_by && f->defined_by->serial_only));
        return;
    }
    case ENT_PRIM:
        e->ref = REF_PRIM; e->prim = en->prim;
        e->type = e->inst = instantiate(&ck->tc, en->type);
        note_serial_use(ck, e, prim_is_serial(en->prim));
        return;
    case ENT_CON:
        e->ref = REF_CON; e->data = en->data;
        e->type = e->inst = instantiate(&ck->tc, en->type);
        return;
    case ENT_GLOBAL:
        e->ref = REF_GLOBAL; e->binder = en->binder;
        e->type = en->binder->type;
        return;
    }
}

Entity *lookup_global(Checker *ck, Sym name)
{
    Entity *en = ck->user ? scope_get_value(ck->user, name) : NULL;
    return en ? en : scope_get_value(ck->c->lib_scope, name);
}

static Type *check_var(Checker *ck, Expr *e)
{
    Binder *b = lookup_local(ck, e->name);
    if (b) { e->ref = REF_LOCAL; e->binder = b; return e->type = b->type; }
    if (ck->current_fn && e->name == ck->current_fn->name) {
        Entity en = { .kind = ENT_FUN, .fun = ck->current_fn };
        resolve_entity(ck, e, &en);
        return e->type;
    }
    Entity *en = lookup_global(ck, e->name);
    if (!en) {
        type_error(ck, e->span, "'%s' is not defined", e->name);
        return e->type = tc_fresh(&ck->tc, CLS_ANY);
    }
    resolve_entity(ck, e, en);
    return e->type;
}

/* ---------------------------------------------------------------- expressions */

static Type *check_apply(Checker *ck, Expr *e)
{
    Type *ft = check_expr(ck, e->a);
    Type *at = check_expr(ck, e->b);
    Type *res = tc_fresh(&ck->tc, CLS_ANY);
    Type *pf = type_prune(ft);
    if (pf->kind != TY_VAR && pf->kind != TY_FUN) {
        type_error(ck, e->a->span, "this expression has type '%s' and cannot be applied to an argument", show_type(ck, ft));
        return res;
    }
    if (pf->kind == TY_FUN) {
        const char *name = e->a->kind == EX_VAR ? e->a->name : NULL;
        char what[160];
        if (name) snprintf(what, sizeof what, "the argument of '%s'", name);
        else snprintf(what, sizeof what, "the argument");
        if (!expect_type(ck, e->b->span, at, pf->arg, what)) return res;
        return pf->res;
    }
    expect_type(ck, e->a->span, ft, type_fun(ck->c->arena, at, res, tc_fresh(&ck->tc, CLS_ANY)), "the applied expression");
    return res;
}

/* An operator is a call of the library function it names (NESL.md 3.2).  A
 * primitive stays an EX_OP; a library function in NESL turns the node into
 * an application so later phases see one form. */
static Type *check_op(Checker *ck, Expr *e)
{
    const char *fname = op_function_name(e->op);
    Entity *en = scope_get_value(ck->c->lib_scope, intern_cstr(ck->c->names, fname));
    if (!en || (en->kind != ENT_PRIM && en->kind != ENT_FUN))
        ICE("operator %s has no library definition '%s'", op_spelling(e->op), fname);
    Arena *A = ck->c->arena;
    Expr *arg;
    if (e->nargs == 2) {
        arg = expr_new(A, EX_PAIR, e->span);
        arg->a = e->args[0]; arg->b = e->args[1];
    } else arg = e->args[0];
    Type *at = check_expr(ck, arg);
    Type *ft = en->kind == ENT_PRIM ? instantiate(&ck->tc, en->type) : instantiate(&ck->tc, en->fun->type);
    Type *res = tc_fresh(&ck->tc, CLS_ANY);
    char what[96];
    if (e->nargs == 2) snprintf(what, sizeof what, "the operands of '%s'", op_spelling(e->op));
    else snprintf(what, sizeof what, "the operand of prefix '%s'", op_spelling(e->op));
    Type *pf = type_prune(ft);
    Type *pa = type_prune(pf->arg);
    bool ok;
    if (e->nargs == 2 && pa->kind == TY_PAIR) {
        /* Report the operand that is wrong, not the whole expression. */
        char w2[96];
        snprintf(w2, sizeof w2, "the left operand of '%s'", op_spelling(e->op));
        ok = expect_type(ck, e->args[0]->span, e->args[0]->type, pa->fst, w2);
        snprintf(w2, sizeof w2, "the right operand of '%s'", op_spelling(e->op));
        ok = ok && expect_type(ck, e->args[1]->span, e->args[1]->type, pa->snd, w2);
    } else ok = expect_type(ck, e->span, at, pf->arg, what);
    if (ok) unify(&ck->tc, res, pf->res);
    if (en->kind == ENT_PRIM) {
        e->prim = en->prim;
        e->inst = ft;
        if (e->nargs == 2) arg->type = at;
    } else {
        Expr *fn = expr_new(A, EX_VAR, e->span);
        fn->name = en->fun->name;
        fn->ref = REF_FUN; fn->fun = en->fun; fn->inst = fn->type = ft;
        e->kind = EX_APPLY;
        e->a = fn; e->b = arg;
        e->nargs = 0;
    }
    return res;
}

static Type *check_each(Checker *ck, Expr *e)
{
    int mark = ck->nlocals;
    Arena *A = ck->c->arena;
    /* The sequences are evaluated once, before any pattern is bound
     * (NESL.md 3.9): a later generator's sequence does not see an earlier
     * generator's variables.  (Checked in one loop, `b in [a]` after
     * `a in s` referred to the element a and the flattener, which
     * evaluates the sequences outside, failed; found by fuzz_nesl.) */
    Type **el = arena_alloc(A, sizeof *el * (size_t)(e->ngens + 1));
    for (int i = 0; i < e->ngens; i++) {
        Type *st = check_expr(ck, e->gens[i].seq);
        el[i] = tc_fresh(&ck->tc, CLS_ANY);
        expect_type(ck, e->gens[i].seq->span, st, type_seq(A, el[i]), "the sequence of a generator");
    }
    for (int i = 0; i < e->ngens; i++) ck_bind_pattern(ck, e->gens[i].pat, el[i], false);
    ck->each_depth++;
    if (e->b) expect_type(ck, e->b->span, check_expr(ck, e->b), type_base(A, TY_BOOL), "the filter of an apply-to-each");
    Type *bt = check_expr(ck, e->a);
    ck->each_depth--;
    ck->nlocals = mark;
    return type_seq(A, bt);
}

Type *check_expr(Checker *ck, Expr *e)
{
    Arena *A = ck->c->arena;
    Type *t = NULL;
    switch (e->kind) {
    case EX_INT: t = type_base(A, TY_INT); break;
    case EX_FLOAT: t = type_base(A, TY_FLOAT); break;
    case EX_BOOL: t = type_base(A, TY_BOOL); break;
    case EX_CHAR: t = type_base(A, TY_CHAR); break;
    case EX_STRING: t = type_seq(A, type_base(A, TY_CHAR)); break;
    case EX_VAR: return check_var(ck, e);
    case EX_PAIR: t = type_pair(A, check_expr(ck, e->a), check_expr(ck, e->b)); break;
    case EX_IF: {
        expect_type(ck, e->a->span, check_expr(ck, e->a), type_base(A, TY_BOOL), "the condition of 'if'");
        Type *a = check_expr(ck, e->b), *b = check_expr(ck, e->c);
        if (unify(&ck->tc, a, b) != UNIFY_OK)
            type_error(ck, e->span, "the branches of 'if' have different types: %s and %s", show_type(ck, a), show_type(ck, b));
        t = a;
        break;
    }
    case EX_LET: {
        int mark = ck->nlocals;
        for (int i = 0; i < e->nbinds; i++) {
            Type *vt = check_expr(ck, e->binds[i].value);
            ck_bind_pattern(ck, e->binds[i].pat, vt, false);
        }
        t = check_expr(ck, e->a);
        ck->nlocals = mark;
        break;
    }
    case EX_LAMBDA: {
        int mark = ck->nlocals;
        Type *pt = tc_fresh(&ck->tc, CLS_ANY);
        ck_bind_pattern(ck, e->param, pt, false);
        Type *bt = check_expr(ck, e->a);
        ck->nlocals = mark;
        ptrvec_push(A, &ck->lambdas, e);
        t = type_fun(A, pt, bt, tc_funid(&ck->tc, FID_LAMBDA, e));
        break;
    }
    case EX_APPLY: t = check_apply(ck, e); break;
    case EX_OP: t = check_op(ck, e); break;
    case EX_SUBSCRIPT: {
        Type *el = tc_fresh(&ck->tc, CLS_ANY);
        expect_type(ck, e->a->span, check_expr(ck, e->a), type_seq(A, el), "the subscripted expression");
        expect_type(ck, e->b->span, check_expr(ck, e->b), type_base(A, TY_INT), "the subscript");
        t = el;
        break;
    }
    case EX_EACH: t = check_each(ck, e); break;
    case EX_SEQ: {
        Type *el = check_expr(ck, e->elems[0]);
        for (int i = 1; i < e->nelems; i++)
            expect_type(ck, e->elems[i]->span, check_expr(ck, e->elems[i]), el, "this sequence element");
        t = type_seq(A, el);
        break;
    }
    case EX_EMPTY:
        t = type_seq(A, convert_texpr(ck, e->texpr, NULL, 0, false));
        break;
    case EX_RANGE: {
        Type *it = type_base(A, TY_INT);
        expect_type(ck, e->a->span, check_expr(ck, e->a), it, "the start of a range");
        expect_type(ck, e->b->span, check_expr(ck, e->b), it, "the end of a range");
        if (e->c) expect_type(ck, e->c->span, check_expr(ck, e->c), it, "the step of a range");
        t = type_seq(A, it);
        break;
    }
    case EX_TIME:
        t = type_pair(A, check_expr(ck, e->a), type_base(A, TY_FLOAT));
        break;
    }
    return e->type = t;
}
