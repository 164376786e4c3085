/* rt_bridge.c — the host bridge of NESL programs: the primitives that are
 * not data-parallel operations (lib nesl_ID, flatten/flatten.h), with the
 * reference interpreter's semantics and error messages (interp/prims_*.c),
 * on values converted from and back to their flat components. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_host.h"

#define MAX_ARITY 4
#define MAX_SEQ_LEN (1LL << 28)   /* the interpreter's PRIM_MAX_SEQ_LEN */

enum { STREAM_STDIN, STREAM_STDOUT, STREAM_STDERR, STREAM_NULL };

typedef struct Call {
    NeslRt *rt;
    NPool *pool;
    int32_t site;
    const NTy *arg, *res;
    const NTy *argt[MAX_ARITY];     /* types of the top-level argument components */
} Call;

typedef NV (*PrimFn)(Call *c, NV *a);

static NV status(Call *c, bool ok, const char *msg)
{
    return nv_pair(c->pool, nv_int(NT_BOOL, ok), nv_string(c->pool, msg, (int64_t)strlen(msg)));
}

/* A C string of a [char] value (in the pool). */
static char *cstring(Call *c, NV s)
{
    char *p = npool_alloc(c->pool, (size_t)s.n + 1);
    for (int64_t k = 0; k < s.n; k++) p[k] = (char)s.e[k].i;
    p[s.n] = 0;
    return p;
}

static void put_chars(FILE *f, NV s)
{
    for (int64_t k = 0; k < s.n; k++) fputc((uint8_t)s.e[k].i, f);
}

/* ---- type-directed ---- */
static NV p_identity(Call *c, NV *a)
{
    (void)a;
    NV v;
    if (!nv_identity(c->pool, c->res, &v))
        nesl_fail_at(c->rt, c->site, "Function identity: a function type has no identity value.");
    return v;
}

static NV p_eql(Call *c, NV *a) { (void)c; return nv_int(NT_BOOL, nv_eql(a[0], a[1])); }

static NV p_hash(Call *c, NV *a)
{
    if (a[1].i < 1) nesl_fail_at(c->rt, c->site, "Hash range must be positive.");
    return nv_int(NT_INT, (int32_t)(nv_hash(a[0]) % (uint64_t)a[1].i));
}

static NV p_string(Call *c, NV *a)
{
    NStr b = { 0 };
    nv_format(&b, a[0], c->arg, true, nesl_float32(c->rt), 0);
    NV r = nv_string(c->pool, b.s, (int64_t)b.len);
    free(b.s);
    return r;
}

static NV p_pad(Call *c, NV *a)
{
    int64_t w = a[1].i;
    bool left = w > 0;
    if (w < 0) w = -w;
    if (a[0].n >= w) return a[0];
    if (w > MAX_SEQ_LEN) nesl_fail_at(c->rt, c->site, "Sequence too long (%lld elements).", (long long)w);
    NV r = nv_seq(c->pool, w);
    int64_t at = left ? 0 : w - a[0].n;
    for (int64_t k = 0; k < w; k++) r.e[k] = nv_int(NT_CHAR, ' ');
    for (int64_t k = 0; k < a[0].n; k++) r.e[at + k] = a[0].e[k];
    return r;
}

static NV p_exp_string(Call *c, NV *a)
{
    int32_t d = a[1].i;
    if (d > 8) nesl_fail_at(c->rt, c->site, "exp_string: at most 8 digits after the point.");
    if (d < 0) nesl_fail_at(c->rt, c->site, "exp_string: the number of digits must not be negative.");
    char buf[64], out[64];
    snprintf(buf, sizeof buf, "%.*e", (int)d, a[0].f);
    char *e = strchr(buf, 'e');
    if (!e) return nv_string(c->pool, buf, (int64_t)strlen(buf));
    size_t o = (size_t)(e - buf);
    memcpy(out, buf, o);
    out[o++] = 'e';
    const char *p = e + 1;
    out[o++] = *p == '-' ? '-' : '+';
    if (*p == '-' || *p == '+') p++;
    while (*p == '0' && p[1] != '\0') p++;
    while (*p) out[o++] = *p++;
    return nv_string(c->pool, out, (int64_t)o);
}

