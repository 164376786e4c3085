/* rt_value.c — NESL values of descriptor types (nesl_host.h): parsing
 * descriptors, converting between flat components and boxed values (the
 * layout table of flatten.h, the value bridge of interp/run_flat.c), and the
 * type-directed operations identity, eql and hash of the interpreter. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "nesl_host.h"

/* ------------------------------------------------------------------ memory */
struct NChunk { struct NChunk *next; size_t used, cap; _Alignas(16) char data[]; };

void *npool_alloc(NPool *p, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    struct NChunk *c = p->chunks;
    if (!c || c->used + bytes > c->cap) {
        size_t cap = bytes > 65536 ? bytes : 65536;
        c = malloc(sizeof *c + cap);
        if (!c) { fputs("RUNTIME ERROR: out of memory\n", stderr); exit(1); }
        c->next = p->chunks;
        c->used = 0;
        c->cap = cap;
        p->chunks = c;
    }
    void *r = c->data + c->used;
    c->used += bytes;
    return r;
}

void npool_free(NPool *p)
{
    while (p->chunks) {
        struct NChunk *c = p->chunks;
        p->chunks = c->next;
        free(c);
    }
}

void nstr_put(NStr *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1) cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) { fputs("RUNTIME ERROR: out of memory\n", stderr); exit(1); }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void nstr_putc(NStr *b, char c) { nstr_put(b, &c, 1); }
void nstr_puts(NStr *b, const char *s) { nstr_put(b, s, strlen(s)); }

