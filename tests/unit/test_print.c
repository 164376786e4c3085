/* test_print.c — unit tests of the value and type printers (interp/print.c,
 * frontend/type_print.c) against NESL.md 4.6, 5.9 and 10.
 * Links with print.c, type_print.c, common.c and ast.c.  Exit status 0 iff
 * every check passes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../interp/interp_impl.h"

typedef struct T { Arena *a; int pass, fail; } T;

static void check_str(T *t, const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0) { t->pass++; return; }
    t->fail++;
    printf("FAIL %s\n  got:  [%s]\n  want: [%s]\n", what, got, want);
}

/* ---- float formats ---- */

static void check_top(T *t, double x, const char *want)
{
    StrBuf b = { NULL, 0, 0 };
    format_float_toplevel(&b, x);
    char what[64];
    snprintf(what, sizeof what, "toplevel %.17g", x);
    check_str(t, what, b.data, want);
    sb_free(&b);
}

static void check_at(T *t, double x, const char *want)
{
    StrBuf b = { NULL, 0, 0 };
    format_float_at(&b, x);
    char what[64];
    snprintf(what, sizeof what, "@ %.17g", x);
    check_str(t, what, b.data, want);
    sb_free(&b);
}

static void test_floats(T *t)
{
    volatile double three = 3.0, two = 2.0, one = 1.0, p1 = 0.1, p2 = 0.2;
    check_top(t, one / three, "0.333333333333333");
    check_top(t, two / three, "0.666666666666667");
    check_top(t, p1 + p2, "0.3");
    check_top(t, 100.0, "100.0");
    check_top(t, 1.0e6, "1000000.0");
    check_top(t, 1.0e7, "1.0E7");
    check_top(t, 1.0e20, "1.0E20");
    check_top(t, 1.0e-3, "0.001");
    check_top(t, 1.0e-4, "1.0E-4");
    check_top(t, 0.0005, "5.0E-4");
    check_top(t, 123456789.0, "1.23456789E8");
    check_top(t, 1.0 / 1024.0, "9.765625E-4");
    check_top(t, -0.0, "0.0");
    check_top(t, 0.0, "0.0");
    check_top(t, 2.5, "2.5");
    check_top(t, 1.0, "1.0");
    check_top(t, sqrt(2.0), "1.4142135623731");
    check_top(t, 2.5e10, "2.5E10");
    check_top(t, -8.88178419700125e-16, "-8.88178419700125E-16");
    check_top(t, -12.5, "-12.5");
    check_top(t, 9999999.0, "9999999.0");
    check_top(t, 9999999.9999999999, "1.0E7");
    check_top(t, 0.00099999999999999999, "0.001");
    check_top(t, 1234.5, "1234.5");
    check_top(t, NAN, "NaN");
    check_top(t, INFINITY, "Infinity");
    check_top(t, -INFINITY, "-Infinity");

    check_at(t, 2.5, "2.5");
    check_at(t, 100.0, "100.0");
    check_at(t, 0.001, "0.001");
    check_at(t, 0.0001, "1.0e-4");
    check_at(t, 1.0e7, "1.0e+7");
    check_at(t, 3.14159265, "3.1415927");
    check_at(t, 0.0, "0.0");
    check_at(t, -0.0, "0.0");
    check_at(t, 1.0, "1.0");
    check_at(t, -2.5, "-2.5");
    check_at(t, 9.99999999, "10.0");
    check_at(t, 9999999.99, "1.0e+7");
    check_at(t, 1234567.0, "1234567.0");
    check_at(t, 12345678.0, "1.2345678e+7");
    check_at(t, 1.5e20, "1.5e+20");
    check_at(t, one / three, "0.33333333");
    check_at(t, 0.00123456789, "0.0012345679");
}

/* ---- values, built with value.c's constructors ---- */

static Value mk_seq(T *t, int64_t n) { return v_seq(seq_alloc(t->a, n)); }
static Value mk_pair(T *t, Value a, Value b) { return v_pair(t->a, a, b); }
static Value mk_str(T *t, const char *s) { return v_string(t->a, s, (int64_t)strlen(s)); }
static Value mk_data(T *t, DataDecl *d, Value fields) { return v_data(t->a, d, fields); }

static Value mk_ints(T *t, int n, const int *xs)
{
    Value v = mk_seq(t, n);
    for (int i = 0; i < n; i++) v.seq->elems[i] = v_int(xs[i]);
    return v;
}

