/* gen_nesl.c — what a NESL program needs beyond λcu: host-bridge library
 * calls (passed to rt/rt_bridge.c as NeslComp arrays with the tag's value
 * descriptor), and the top level: a wrapper per value form that calls its
 * λcu function with the globals it reads and stores the result's flat
 * components, the form table (NeslProgram, rt/nesl_rt.h) and a main that
 * hands it to nesl_run_program (rt/rt_top.c). */
#include <stdlib.h>
#include <string.h>
#include "cudagen.h"

static const char *comp_field(const LcuType *t)
{
    if (t->kind != LT_BASE) return "p";
    return t->base == LB_FLOAT ? "f" : "i";
}

/* The C value of component c (a NeslComp lvalue) as type t. */
static CExpr *from_comp(Gen *g, const LcuType *t, CExpr *c)
{
    Arena *a = g->a;
    CExpr *m = cx_member(a, c, comp_field(t));
    switch (t->kind) {
    case LT_BASE:
        switch (t->base) {
        case LB_FLOAT: return g->f32 ? cx_cast(a, "float", m) : m;   /* -ffloat32: the bridge rounded it already */
        case LB_INT: return cx_cast(a, "int32_t", m);
        case LB_BOOL: return cx_bin(a, CB_NE, m, cx_int(a, 0));
        case LB_CHAR: case LB_UNIT: return cx_cast(a, "uint8_t", m);
        }
        break;
    case LT_VEC: case LT_REF: return cx_cast(a, "NeslVec *", m);
    case LT_SD: return cx_cast(a, "NeslSd *", m);
    case LT_TUPLE: break;
    }
    ICE("from_comp of a tuple");
}

static void to_comp(Gen *g, CBlock *blk, const LcuType *t, CExpr *c, CExpr *v)
{
    Arena *a = g->a;
    if (t->kind != LT_BASE) v = cx_cast(a, "void *", v);
    cs_assign(a, blk, cx_member(a, c, comp_field(t)), v);
}

/* A NeslComp array of n elements (at least 1) in blk; returns its name. */
static CExpr *comp_array(Gen *g, CBlock *blk, const char *base, int n)
{
    const char *v = gen_fresh(g, base);
    char decl[80];
    snprintf(decl, sizeof decl, "%s[%d]", v, n > 0 ? n : 1);
    cs_decl(g->a, blk, "NeslComp", arena_strndup(g->a, decl, strlen(decl)), NULL);
    return cx_name(g->a, v);
}

/* The result components of a call that filled array r: one variable each. */
static CExpr **unpack_comps(Gen *g, const LcuType *t, CExpr *r, CBlock *blk)
{
    int n = lcu_t_arity(t);
    CExpr **c = arena_alloc(g->a, sizeof *c * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        const LcuType *ct = lcu_t_component(t, k);
        c[k] = gen_hoist(g, blk, gen_ctype(g, ct), "t", from_comp(g, ct, cx_index(g->a, r, cx_int(g->a, k))));
    }
    return c;
}

/* lib global "NAME|TYPE" (site, index[, count]); lib nesl_ID "U|..." (site, args...)
 * or "L|..." (site, n, args...). */
CExpr **gen_bridge(Gen *g, const LcuExpr *e, CExpr **args, CBlock *blk)
{
    Arena *a = g->a;
    const char *name = e->u.lib.name;
    int nargs = 0;
    for (int i = 0; i < e->u.lib.nargs; i++) nargs += lcu_t_arity(e->u.lib.args[i]->type);
    int nres = lcu_t_arity(e->type);
    CExpr *rt = args[0];
    if (!g->nesl) {
        gen_error(g, e->span, "host-bridge library call '%s' \"%s\" outside a NESL program is not supported yet (C backend)",
                  name, e->u.lib.tag);
        return NULL;
    }
    if (!strcmp(name, "global")) {
        if (nargs != 2 && nargs != 3) ICE("lib global with %d arguments", nargs);
        CExpr *r = comp_array(g, blk, "r", nres);
        CExpr *read = cx_calln(a, "nesl_global", 5, rt, args[1], args[2], cx_int(a, nres), r);
        if (nargs == 2) {
            cs_expr(a, blk, read);
            return unpack_comps(g, e->type, r, blk);
        }
        /* (site, index, count): an unbound global read for no elements is
         * empty stand-ins (flatten/expr.c guarded_body) */
        CBlock *absent = cb_new(a), *bound = cb_new(a);
        for (int k = 0; k < nres; k++) {
            const LcuType *ct = lcu_t_component(e->type, k);
            CExpr *v = ct->kind == LT_BASE ? cx_int(a, 0)
                     : ct->kind == LT_SD ? cx_calln(a, "nesl_sd_new", 2, rt, cx_int(a, 0))
                     : cx_calln(a, "nesl_vec_new", 3, rt, cx_name(a, gen_base_enum(g, ct->base)), cx_int(a, 0));
            to_comp(g, absent, ct, cx_index(a, r, cx_int(a, k)), v);
        }
        cs_expr(a, bound, read);
        cs_if(a, blk, cx_calln(a, "nesl_global_absent", 3, rt, args[2], args[3]), absent, bound);
        return unpack_comps(g, e->type, r, blk);
    }
    const char *desc = g->nesl->describe_tag(g->nesl->ctx, e->u.lib.tag);
    if (!desc) {
        gen_error(g, e->span, "host-bridge library call '%s' \"%s\" is not supported yet (C backend)", name, e->u.lib.tag);
        return NULL;
    }
    bool lifted = e->u.lib.tag[0] == 'L';
    int first = lifted ? 2 : 1;   /* after the site (and the count) */
    if (nargs < first) ICE("lib %s with %d arguments", name, nargs);
    CExpr *av = comp_array(g, blk, "a", nargs - first);
    int k = 0, j = 0;
    for (int i = 0; i < e->u.lib.nargs; i++) {
        const LcuType *t = e->u.lib.args[i]->type;
        for (int c = 0; c < lcu_t_arity(t); c++, k++)
            if (k >= first) to_comp(g, blk, lcu_t_component(t, c), cx_index(a, av, cx_int(a, j++)), args[1 + k]);
    }
    CExpr *r = comp_array(g, blk, "r", nres);
    CExpr *n = lifted ? cx_cast(a, "int64_t", args[2]) : cx_int(a, -1);
    cs_expr(a, blk, cx_calln(a, "nesl_bridge", 9, rt, cx_str(a, name, (int)strlen(name)), cx_str(a, desc, (int)strlen(desc)),
                             args[1], n, cx_int(a, j), av, cx_int(a, nres), r));
    return unpack_comps(g, e->type, r, blk);
}