void nstr_printf(NStr *b, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    nstr_put(b, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* ------------------------------------------------------------------ descriptors */
static _Noreturn void bad_desc(const char *d)
{
    fprintf(stderr, "RUNTIME ERROR: bad value descriptor at '%s' (internal)\n", d);
    exit(3);
}

const NTy *nty_parse(NPool *p, const char **desc)
{
    const char *d = *desc;
    NTy *t = npool_alloc(p, sizeof *t);
    memset(t, 0, sizeof *t);
    switch (*d++) {
    case 'i': t->kind = NT_INT; break;
    case 'f': t->kind = NT_FLOAT; break;
    case 'b': t->kind = NT_BOOL; break;
    case 'c': t->kind = NT_CHAR; break;
    case 's': t->kind = NT_STREAM; break;
    case '?': t->kind = NT_ANYFUN; break;
    case '[': t->kind = NT_SEQ; t->a = nty_parse(p, &d); break;
    case '(': t->kind = NT_PAIR; t->a = nty_parse(p, &d); t->b = nty_parse(p, &d); break;
    case 'D': {
        const char *semi = strchr(d, ';');
        if (!semi) bad_desc(d);
        t->kind = NT_DATA;
        t->name = d;
        t->nname = (int)(semi - d);
        d = semi + 1;
        t->a = nty_parse(p, &d);
        break;
    }
    case 'F': {
        char *end;
        long n = strtol(d, &end, 10);
        if (*end != ';' || n < 0) bad_desc(d);
        d = end + 1;
        t->kind = NT_FUN;
        t->ncaps = (int)n;
        t->caps = npool_alloc(p, sizeof *t->caps * (size_t)(n + 1));
        for (long k = 0; k < n; k++) t->caps[k] = nty_parse(p, &d);
        break;
    }
    default: bad_desc(d - 1);
    }
    *desc = d;
    return t;
}

int nty_arity(const NTy *t, bool lifted)
{
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM: return 1;
    case NT_SEQ: return (lifted ? 1 : 0) + nty_arity(t->a, true);
    case NT_PAIR: return nty_arity(t->a, lifted) + nty_arity(t->b, lifted);
    case NT_DATA: return nty_arity(t->a, lifted);
    case NT_FUN: {
        int n = 0;
        for (int k = 0; k < t->ncaps; k++) n += nty_arity(t->caps[k], lifted);
        return n;
    }
    case NT_ANYFUN: return 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ constructors */
NV nv_int(NtKind k, int32_t i) { NV v = { 0 }; v.kind = k; v.i = i; return v; }
NV nv_float(double f) { NV v = { 0 }; v.kind = NT_FLOAT; v.f = f; return v; }

NV nv_seq(NPool *p, int64_t n)
{
    NV v = { 0 };
    v.kind = NT_SEQ;
    v.n = n;
    v.e = npool_alloc(p, sizeof(NV) * (size_t)(n > 0 ? n : 1));
    return v;
}

NV nv_pair(NPool *p, NV a, NV b)
{
    NV v = { 0 };
    v.kind = NT_PAIR;
    v.e = npool_alloc(p, sizeof(NV) * 2);
    v.e[0] = a;
    v.e[1] = b;
    return v;
}

NV nv_string(NPool *p, const char *s, int64_t n)
{
    NV v = nv_seq(p, n);
    for (int64_t k = 0; k < n; k++) v.e[k] = nv_int(NT_CHAR, (uint8_t)s[k]);
    return v;
}

static NV nv_box1(NPool *p, NtKind k, NV inner)
{
    NV v = { 0 };
    v.kind = k;
    v.e = npool_alloc(p, sizeof(NV));
    v.e[0] = inner;
    return v;
}

/* ------------------------------------------------------------------ flat -> boxed */
static const NeslComp *next(NRead *r)
{
    if (r->k >= r->n) { fputs("RUNTIME ERROR: value bridge: too few flat components (internal)\n", stderr); exit(3); }
    return &r->c[r->k++];
}

static NV scalar_of(NtKind k, const NeslComp *c)
{
    return k == NT_FLOAT ? nv_float(c->f) : nv_int(k, k == NT_BOOL ? c->i != 0 : (int32_t)c->i);
}

static NV anyfun(NRead *r)
{
    NV v = { 0 };
    v.kind = NT_ANYFUN;
    v.n = r->unknown;
    v.raw = npool_alloc(r->pool, sizeof(NeslComp) * (size_t)(r->unknown + 1));
    for (int k = 0; k < r->unknown; k++) v.raw[k] = *next(r);
    r->unknown = 0;
    return v;
}

NV nv_from_u(NRead *r, const NTy *t)
{
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM:
        return scalar_of(t->kind, next(r));
    case NT_SEQ: {
        if (r->k >= r->n) next(r);
        const NeslObj *first = r->c[r->k].p;   /* L(elem) starts with a vector or an sd */
        int64_t count = first->kind == NESL_OBJ_SD ? ((const NeslSd *)first)->nsegs : ((const NeslVec *)first)->len;
        NV s = nv_seq(r->pool, count);
        nv_from_l(r, t->a, count, s.e);
        return s;
    }
    case NT_PAIR: {
        NV a = nv_from_u(r, t->a);
        NV b = nv_from_u(r, t->b);
        return nv_pair(r->pool, a, b);
    }
    case NT_DATA: return nv_box1(r->pool, NT_DATA, nv_from_u(r, t->a));
    case NT_FUN: {
        NV f = { 0 };
        f.kind = NT_FUN;
        f.n = t->ncaps;
        f.e = npool_alloc(r->pool, sizeof(NV) * (size_t)(t->ncaps + 1));
        for (int k = 0; k < t->ncaps; k++) f.e[k] = nv_from_u(r, t->caps[k]);
        return f;
    }
    case NT_ANYFUN: return anyfun(r);
    }
    return nv_int(NT_INT, 0);
}

static NV *tmp_nvs(NRead *r, int64_t n) { return npool_alloc(r->pool, sizeof(NV) * (size_t)(n > 0 ? n : 1)); }

void nv_from_l(NRead *r, const NTy *t, int64_t n, NV *out)
{
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM: {
        const NeslVec *v = next(r)->p;
        const void *d = nesl_vec_host(r->rt, v);
        for (int64_t i = 0; i < n; i++)
            switch (t->kind) {
            case NT_FLOAT:   /* -ffloat32: a float vector */
                out[i] = nv_float(v->base == NESL_F32 ? ((const float *)d)[i] : ((const double *)d)[i]);
                break;
            case NT_BOOL: out[i] = nv_int(NT_BOOL, ((const bool *)d)[i]); break;
            case NT_CHAR: out[i] = nv_int(NT_CHAR, ((const uint8_t *)d)[i]); break;
            default: out[i] = nv_int(t->kind, ((const int32_t *)d)[i]); break;
            }
        return;
    }
    case NT_SEQ: {
        const NeslSd *sd = next(r)->p;
        const int32_t *lens = nesl_sd_host_lens(r->rt, sd);
        int64_t total = 0;
        for (int64_t i = 0; i < n; i++) total += lens[i];
        NV *all = tmp_nvs(r, total);
        nv_from_l(r, t->a, total, all);
        for (int64_t i = 0, k = 0; i < n; k += lens[i], i++) {
            out[i].kind = NT_SEQ;
            out[i].n = lens[i];
            out[i].e = all + k;
        }
        return;
    }
    case NT_PAIR: {
        NV *a = tmp_nvs(r, n), *b = tmp_nvs(r, n);
        nv_from_l(r, t->a, n, a);
        nv_from_l(r, t->b, n, b);
        for (int64_t i = 0; i < n; i++) out[i] = nv_pair(r->pool, a[i], b[i]);
        return;
    }
    case NT_DATA: {
        NV *f = tmp_nvs(r, n);
        nv_from_l(r, t->a, n, f);
        for (int64_t i = 0; i < n; i++) out[i] = nv_box1(r->pool, NT_DATA, f[i]);
        return;
    }
    case NT_FUN: {
        NV **cols = npool_alloc(r->pool, sizeof *cols * (size_t)(t->ncaps + 1));
        for (int c = 0; c < t->ncaps; c++) {
            cols[c] = tmp_nvs(r, n);
            nv_from_l(r, t->caps[c], n, cols[c]);
        }
        for (int64_t i = 0; i < n; i++) {
            out[i].kind = NT_FUN;
            out[i].n = t->ncaps;
            out[i].e = tmp_nvs(r, t->ncaps);
            for (int c = 0; c < t->ncaps; c++) out[i].e[c] = cols[c][i];
        }
        return;
    }
    case NT_ANYFUN: {
        NV f = anyfun(r);
        for (int64_t i = 0; i < n; i++) out[i] = f;
        return;
    }
    }
}

/* ------------------------------------------------------------------ boxed -> flat */
static void put(NWrite *w, NeslComp c)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        NeslComp *nc = npool_alloc(w->pool, sizeof *nc * (size_t)w->cap);
        if (w->n) memcpy(nc, w->c, sizeof *nc * (size_t)w->n);
        w->c = nc;
    }
    w->c[w->n++] = c;
}