static void check_val(T *t, Value v, Type *ty, int plen, const char *want)
{
    StrBuf b = { NULL, 0, 0 };
    sb_puts(&b, "");
    format_value(&b, v, ty, plen);
    check_str(t, "format_value", b.data, want);
    sb_free(&b);
}

static void check_atval(T *t, Value v, Type *ty, const char *want)
{
    StrBuf b = { NULL, 0, 0 };
    sb_puts(&b, "");
    value_to_nesl_string(&b, v, ty);
    check_str(t, "value_to_nesl_string", b.data, want);
    sb_free(&b);
}

static Type *tvar(T *t, TypeClass c)
{
    Type *v = type_new(t->a, TY_VAR);
    v->cls = c;
    return v;
}

static Type *tfun(T *t, Type *a, Type *r) { return type_fun(t->a, a, r, tvar(t, CLS_ANY)); }

static void test_values(T *t)
{
    Arena *a = t->a;
    Type *ti = type_base(a, TY_INT), *tf = type_base(a, TY_FLOAT);
    Type *tb = type_base(a, TY_BOOL), *tc = type_base(a, TY_CHAR);
    Type *tstr = type_seq(a, tc);

    check_val(t, v_int(-12), ti, 100, "-12");
    check_val(t, v_int(INT32_MIN), ti, 100, "-2147483648");
    check_val(t, v_bool(true), tb, 100, "T");
    check_val(t, v_bool(false), tb, 100, "F");
    check_val(t, v_char('a'), tc, 100, "`a");
    check_val(t, v_char(' '), tc, 100, "` ");
    check_val(t, v_float(2.5), tf, 100, "2.5");
    check_atval(t, v_bool(true), tb, "t");
    check_atval(t, v_bool(false), tb, "f");
    check_atval(t, v_char('x'), tc, "`x");

    int sq[] = { 1, 4, 9 };
    check_val(t, mk_ints(t, 3, sq), type_seq(a, ti), 100, "[1, 4, 9]");
    check_atval(t, mk_ints(t, 2, sq), type_seq(a, ti), "[1, 4]");
    check_val(t, mk_seq(t, 0), type_seq(a, ti), 100, "[]");
    check_val(t, mk_seq(t, 0), type_seq(a, type_pair(a, ti, tb)), 100, "[]");
    check_val(t, mk_seq(t, 0), tstr, 100, "\"\"");
    check_atval(t, mk_seq(t, 0), tstr, "[]");
    check_val(t, mk_str(t, "ab"), tstr, 100, "\"ab\"");
    check_val(t, mk_str(t, "a\"b\\c"), tstr, 100, "\"a\\\"b\\\\c\"");
    check_atval(t, mk_str(t, "ab"), tstr, "[`a, `b]");

    /* bools in a sequence */
    Value bs = mk_seq(t, 2);
    bs.seq->elems[0] = v_bool(true);
    bs.seq->elems[1] = v_bool(false);
    check_val(t, bs, type_seq(a, tb), 100, "[T, F]");

    /* truncation past print_length; strings never truncated */
    int big[150];
    for (int i = 0; i < 150; i++) big[i] = i;
    StrBuf w = { NULL, 0, 0 };
    sb_putc(&w, '[');
    for (int i = 0; i < 100; i++) sb_printf(&w, i ? ", %d" : "%d", i);
    sb_puts(&w, ",...]");
    check_val(t, mk_ints(t, 150, big), type_seq(a, ti), 100, w.data);
    sb_free(&w);
    {
        StrBuf w2 = { NULL, 0, 0 };
        sb_putc(&w2, '[');
        for (int i = 0; i < 100; i++) sb_printf(&w2, i ? ", %d" : "%d", i);
        sb_putc(&w2, ']');
        StrBuf g = { NULL, 0, 0 };
        sb_puts(&g, "");
        format_value(&g, mk_ints(t, 100, big), type_seq(a, ti), 100);
        check_str(t, "exactly print_length elements", g.data, w2.data);
        sb_free(&g);
        sb_free(&w2);
    }
    check_val(t, mk_ints(t, 5, big), type_seq(a, ti), 3, "[0, 1, 2,...]");
    {
        char s[201];
        memset(s, 'x', 200);
        s[200] = '\0';
        StrBuf g = { NULL, 0, 0 };
        format_value(&g, mk_str(t, s), tstr, 100);
        check_str(t, "long string untruncated", g.len == 202 ? "ok" : "bad", "ok");
        sb_free(&g);
    }
    {
        /* `@` never truncates */
        StrBuf w3 = { NULL, 0, 0 };
        sb_putc(&w3, '[');
        for (int i = 0; i < 150; i++) sb_printf(&w3, i ? ", %d" : "%d", i);
        sb_putc(&w3, ']');
        check_atval(t, mk_ints(t, 150, big), type_seq(a, ti), w3.data);
        sb_free(&w3);
    }

    /* tuples */
    Type *tiii = type_pair(a, ti, type_pair(a, ti, ti));
    Value r3 = mk_pair(t, v_int(1), mk_pair(t, v_int(2), v_int(3)));
    check_val(t, r3, tiii, 100, "(1, 2, 3)");
    Type *tl = type_pair(a, type_pair(a, ti, ti), ti);
    Value l3 = mk_pair(t, mk_pair(t, v_int(1), v_int(2)), v_int(3));
    check_val(t, l3, tl, 100, "((1, 2), 3)");
    check_val(t, mk_pair(t, v_int(2), mk_str(t, "ab")), type_pair(a, ti, tstr), 100,
              "(2, \"ab\")");
    check_atval(t, mk_pair(t, v_int(1), v_char('x')), type_pair(a, ti, tc), "(1, `x)");
    Value ps = mk_seq(t, 2);
    ps.seq->elems[0] = mk_pair(t, v_int(1), v_float(2.0));
    ps.seq->elems[1] = mk_pair(t, v_int(3), v_float(4.0));
    check_val(t, ps, type_seq(a, type_pair(a, ti, tf)), 100, "[(1, 2.0), (3, 4.0)]");
    /* a pair whose second component is a sequence of pairs */
    check_val(t, mk_pair(t, v_int(1), ps), type_pair(a, ti, type_seq(a, type_pair(a, ti, tf))),
              100, "(1, [(1, 2.0), (3, 4.0)])");

    /* functions */
    Value fnv;
    fnv.kind = V_FUN;
    fnv.fn = NULL;
    check_val(t, fnv, tfun(t, ti, ti), 100, "fn");
    check_atval(t, fnv, tfun(t, ti, ti), "function");

    /* datatypes: cpx(float, float); tagged(int, a) :: (a in any); box(int) */
    DataDecl *cpx = arena_alloc(a, sizeof *cpx);
    cpx->name = "cpx";
    cpx->field_type = type_pair(a, tf, tf);
    Type *tcpx = type_new(a, TY_DATA);
    tcpx->data = cpx;
    Value z = mk_data(t, cpx, mk_pair(t, v_float(1.0), v_float(2.0)));
    check_val(t, z, tcpx, 100, "cpx(1.0, 2.0)");
    check_atval(t, z, tcpx, "cpx(1.0, 2.0)");

    DataDecl *tagged = arena_alloc(a, sizeof *tagged);
    tagged->name = "tagged";
    Type *pa = tvar(t, CLS_ANY);
    tagged->params = arena_alloc(a, sizeof(Type *));
    tagged->params[0] = pa;
    tagged->nctx = 1;
    tagged->field_type = type_pair(a, ti, type_seq(a, pa));
    Type *ttag = type_new(a, TY_DATA);
    ttag->data = tagged;
    ttag->args = arena_alloc(a, sizeof(Type *));
    ttag->args[0] = tc;
    ttag->nargs = 1;
    /* the [a] field is an empty string once a = char: printed "" */
    Value tg = mk_data(t, tagged, mk_pair(t, v_int(7), mk_seq(t, 0)));
    check_val(t, tg, ttag, 100, "tagged(7, \"\")");
    check_atval(t, tg, ttag, "tagged(7, [])");

    DataDecl *box = arena_alloc(a, sizeof *box);
    box->name = "box";
    box->field_type = ti;
    Type *tbox = type_new(a, TY_DATA);
    tbox->data = box;
    check_val(t, mk_data(t, box, v_int(3)), tbox, 100, "box(3)");

    /* unknown type: fall back on the value's tags */
    check_val(t, r3, NULL, 100, "(1, 2, 3)");
    check_val(t, mk_str(t, "hi"), NULL, 100, "\"hi\"");
}