/* ---- the top level ---- */
static const LcuFun *find_fun(const LcuProgram *p, Sym f)
{
    for (int i = 0; i < p->nfuns; i++)
        if (p->funs[i]->name == f || !strcmp(p->funs[i]->name, f)) return p->funs[i];
    return NULL;
}

/* Flat components of a value of descriptor *d (U or L layout), as
 * rt_value.c's nty_arity. */
static int desc_arity(const char **d, bool lifted)
{
    switch (*(*d)++) {
    case 'i': case 'f': case 'b': case 'c': case 's': return 1;
    case '?': return 0;
    case '[': return (lifted ? 1 : 0) + desc_arity(d, true);
    case '(': { int n = desc_arity(d, lifted); return n + desc_arity(d, lifted); }
    case 'D': *d = strchr(*d, ';') + 1; return desc_arity(d, lifted);
    case 'F': {
        char *end;
        long n = strtol(*d, &end, 10);
        *d = end + 1;
        int s = 0;
        for (long k = 0; k < n; k++) s += desc_arity(d, lifted);
        return s;
    }
    }
    ICE("bad value descriptor");
}

/* static void form_N(NeslRt *rt, NeslComp *res): run the form's function. */
static const char *gen_form_wrapper(Gen *g, const CgenForm *f, int *ncomps)
{
    Arena *a = g->a;
    const LcuFun *fn = find_fun(g->prog, f->fun);
    if (!fn) ICE("no λcu function '%s' for a form", f->fun);
    CFunc *w = arena_alloc(a, sizeof *w);
    w->is_static = true;
    w->ret = "void";
    w->name = gen_fresh(g, "form");
    w->nparams = 2;
    w->params = arena_alloc(a, sizeof *w->params * 2);
    w->params[0] = (CParam){ "NeslRt *", "rt" };
    w->params[1] = (CParam){ "NeslComp *", "res" };
    w->body = cb_new(a);
    char c[96];
    snprintf(c, sizeof c, "top-level form %.80s", fn->name);
    w->comment = arena_strndup(a, c, strlen(c));
    CExpr *rt = cx_name(a, "rt");
    /* parameters: the needed globals' components, in order */
    int np = 1;
    for (int i = 0; i < fn->nparams; i++) np += lcu_t_arity(fn->params[i].type);
    CExpr **args = arena_alloc(a, sizeof *args * (size_t)np);
    args[0] = rt;
    /* flat parameter k is component gk of needed global gi */
    int k = 1, gi = 0, gk = 0;
    CExpr *gv = NULL;
    for (int i = 0; i < fn->nparams; i++)
        for (int j = 0; j < lcu_t_arity(fn->params[i].type); j++, k++) {
            while (!gv || gk >= f->need_ncomps[gi - 1]) {
                if (gi >= f->nneeds) ICE("form %s: more parameters than needed globals", fn->name);
                gv = gen_hoist(g, w->body, "const NeslComp *", "g", cx_calln(a, "nesl_global_comps", 2, rt, cx_int(a, f->needs[gi++])));
                gk = 0;
            }
            args[k] = from_comp(g, lcu_t_component(fn->params[i].type, j), cx_index(a, gv, cx_int(a, gk++)));
        }
    char sn[96];
    snprintf(sn, sizeof sn, "%s_fr", fn->name);
    const char *rtype = gen_result_type(g, fn->result, arena_strndup(a, sn, strlen(sn)));
    const char *r = gen_fresh(g, "r");
    cs_decl(a, w->body, rtype, r, cx_call(a, gen_fun_name(g, fn->name), np, args));
    const char *d = f->desc;
    int want = desc_arity(&d, false);
    CExpr **rc = gen_unpack(g, fn->result, cx_name(a, r));
    if (want > 0 && want != lcu_t_arity(fn->result))
        ICE("form %s returns %d components, its type has %d", fn->name, lcu_t_arity(fn->result), want);
    for (int j = 0; j < want; j++)
        to_comp(g, w->body, lcu_t_component(fn->result, j), cx_index(a, cx_name(a, "res"), cx_int(a, j)), rc[j]);
    if (want == 0) cs_expr(a, w->body, cx_cast(a, "void", cx_name(a, r)));
    ptrvec_push(a, &g->unit->funcs, w);
    *ncomps = want;
    return w->name;
}