static NeslComp scalar_comp(NeslRt *rt, NV v)
{
    NeslComp c;
    if (v.kind == NT_FLOAT) c.f = nesl_float32(rt) ? (double)(float)v.f : v.f;   /* -ffloat32: rounded once */
    else c.i = v.i;
    return c;
}

void nv_to_u(NWrite *w, NV v, const NTy *t)
{
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM: put(w, scalar_comp(w->rt, v)); return;
    case NT_SEQ: nv_to_l(w, v.e, v.n, t->a); return;
    case NT_PAIR: nv_to_u(w, v.e[0], t->a); nv_to_u(w, v.e[1], t->b); return;
    case NT_DATA: nv_to_u(w, v.e[0], t->a); return;
    case NT_FUN:
        for (int k = 0; k < t->ncaps; k++) nv_to_u(w, v.e[k], t->caps[k]);
        return;
    case NT_ANYFUN:
        for (int64_t k = 0; k < v.n; k++) put(w, v.raw[k]);
        return;
    }
}

static NeslBase base_of(NtKind k, bool f32)
{
    if (k == NT_FLOAT) return f32 ? NESL_F32 : NESL_FLOAT;
    return k == NT_BOOL ? NESL_BOOL : k == NT_CHAR ? NESL_CHAR : NESL_INT;
}

void nv_to_l(NWrite *w, const NV *vs, int64_t n, const NTy *t)
{
    NeslComp c;
    switch (t->kind) {
    case NT_INT: case NT_FLOAT: case NT_BOOL: case NT_CHAR: case NT_STREAM: {
        bool f32 = nesl_float32(w->rt);   /* float vectors are float32: results rounded once */
        size_t sz = t->kind == NT_FLOAT ? (f32 ? sizeof(float) : sizeof(double))
                  : t->kind == NT_INT || t->kind == NT_STREAM ? sizeof(int32_t) : t->kind == NT_BOOL ? sizeof(bool) : 1;
        char *d = malloc(sz * (size_t)(n > 0 ? n : 1));
        if (!d) nesl_fail(w->rt, "out of memory");
        for (int64_t i = 0; i < n; i++)
            switch (t->kind) {
            case NT_FLOAT:
                if (f32) ((float *)d)[i] = (float)vs[i].f;
                else ((double *)d)[i] = vs[i].f;
                break;
            case NT_BOOL: ((bool *)d)[i] = vs[i].i != 0; break;
            case NT_CHAR: ((uint8_t *)d)[i] = (uint8_t)vs[i].i; break;
            default: ((int32_t *)d)[i] = vs[i].i; break;
            }
        c.p = nesl_vec_from_host(w->rt, base_of(t->kind, f32), n, d);
        free(d);
        put(w, c);
        return;
    }
    case NT_SEQ: {
        int32_t *lens = malloc(sizeof *lens * (size_t)(n > 0 ? n : 1));
        if (!lens) nesl_fail(w->rt, "out of memory");
        int64_t total = 0;
        for (int64_t i = 0; i < n; i++) total += lens[i] = (int32_t)vs[i].n;
        NeslVec *lv = nesl_vec_from_host(w->rt, NESL_INT, n, lens);
        free(lens);
        c.p = nesl_make_sd(w->rt, lv);
        put(w, c);
        NV *all = npool_alloc(w->pool, sizeof(NV) * (size_t)(total > 0 ? total : 1));
        for (int64_t i = 0, k = 0; i < n; k += vs[i].n, i++)
            if (vs[i].n) memcpy(all + k, vs[i].e, sizeof(NV) * (size_t)vs[i].n);
        nv_to_l(w, all, total, t->a);
        return;
    }
    case NT_PAIR: case NT_DATA: case NT_FUN: {
        int parts = t->kind == NT_PAIR ? 2 : t->kind == NT_DATA ? 1 : t->ncaps;
        NV *col = npool_alloc(w->pool, sizeof(NV) * (size_t)(n > 0 ? n : 1));
        for (int p = 0; p < parts; p++) {
            for (int64_t i = 0; i < n; i++) col[i] = vs[i].e[p];
            nv_to_l(w, col, n, t->kind == NT_PAIR ? (p ? t->b : t->a) : t->kind == NT_DATA ? t->a : t->caps[p]);
        }
        return;
    }
    case NT_ANYFUN:
        if (n > 0) for (int64_t k = 0; k < vs[0].n; k++) put(w, vs[0].raw[k]);
        return;
    }
}