/* ---- result lines ---- */

static void check_result(T *t, const char *name, Value v, Type *ty, const char *want)
{
    char buf[4096];
    FILE *f = tmpfile();
    if (!f) { t->fail++; printf("FAIL tmpfile\n"); return; }
    print_result(f, name, v, ty, 100);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    check_str(t, "print_result", buf, want);
}

static void check_fn_result(T *t, const char *name, Type *ty, const char *want)
{
    char buf[4096];
    FILE *f = tmpfile();
    if (!f) { t->fail++; printf("FAIL tmpfile\n"); return; }
    print_fn_result(f, name, ty);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    check_str(t, "print_fn_result", buf, want);
}

static void test_results(T *t)
{
    Arena *a = t->a;
    Type *ti = type_base(a, TY_INT), *tf = type_base(a, TY_FLOAT), *tc = type_base(a, TY_CHAR);
    int sq[] = { 1, 4, 9 };
    check_result(t, "it", mk_ints(t, 3, sq), type_seq(a, ti), "it = [1, 4, 9] : [int]\n");
    check_result(t, "x", v_int(5), ti, "x = 5 : int\n");
    check_result(t, "it", mk_pair(t, v_int(2), mk_str(t, "ab")),
                 type_pair(a, ti, type_seq(a, tc)), "it = (2, \"ab\") : int, [char]\n");
    check_result(t, "(q, r)", mk_pair(t, v_int(3), v_int(2)), type_pair(a, ti, ti),
                 "(q, r) = (3, 2) : int, int\n");
    check_result(t, "it", mk_pair(t, mk_pair(t, v_int(1), v_int(2)), v_int(3)),
                 type_pair(a, type_pair(a, ti, ti), ti), "it = ((1, 2), 3) : (int, int), int\n");

    /* line layout: exactly 120 characters stays on one line, 121 splits */
    char s[200];
    /* `it = "` + n + `" : [char]` = 6 + n + 10 */
    memset(s, 'x', 104);
    s[104] = '\0';
    char want[400];
    snprintf(want, sizeof want, "it = \"%s\" : [char]\n", s);
    check_result(t, "it", mk_str(t, s), type_seq(a, tc), want);
    s[104] = 'x';
    s[105] = '\0';
    snprintf(want, sizeof want, "it = \n  \"%s\"\n   : [char]\n", s);
    check_result(t, "it", mk_str(t, s), type_seq(a, tc), want);

    /* a long nested sequence */
    int big[40];
    for (int i = 0; i < 40; i++) big[i] = i;
    Value nest = mk_seq(t, 2);
    nest.seq->elems[0] = mk_ints(t, 40, big);
    nest.seq->elems[1] = mk_ints(t, 2, big);
    StrBuf vb = { NULL, 0, 0 };
    format_value(&vb, nest, type_seq(a, type_seq(a, ti)), 100);
    snprintf(want, sizeof want, "it = \n  %s\n   : [[int]]\n", vb.data);
    check_result(t, "it", nest, type_seq(a, type_seq(a, ti)), want);
    sb_free(&vb);

    /* functions */
    Type *va = tvar(t, CLS_NUMBER);
    check_fn_result(t, "twice", tfun(t, va, va), "twice = fn : a -> a :: (a in number)\n");
    check_fn_result(t, "hyp", tfun(t, type_pair(a, tf, tf), tf),
                    "hyp = fn : (float, float) -> float\n");
    DataDecl *cpx = arena_alloc(a, sizeof *cpx);
    cpx->name = "cpx";
    Type *tcpx = type_new(a, TY_DATA);
    tcpx->data = cpx;
    check_fn_result(t, "cpx", tfun(t, type_pair(a, tf, tf), tcpx),
                    "cpx = fn : (float, float) -> cpx\n");
}

