/* eval_toplevel.c — the interpreter's top-level loop: runs each form of the
 * monomorphic program in order, prints its result line as NESL 3.1 does, and
 * binds globals.  A runtime error aborts only its form.
 *
 * The loop runs on a thread with a 1 GiB stack so that deep (but legal)
 * recursion of the tree-walking evaluator cannot overflow the C stack;
 * runaway recursion is caught by the depth and stack limits (eval.h).
 *
 * interp_program_with (toplevel.h) runs the same loop with another
 * evaluator of the forms' expressions (the λcu runner, run_flat.c). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "eval.h"
#include "toplevel.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/frontend.h"

/* ------------------------------------------------------------------ names of bindings */

/* Pattern printed from its structure (used when no source text is at hand). */
static void format_pattern(StrBuf *b, Pattern *p, bool parens)
{
    switch (p->kind) {
    case PAT_VAR:
        sb_puts(b, p->binder->name);
        return;
    case PAT_PAIR:
        if (parens)
            sb_putc(b, '(');
        format_pattern(b, p->fst, true);
        sb_puts(b, ", ");
        format_pattern(b, p->snd, false);
        if (parens)
            sb_putc(b, ')');
        return;
    case PAT_CON:
        sb_puts(b, p->con);
        sb_putc(b, '(');
        format_pattern(b, p->sub, false);
        sb_putc(b, ')');
        return;
    }
    ICE("bad pattern kind %d", (int)p->kind);
}

/* Byte offset of a 1-based (line, col) position in src, or -1. */
static long span_offset(const Source *src, int line, int col)
{
    size_t i = 0;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(src->text + i, '\n', src->len - i);
        if (!nl)
            return -1;
        i = (size_t)(nl - src->text) + 1;
    }
    i += (size_t)(col - 1);
    return i < src->len ? (long)i : -1;
}

/* The name a binding's result line shows: the pattern as written (NESL.md
 * 5.9), with comments dropped, white space runs collapsed to one space and
 * names in lower case as the reference prints them (a pattern holds only
 * names, commas and parentheses). */
static void pattern_name(StrBuf *b, Pattern *p)
{
    const Source *src = p->span.src;
    long lo = src && src->text ? span_offset(src, p->span.line, p->span.col) : -1;
    long hi = lo >= 0 ? span_offset(src, p->span.end_line, p->span.end_col) : -1;
    if (hi < lo) {
        format_pattern(b, p, p->kind == PAT_PAIR);
        return;
    }
    bool space = false, comment = false;
    for (long i = lo; i <= hi; i++) {
        unsigned char c = (unsigned char)src->text[i];
        if (c == '%')
            comment = !comment;
        if (comment || c == '%' || isspace(c)) {
            space = true;
            continue;
        }
        if (space && b->len > 0 && b->data[b->len - 1] != '(' && c != ')' && c != ',')
            sb_putc(b, ' ');
        space = false;
        sb_putc(b, (char)tolower(c));
    }
}

char *interp_binding_name(Pattern *p)
{
    StrBuf name = { 0 };
    pattern_name(&name, p);
    sb_putc(&name, '\0');
    return name.data;
}

char *interp_definition_text(TopForm *form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    switch (form->kind) {
    case TOP_FUN: {
        FunDecl *fun = form->fun;
        if (!fun || !fun->body || form->quiet) return NULL;
        FunDecl *orig = fun->generic ? fun->generic : fun;
        if (!(f = open_memstream(&buf, &len))) ICE("open_memstream failed");
        print_fn_result(f, orig->name, orig->type);
        fclose(f);
        return buf;
    }
    case TOP_DATA: {
        DataDecl *d = form->data;
        if (form->quiet) return NULL;
        Arena *a = arena_new();
        Type *dt = type_new(a, TY_DATA);
        dt->data = d;
        dt->args = d->params;
        dt->nargs = d->nctx;
        if (!(f = open_memstream(&buf, &len))) ICE("open_memstream failed");
        print_fn_result(f, d->name, type_fun(a, d->field_type, dt, NULL));
        fclose(f);
        arena_free(a);
        return buf;
    }
    case TOP_BIND: case TOP_EXPR: return NULL;
    }
    ICE("bad top-level form kind %d", (int)form->kind);
}

/* ------------------------------------------------------------------ printability */

/* NESL cannot print NaN or infinite floats: the part of the value that would
 * be printed must not contain any. */
static bool printable(Value v, int print_length)
{
    switch (v.kind) {
    case V_FLOAT: return isfinite(v.f);
    case V_INT: case V_BOOL: case V_CHAR: case V_FUN: case V_STREAM: return true;
    case V_PAIR: return printable(v.pair->fst, print_length) && printable(v.pair->snd, print_length);
    case V_DATA: return printable(v.data->fields, print_length);
    case V_SEQ: {
        int64_t n = v.seq->len < print_length ? v.seq->len : print_length;
        for (int64_t i = 0; i < n; i++)
            if (!printable(v.seq->elems[i], print_length))
                return false;
        return true;
    }
    }
    ICE("bad value kind %d", (int)v.kind);
}

/* ------------------------------------------------------------------ forms */

/* How the value of a form is computed: the AST evaluator, or eval_form. */
typedef struct Evaluator {
    FormEvaluator eval_form;    /* NULL: eval_expr */
    void *ctx;
} Evaluator;