/* ---- random numbers: the interpreter's splitmix64, reseeded per form ---- */
#define NESL_RNG_SEED 0x4E45534C33313121ull

static uint64_t rng_next(NeslRt *rt)
{
    uint64_t *s = nesl_rng(rt);
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static NV p_rand(Call *c, NV *a)
{
    if (a[0].kind == NT_FLOAT) {
        if (!(a[0].f > 0.0)) nesl_fail_at(c->rt, c->site, "Rand of a non-positive number.");
        double r = (double)(rng_next(c->rt) >> 34);
        return nv_float(a[0].f * r / 1073741824.0);
    }
    if (a[0].i <= 0) nesl_fail_at(c->rt, c->site, "Rand of a non-positive number.");
    uint32_t r = (uint32_t)(rng_next(c->rt) >> 33);
    return nv_int(NT_INT, (int32_t)(r % (uint32_t)a[0].i));
}

static NV p_rand_seed(Call *c, NV *a)
{
    *nesl_rng(c->rt) = NESL_RNG_SEED ^ ((uint64_t)(uint32_t)a[0].i * 0x9E3779B97F4A7C15ull);
    return nv_int(NT_BOOL, 1);
}

/* ---- output, errors, streams ---- */
static NV p_print_string(Call *c, NV *a)
{
    if (!nesl_output_quiet(c->rt)) put_chars(stdout, a[0]);
    return nv_int(NT_BOOL, 1);
}

static NV p_error(Call *c, NV *a) { nesl_fail_at(c->rt, c->site, "%s", cstring(c, a[0])); }

static NV p_make_stream(Call *c, NV *a) { (void)c; return nv_int(NT_STREAM, a[0].i); }

static NV p_write_string(Call *c, NV *a)
{
    bool quiet = nesl_output_quiet(c->rt);
    switch (a[1].i) {
    case STREAM_STDOUT: if (!quiet) put_chars(stdout, a[0]); break;
    case STREAM_STDERR:
        if (!quiet) { fflush(stdout); put_chars(stderr, a[0]); fflush(stderr); }
        break;
    case STREAM_NULL: break;
    default: return status(c, false, "write_string: stream not open for writing");
    }
    return status(c, true, "");
}

static NV p_read_char(Call *c, NV *a)
{
    if (a[0].i != STREAM_STDIN)
        return nv_pair(c->pool, nv_int(NT_CHAR, ' '), status(c, false, "read_char: stream not open for reading"));
    int ch = getchar();
    if (ch == EOF) return nv_pair(c->pool, nv_int(NT_CHAR, ' '), status(c, false, "read_char: end of file"));
    return nv_pair(c->pool, nv_int(NT_CHAR, (uint8_t)ch), status(c, true, ""));
}

static NV p_read_string(Call *c, NV *a)
{
    NV delims = a[0];
    int32_t max = a[1].i;
    if (a[2].i != STREAM_STDIN) {
        NV r = nv_pair(c->pool, nv_string(c->pool, "", 0), nv_int(NT_INT, -1));
        return nv_pair(c->pool, r, status(c, false, "read_string: stream not open for reading"));
    }
    NStr buf = { 0 };
    int why;
    for (;;) {
        if (max >= 0 && buf.len >= (size_t)max) { why = -2; break; }
        int ch = getchar();
        if (ch == EOF) { why = -1; break; }
        bool is_delim = false;
        for (int64_t k = 0; k < delims.n; k++) is_delim |= delims.e[k].i == (uint8_t)ch;
        if (is_delim) { why = ch; break; }
        nstr_putc(&buf, (char)ch);
    }
    NV text = nv_string(c->pool, buf.s ? buf.s : "", (int64_t)buf.len);
    free(buf.s);
    return nv_pair(c->pool, nv_pair(c->pool, text, nv_int(NT_INT, why)), status(c, true, ""));
}

static NV p_open_file(Call *c, NV *a)
{
    (void)a;
    return nv_pair(c->pool, nv_int(NT_STREAM, STREAM_NULL), status(c, false, "opening file streams is not supported yet"));
}

static NV p_close_file(Call *c, NV *a)
{
    return a[0].i <= STREAM_NULL ? status(c, true, "") : status(c, false, "close_file: stream not open");
}

/* The whole file, or NULL (errno set). */
static char *slurp(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) return NULL;
    NStr b = { 0 };
    char buf[8192];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) nstr_put(&b, buf, r);
    fclose(f);
    *len = b.len;
    return b.s ? b.s : calloc(1, 1);
}