/* ---- types ---- */

static void check_type(T *t, Type *ty, bool ctx, const char *want)
{
    char *s = type_to_string(t->a, ty, ctx);
    check_str(t, "type_to_string", s, want);
}

static void test_types(T *t)
{
    Arena *a = t->a;
    Type *ti = type_base(a, TY_INT), *tf = type_base(a, TY_FLOAT);
    Type *tb = type_base(a, TY_BOOL), *tc = type_base(a, TY_CHAR);

    check_type(t, ti, true, "int");
    check_type(t, tf, true, "float");
    check_type(t, tb, true, "bool");
    check_type(t, tc, true, "char");
    check_type(t, type_base(a, TY_STREAM), true, "stream");
    check_type(t, type_seq(a, ti), true, "[int]");
    check_type(t, type_seq(a, type_seq(a, tc)), true, "[[char]]");
    check_type(t, type_seq(a, type_pair(a, ti, tf)), true, "[(int, float)]");
    check_type(t, type_pair(a, ti, tf), true, "int, float");
    check_type(t, type_pair(a, ti, type_pair(a, tf, tb)), true, "int, float, bool");
    check_type(t, type_pair(a, type_pair(a, ti, tf), tb), true, "(int, float), bool");
    check_type(t, type_pair(a, type_pair(a, ti, ti), ti), true, "(int, int), int");
    check_type(t, tfun(t, ti, ti), true, "int -> int");
    check_type(t, tfun(t, type_pair(a, tf, tf), tf), true, "(float, float) -> float");
    check_type(t, tfun(t, tfun(t, ti, ti), ti), true, "(int -> int) -> int");
    check_type(t, tfun(t, ti, tfun(t, ti, ti)), true, "int -> int -> int");
    check_type(t, tfun(t, ti, type_pair(a, ti, ti)), true, "int -> (int, int)");
    check_type(t, type_seq(a, tfun(t, ti, ti)), true, "[int -> int]");

    /* variables: named by first appearance, fresh per call, links followed */
    Type *va = tvar(t, CLS_NUMBER);
    check_type(t, tfun(t, va, va), true, "a -> a :: (a in number)");
    check_type(t, tfun(t, va, va), false, "a -> a");
    Type *x = tvar(t, CLS_ANY), *y = tvar(t, CLS_ANY);
    check_type(t, tfun(t, type_pair(a, tfun(t, x, y), x), y), true,
               "(a -> b, a) -> b :: (a in any; b in any)");
    check_type(t, tfun(t, type_pair(a, tfun(t, y, x), y), x), true,
               "(a -> b, a) -> b :: (a in any; b in any)");
    Type *xs = tvar(t, CLS_ANY);
    check_type(t, tfun(t, type_pair(a, type_seq(a, tb), type_seq(a, xs)), type_seq(a, xs)), true,
               "([bool], [a]) -> [a] :: (a in any)");
    Type *o = tvar(t, CLS_ORDINAL), *l = tvar(t, CLS_LOGICAL);
    check_type(t, tfun(t, type_pair(a, o, l), l), true,
               "(a, b) -> b :: (a in ordinal; b in logical)");
    Type *bound = tvar(t, CLS_ANY);
    bound->link = type_seq(a, ti);
    check_type(t, tfun(t, bound, ti), true, "[int] -> int");
    Type *chain = tvar(t, CLS_ANY);
    chain->link = bound;
    check_type(t, type_pair(a, chain, va), true, "[int], a :: (a in number)");
    check_type(t, type_pair(a, ti, ti), true, "int, int");

    /* datatypes */
    DataDecl *cpx = arena_alloc(a, sizeof *cpx);
    cpx->name = "cpx";
    Type *tcpx = type_new(a, TY_DATA);
    tcpx->data = cpx;
    check_type(t, tcpx, true, "cpx");
    check_type(t, type_seq(a, tcpx), true, "[cpx]");
    DataDecl *tagged = arena_alloc(a, sizeof *tagged);
    tagged->name = "tagged";
    Type *tt = type_new(a, TY_DATA);
    tt->data = tagged;
    tt->args = arena_alloc(a, 2 * sizeof(Type *));
    tt->args[0] = tb;
    tt->args[1] = type_pair(a, ti, ti);
    tt->nargs = 1;
    check_type(t, tt, true, "tagged(bool)");
    tt->nargs = 2;
    check_type(t, tt, true, "tagged(bool, (int, int))");
    Type *dv = tvar(t, CLS_ANY);
    tt->args[0] = dv;
    tt->nargs = 1;
    check_type(t, tfun(t, type_pair(a, ti, dv), tt), true, "(int, a) -> tagged(a) :: (a in any)");

    /* print_type to a FILE */
    char buf[256];
    FILE *f = tmpfile();
    if (f) {
        print_type(f, tfun(t, va, va), true);
        rewind(f);
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        check_str(t, "print_type", buf, "a -> a :: (a in number)");
    }
}

int main(void)
{
    T t = { arena_new(), 0, 0 };
    test_floats(&t);
    test_values(&t);
    test_results(&t);
    test_types(&t);
    arena_free(t.a);
    printf("%d passed, %d failed\n", t.pass, t.fail);
    return t.fail == 0 ? 0 : 1;
}