static void put_cstr(FILE *out, const char *s)
{
    if (!s) { fputs("NULL", out); return; }
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '?') fputs("\\?", out);
        else if (c == '\n') fputs("\\n", out);
        else if (c >= ' ' && c <= '~') fputc(c, out);
        else fprintf(out, "\\%03o", c);
    }
    fputc('"', out);
}

void gen_nesl_main(Gen *g)
{
    const CgenNesl *p = g->nesl;
    const char **wrappers = arena_alloc(g->a, sizeof *wrappers * (size_t)(p->nforms + 1));
    int *ncomps = arena_alloc(g->a, sizeof *ncomps * (size_t)(p->nforms + 1));
    for (int i = 0; i < p->nforms; i++)
        if (!p->forms[i].text) wrappers[i] = gen_form_wrapper(g, &p->forms[i], &ncomps[i]);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) ICE("open_memstream failed");
    for (int i = 0; i < p->nforms; i++) {
        const CgenForm *f = &p->forms[i];
        if (f->text) continue;
        if (f->nbinds) {
            fprintf(out, "\nstatic const NeslBind nesl_binds_%d[] = {", i);
            for (int b = 0; b < f->nbinds; b++)
                fprintf(out, "%s{ %d, %d, %d }", b ? ", " : " ", f->binds[b].global, f->binds[b].first, f->binds[b].n);
            fputs(" };\n", out);
        }
        if (f->nneeds) {
            fprintf(out, "static const int32_t nesl_needs_%d[] = {", i);
            for (int b = 0; b < f->nneeds; b++) fprintf(out, "%s%d", b ? ", " : " ", f->needs[b]);
            fprintf(out, " };\nstatic const char *const nesl_need_where_%d[] = {", i);
            for (int b = 0; b < f->nneeds; b++) {
                fputs(b ? ", " : " ", out);
                put_cstr(out, f->need_where[b]);
            }
            fputs(" };\n", out);
        }
    }
    fprintf(out, "\nstatic const char *const nesl_global_names[%d] = {", p->nglobals > 0 ? p->nglobals : 1);
    for (int i = 0; i < p->nglobals; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        put_cstr(out, p->global_names[i] ? p->global_names[i] : "?");
    }
    fputs(p->nglobals ? "\n};\n" : " 0 };\n", out);
    fprintf(out, "\nstatic const NeslForm nesl_forms[%d] = {\n", p->nforms > 0 ? p->nforms : 1);
    for (int i = 0; i < p->nforms; i++) {
        const CgenForm *f = &p->forms[i];
        fputs("    { ", out);
        if (f->text) {
            put_cstr(out, f->text);
            fputs(", NULL, NULL, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, NULL },\n", out);
            continue;
        }
        const char *label = strncmp(f->fun, "form", 4) ? f->fun : f->fun + 4;
        fputs("NULL, ", out);
        put_cstr(out, label);
        fprintf(out, ", %s, %d, ", wrappers[i], ncomps[i]);
        put_cstr(out, f->name);
        fputs(", ", out);
        put_cstr(out, f->type);
        fputs(", ", out);
        put_cstr(out, f->desc);
        fputs(", ", out);
        put_cstr(out, f->where);
        if (f->nneeds) fprintf(out, ", %d, nesl_needs_%d, nesl_need_where_%d", f->nneeds, i, i);
        else fputs(", 0, NULL, NULL", out);
        if (f->nbinds) fprintf(out, ", %d, nesl_binds_%d },\n", f->nbinds, i);
        else fputs(", 0, NULL },\n", out);
    }
    if (!p->nforms) fputs("    { NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, NULL }\n", out);
    fputs("};\n", out);
    fprintf(out, "\nstatic const NeslProgram nesl_program = { %d, nesl_forms, %d, nesl_global_names, %d };\n",
            p->nforms, p->nglobals, p->print_length);
    fprintf(out, "\nint main(int argc, char **argv)\n{\n"
                 "    NeslRt *rt = nesl_rt_new(argc, argv, %d, site_texts);\n"
                 "%s"
                 "    return nesl_run_program(rt, &nesl_program);\n}\n", g->prog->nsites,
            g->f32 ? "    nesl_set_float32(rt);\n" : "");
    fclose(out);
    ptrvec_push(g->a, &g->unit->raw, arena_strndup(g->a, text, len));
    free(text);
}