static NV p_read_file(Call *c, NV *a)
{
    const char *name = cstring(c, a[0]);
    size_t len;
    char *text = slurp(name, &len);
    if (!text) nesl_fail_at(c->rt, c->site, "Could not open file %s: %s.", name, strerror(errno));
    NV r = nv_string(c->pool, text, (int64_t)len);
    free(text);
    return r;
}

static NV p_write_file(Call *c, NV *a)
{
    const char *name = cstring(c, a[1]);
    FILE *f = fopen(name, a[2].i ? "ab" : "wb");
    if (!f) nesl_fail_at(c->rt, c->site, "Could not open file %s: %s.", name, strerror(errno));
    put_chars(f, a[0]);
    if (fclose(f) != 0) nesl_fail_at(c->rt, c->site, "Could not write file %s: %s.", name, strerror(errno));
    return nv_int(NT_BOOL, 1);
}

static NV read_num_seq(Call *c, NV fname, bool floats)
{
    const char *name = cstring(c, fname);
    size_t len;
    char *text = slurp(name, &len);
    if (!text) nesl_fail_at(c->rt, c->site, "Could not open file %s: %s.", name, strerror(errno));
    int64_t n = 0, cap = 1024;
    NV *vals = malloc((size_t)cap * sizeof *vals);
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '(' || *p == ')') p++;
        if (!*p) break;
        char *end;
        NV v = floats ? nv_float(strtod(p, &end)) : nv_int(NT_INT, (int32_t)(uint32_t)(unsigned long long)strtoll(p, &end, 10));
        if (end == p) {
            free(vals);
            free(text);
            nesl_fail_at(c->rt, c->site, "Bad number in file %s.", name);
        }
        p = end;
        if (n == cap && !(vals = realloc(vals, (size_t)(cap *= 2) * sizeof *vals))) nesl_fail(c->rt, "out of memory");
        vals[n++] = v;
    }
    NV s = nv_seq(c->pool, n);
    if (n) memcpy(s.e, vals, (size_t)n * sizeof *vals);
    free(vals);
    free(text);
    return s;
}

static NV p_read_int_seq(Call *c, NV *a) { return read_num_seq(c, a[0], false); }
static NV p_read_float_seq(Call *c, NV *a) { return read_num_seq(c, a[0], true); }

static NV p_getenv(Call *c, NV *a)
{
    const char *v = getenv(cstring(c, a[0]));
    return nv_string(c->pool, v ? v : "", v ? (int64_t)strlen(v) : 0);
}

static NV p_shell_command(Call *c, NV *a)
{
    (void)a;
    nesl_fail_at(c->rt, c->site, "shell_command: not supported yet.");
}

/* ---- prim_parse_object (interp/prims_parse.c) ---- */
typedef struct Reader { Call *c; const char *p; bool ok; } Reader;

static void skip_blanks(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r') r->p++;
}

static bool expect(Reader *r, char ch)
{
    skip_blanks(r);
    if (*r->p != ch) return r->ok = false;
    r->p++;
    return true;
}

static NV parse_value(Reader *r, const NTy *t);