/* ------------------------------------------------------------------ identity, eql, hash */
bool nv_identity(NPool *p, const NTy *t, NV *out)
{
    switch (t->kind) {
    case NT_INT: *out = nv_int(NT_INT, 0); return true;
    case NT_FLOAT: *out = nv_float(0.0); return true;
    case NT_BOOL: *out = nv_int(NT_BOOL, 0); return true;
    case NT_CHAR: *out = nv_int(NT_CHAR, ' '); return true;
    case NT_STREAM: *out = nv_int(NT_STREAM, 3); return true;   /* nullstr */
    case NT_SEQ: *out = nv_seq(p, 0); return true;
    case NT_PAIR: {
        NV a, b;
        bool ok = nv_identity(p, t->a, &a);
        ok = nv_identity(p, t->b, &b) && ok;
        *out = nv_pair(p, a, b);
        return ok;
    }
    case NT_DATA: {
        NV f;
        bool ok = nv_identity(p, t->a, &f);
        *out = nv_box1(p, NT_DATA, f);
        return ok;
    }
    case NT_FUN: case NT_ANYFUN: break;
    }
    *out = nv_int(NT_INT, 0);
    return false;
}

bool nv_eql(NV a, NV b)
{
    if (a.kind == NT_ANYFUN) a.kind = NT_FUN;
    if (b.kind == NT_ANYFUN) b.kind = NT_FUN;
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case NT_INT: case NT_STREAM: case NT_BOOL: case NT_CHAR: return a.i == b.i;
    case NT_FLOAT: return a.f == b.f;
    case NT_SEQ:
        if (a.n != b.n) return false;
        for (int64_t k = 0; k < a.n; k++)
            if (!nv_eql(a.e[k], b.e[k])) return false;
        return true;
    case NT_PAIR: return nv_eql(a.e[0], b.e[0]) && nv_eql(a.e[1], b.e[1]);
    case NT_DATA: return nv_eql(a.e[0], b.e[0]);
    case NT_FUN: case NT_ANYFUN: return true;   /* NESL.md 4.5 */
    }
    return false;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 33);
}

/* The interpreter's hash (interp/prims_any.c): eql values hash equally. */
uint64_t nv_hash(NV v)
{
    switch (v.kind) {
    case NT_INT: case NT_STREAM: return mix(1, (uint32_t)v.i);
    case NT_FLOAT: {
        double f = v.f == 0.0 ? 0.0 : v.f;
        uint64_t bits;
        memcpy(&bits, &f, sizeof bits);
        return mix(2, bits);
    }
    case NT_BOOL: return mix(3, (uint64_t)(v.i != 0));
    case NT_CHAR: return mix(4, (uint8_t)v.i);
    case NT_SEQ: {
        uint64_t h = mix(5, (uint64_t)v.n);
        for (int64_t k = 0; k < v.n; k++) h = mix(h, nv_hash(v.e[k]));
        return h;
    }
    case NT_PAIR: return mix(mix(6, nv_hash(v.e[0])), nv_hash(v.e[1]));
    case NT_DATA: return mix(7, nv_hash(v.e[0]));
    case NT_FUN: case NT_ANYFUN: return 8;
    }
    return 0;
}