/* Evaluate a binding or expression form and print `name = value : type`. */
static void run_value_form(Interp *I, TopForm *form, const char *name_if_expr, const Evaluator *ev)
{
    int n = form->nslots > 0 ? form->nslots : 1;
    Value slots[n];
    memset(slots, 0, sizeof slots);
    Frame fr = { slots, form->nslots };
    Value v = ev->eval_form ? ev->eval_form(I, form, ev->ctx) : eval_expr(I, form->expr, &fr);
    if (!form->quiet && !printable(v, I->print_length))
        rt_error(I, form->expr->span, "Cannot print an infinite or NaN float value.");
    /* Globals outlive this form's heap. */
    Value g = value_copy(I->global_heap, v);
    if (form->pat)
        bind_pattern(I, form->pat, g, &fr);
    if (form->quiet)
        return;                         /* library binding: never printed */
    Type *t = type_prune(form->expr->type);
    if (name_if_expr) {
        print_result(I->out, name_if_expr, g, t, I->print_length);
    } else {
        StrBuf name = { 0 };
        pattern_name(&name, form->pat);
        sb_putc(&name, '\0');
        print_result(I->out, name.data, g, t, I->print_length);
        sb_free(&name);
    }
}

static void run_form_body(Interp *I, TopForm *form, const Evaluator *ev)
{
    switch (form->kind) {
    case TOP_FUN: {
        FunDecl *fun = form->fun;
        if (!fun || !fun->body || form->quiet)
            return;                     /* forward declaration: prints nothing */
        FunDecl *orig = fun->generic ? fun->generic : fun;
        orig->live = true;
        print_fn_result(I->out, orig->name, orig->type);
        return;
    }
    case TOP_DATA: {
        DataDecl *d = form->data;
        if (form->quiet)
            return;
        Type *dt = type_new(I->heap, TY_DATA);
        dt->data = d;
        dt->args = d->params;
        dt->nargs = d->nctx;
        print_fn_result(I->out, d->name, type_fun(I->heap, d->field_type, dt, NULL));
        return;
    }
    case TOP_BIND:
        run_value_form(I, form, NULL, ev);
        return;
    case TOP_EXPR:
        run_value_form(I, form, "it", ev);
        return;
    }
    ICE("bad top-level form kind %d", (int)form->kind);
}

/* Run one form under an error handler; false if it failed at run time. */
static bool run_form(Interp *I, TopForm *form, const Evaluator *ev)
{
    RtErrorCtx ctx;
    bool ok;
    rng_reseed(I);
    I->heap = arena_new();
    I->depth = 0;
    I->timing = false;
    I->call_site = (Span){ 0 };
    ctx.active = true;
    I->errctx = &ctx;
    if (setjmp(ctx.jb) == 0) {
        run_form_body(I, form, ev);
        ok = true;
    } else {
        ok = false;
    }
    ctx.active = false;
    I->errctx = NULL;
    fflush(I->out);
    arena_free(I->heap);
    I->heap = NULL;
    return ok;
}

/* ------------------------------------------------------------------ driver */

typedef struct Job {
    const struct MonoProgram *mono;
    const InterpOptions *opt;
    size_t stack_budget;        /* bytes of C stack the evaluator may use */
    Evaluator ev;
    int failures;
} Job;

static void run_program(Job *job)
{
    const MonoProgram *mono = job->mono;
    Interp I;
    memset(&I, 0, sizeof I);
    I.out = job->opt->out ? job->opt->out : stdout;
    I.err = job->opt->err ? job->opt->err : stderr;
    I.print_length = job->opt->print_length > 0 ? job->opt->print_length : 100;
    I.max_depth = EVAL_MAX_DEPTH;
    I.stack_limit = (uintptr_t)__builtin_frame_address(0) - job->stack_budget;
    I.global_heap = arena_new();
    I.nglobals = mono->nglobals;
    size_t ng = mono->nglobals > 0 ? (size_t)mono->nglobals : 1;
    I.globals = calloc(ng, sizeof *I.globals);
    I.global_set = calloc(ng, sizeof *I.global_set);
    if (!I.globals || !I.global_set)
        ICE("out of memory");
    for (int k = 0; k < mono->prog.nforms; k++) {
        TopForm *form = mono->prog.forms[k];
        if (form->failed)
            continue;
        if (!run_form(&I, form, &job->ev))
            job->failures++;
    }
    free(I.globals);
    free(I.global_set);
    arena_free(I.global_heap);
}

static void *program_thread(void *arg)
{
    run_program(arg);
    return NULL;
}

int interp_program_with(const struct MonoProgram *mono, const InterpOptions *opt,
                        FormEvaluator eval_form, void *ctx)
{
    Job job = { mono, opt, EVAL_STACK_BUDGET, { eval_form, ctx }, 0 };
    pthread_attr_t attr;
    pthread_t th;
    bool threaded = false;
    if (pthread_attr_init(&attr) == 0) {
        if (pthread_attr_setstacksize(&attr, EVAL_STACK_BYTES) == 0 &&
            pthread_create(&th, &attr, program_thread, &job) == 0)
            threaded = true;
        pthread_attr_destroy(&attr);
    }
    if (threaded) {
        pthread_join(th, NULL);
    } else {
        job.stack_budget = EVAL_FALLBACK_BUDGET;
        run_program(&job);
    }
    return job.failures;
}

int interp_program(const struct MonoProgram *mono, const InterpOptions *opt)
{
    return interp_program_with(mono, opt, NULL, NULL);
}