static NV parse_tuple_body(Reader *r, const NTy *t)
{
    if (t->kind != NT_PAIR) return parse_value(r, t);
    NV a = parse_value(r, t->a);
    if (!r->ok || !expect(r, ',')) return a;
    NV b = parse_tuple_body(r, t->b);
    return nv_pair(r->c->pool, a, b);
}

static NV parse_seq(Reader *r, const NTy *elem)
{
    skip_blanks(r);
    int64_t n = 0, cap = 16;
    NV *tmp = malloc((size_t)cap * sizeof *tmp);
    if (*r->p == '"' && elem->kind == NT_CHAR) {
        for (r->p++; *r->p && *r->p != '"'; r->p++) {
            if (*r->p == '\\' && r->p[1]) r->p++;
            if (n == cap && !(tmp = realloc(tmp, (size_t)(cap *= 2) * sizeof *tmp))) nesl_fail(r->c->rt, "out of memory");
            tmp[n++] = nv_int(NT_CHAR, (uint8_t)*r->p);
        }
        r->ok = r->ok && expect(r, '"');
    } else if (expect(r, '[')) {
        skip_blanks(r);
        if (*r->p == ']') {
            r->p++;
        } else {
            for (;;) {
                NV v = parse_value(r, elem);
                if (!r->ok) break;
                if (n == cap && !(tmp = realloc(tmp, (size_t)(cap *= 2) * sizeof *tmp))) nesl_fail(r->c->rt, "out of memory");
                tmp[n++] = v;
                skip_blanks(r);
                if (*r->p == ',') { r->p++; continue; }
                r->ok = expect(r, ']');
                break;
            }
        }
    }
    NV s = nv_seq(r->c->pool, n);
    if (n) memcpy(s.e, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    return s;
}

static NV ident_or_zero(Reader *r, const NTy *t)
{
    NV v;
    nv_identity(r->c->pool, t, &v);
    return v;
}

static NV parse_value(Reader *r, const NTy *t)
{
    skip_blanks(r);
    char *end;
    switch (t->kind) {
    case NT_INT: {
        long long x = strtoll(r->p, &end, 10);
        if (end == r->p) r->ok = false;
        r->p = end;
        return nv_int(NT_INT, (int32_t)(uint32_t)(unsigned long long)x);
    }
    case NT_FLOAT: {
        double x = strtod(r->p, &end);
        if (end == r->p) r->ok = false;
        r->p = end;
        return nv_float(x);
    }
    case NT_BOOL: {
        char ch = *r->p;
        if (ch == 't' || ch == 'T') { r->p++; return nv_int(NT_BOOL, 1); }
        if (ch == 'f' || ch == 'F') { r->p++; return nv_int(NT_BOOL, 0); }
        r->ok = false;
        return nv_int(NT_BOOL, 0);
    }
    case NT_CHAR:
        if (r->p[0] != '`' || r->p[1] == '\0') { r->ok = false; return nv_int(NT_CHAR, ' '); }
        r->p += 2;
        return nv_int(NT_CHAR, (uint8_t)r->p[-1]);
    case NT_SEQ: return parse_seq(r, t->a);
    case NT_PAIR: {
        if (!expect(r, '(')) return ident_or_zero(r, t);
        NV v = parse_tuple_body(r, t);
        if (r->ok) expect(r, ')');
        return v;
    }
    case NT_DATA: case NT_STREAM: case NT_FUN: case NT_ANYFUN: break;
    }
    r->ok = false;
    return ident_or_zero(r, t);
}

static NV p_parse_object(Call *c, NV *a)
{
    Reader r = { c, cstring(c, a[1]), true };
    NV v = parse_value(&r, c->argt[0]);
    skip_blanks(&r);
    if (*r.p) r.ok = false;
    if (!r.ok) v = a[0];
    return nv_pair(c->pool, v, nv_int(NT_BOOL, r.ok));
}

/* ---- dispatch ---- */
static const struct { const char *name; int arity; PrimFn fn; } prims[] = {
    { "nesl_identity", 1, p_identity }, { "nesl_elt_identity", 1, p_identity },
    { "nesl_eql", 2, p_eql }, { "nesl_hash", 2, p_hash }, { "nesl_string", 1, p_string },
    { "nesl_pad", 2, p_pad }, { "nesl_exp_string", 2, p_exp_string },
    { "nesl_rand", 1, p_rand }, { "nesl_rand_seed", 1, p_rand_seed },
    { "nesl_print_string", 1, p_print_string }, { "nesl_error", 1, p_error },
    { "nesl_make_stream", 1, p_make_stream }, { "nesl_write_string", 2, p_write_string },
    { "nesl_read_char", 1, p_read_char }, { "nesl_read_string", 3, p_read_string },
    { "nesl_open_file", 2, p_open_file }, { "nesl_close_file", 1, p_close_file },
    { "nesl_read_file", 1, p_read_file }, { "nesl_write_file", 3, p_write_file },
    { "nesl_read_int_seq", 1, p_read_int_seq }, { "nesl_read_float_seq", 1, p_read_float_seq },
    { "nesl_parse_object", 2, p_parse_object }, { "nesl_getenv", 1, p_getenv },
    { "nesl_shell_command", 2, p_shell_command },
};

static NV apply(Call *c, PrimFn fn, int arity, NV arg)
{
    NV a[MAX_ARITY];
    for (int j = 0; j < arity - 1; j++) {
        a[j] = arg.e[0];
        arg = arg.e[1];
    }
    a[arity - 1] = arg;
    return fn(c, a);
}

void nesl_bridge(NeslRt *rt, const char *prim, const char *desc, int32_t site, int64_t n,
                 int nargs, const NeslComp *args, int nres, NeslComp *res)
{
    PrimFn fn = NULL;
    int arity = 0;
    for (size_t k = 0; k < sizeof prims / sizeof prims[0] && !fn; k++)
        if (!strcmp(prims[k].name, prim)) { fn = prims[k].fn; arity = prims[k].arity; }
    if (!fn) nesl_fail_at(rt, site, "library function %s is not supported yet (C backend)", prim);
    NPool pool = { 0 };
    Call c = { rt, &pool, site, NULL, NULL, { 0 } };
    const char *d = desc;
    c.arg = nty_parse(&pool, &d);
    c.res = nty_parse(&pool, &d);
    const NTy *t = c.arg;
    for (int j = 0; j < arity - 1; j++) { c.argt[j] = t->a; t = t->b; }
    c.argt[arity - 1] = t;
    bool lifted = n >= 0;
    NRead r = { rt, &pool, args, nargs, 0, nargs - nty_arity(c.arg, lifted) };
    NWrite w = { rt, &pool, NULL, 0, 0 };
    if (!lifted) {
        nv_to_u(&w, apply(&c, fn, arity, nv_from_u(&r, c.arg)), c.res);
    } else {
        NV *as = npool_alloc(&pool, sizeof(NV) * (size_t)(n > 0 ? n : 1));
        NV *rs = npool_alloc(&pool, sizeof(NV) * (size_t)(n > 0 ? n : 1));
        nv_from_l(&r, c.arg, n, as);
        for (int64_t i = 0; i < n; i++) rs[i] = apply(&c, fn, arity, as[i]);
        nv_to_l(&w, rs, n, c.res);
    }
    fflush(stdout);
    /* a result without components travels as a unit (or [unit]) stand-in */
    if (w.n == 0 && nres == 1) {
        if (lifted) res[0].p = nesl_vec_zero(rt, NESL_UNIT, n);
        else res[0].i = 0;
    } else if (w.n != nres) {
        nesl_fail_at(rt, site, "value bridge: %d result components for %d (internal)", w.n, nres);
    } else {
        memcpy(res, w.c, sizeof *res * (size_t)nres);
    }
    npool_free(&pool);
}
