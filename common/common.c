/* common.c — arenas, the name interner, spans, diagnostics, file reading. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arenas */

typedef struct Chunk { struct Chunk *next; size_t used, cap; _Alignas(16) unsigned char data[]; } Chunk;
struct Arena { Chunk *head; size_t total; };

enum { CHUNK_MIN = 64 * 1024 };

Arena *arena_new(void)
{
    Arena *a = calloc(1, sizeof *a);
    if (!a) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    return a;
}

void arena_free(Arena *a)
{
    if (!a) return;
    for (Chunk *c = a->head, *n; c; c = n) { n = c->next; free(c); }
    free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        /* Grow geometrically so big programs do few mallocs. */
        size_t cap = c ? c->cap * 2 : CHUNK_MIN;
        if (cap > 64u << 20) cap = 64u << 20;
        if (cap < n) cap = n;
        Chunk *nc = malloc(sizeof *nc + cap);
        if (!nc) { fputs("nesslc: out of memory\n", stderr); exit(2); }
        nc->used = 0; nc->cap = cap; nc->next = c;
        a->head = c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

size_t arena_bytes(const Arena *a) { return a->total; }

/* A copy of every byte handed out, chunk by chunk (newest first, as linked). */
struct ArenaSnapshot { Chunk *head; size_t used, total; int nchunks; unsigned char **copies; };

ArenaSnapshot *arena_snapshot(const Arena *a)
{
    ArenaSnapshot *s = calloc(1, sizeof *s);
    if (!s) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    s->head = a->head;
    s->used = a->head ? a->head->used : 0;
    s->total = a->total;
    for (Chunk *c = a->head; c; c = c->next) s->nchunks++;
    s->copies = calloc((size_t)s->nchunks + 1, sizeof *s->copies);
    if (!s->copies) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    int i = 0;
    for (Chunk *c = a->head; c; c = c->next, i++) {
        s->copies[i] = malloc(c->used + 1);
        if (!s->copies[i]) { fputs("nesslc: out of memory\n", stderr); exit(2); }
        memcpy(s->copies[i], c->data, c->used);
    }
    return s;
}

void arena_restore(Arena *a, const ArenaSnapshot *s)
{
    while (a->head != s->head) {
        Chunk *c = a->head;
        a->head = c->next;
        free(c);
    }
    if (a->head) a->head->used = s->used;
    a->total = s->total;
    int i = 0;
    for (Chunk *c = a->head; c; c = c->next, i++) memcpy(c->data, s->copies[i], c->used);
}

void arena_snapshot_free(ArenaSnapshot *s)
{
    if (!s) return;
    for (int i = 0; i < s->nchunks; i++) free(s->copies[i]);
    free(s->copies);
    free(s);
}

void ptrvec_push(Arena *a, PtrVec *v, void *p)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = arena_alloc(a, sizeof(void *) * (size_t)cap);
        if (v->len) memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
        v->items = items; v->cap = cap;
    }
    v->items[v->len++] = p;
}

/* ---------------------------------------------------------------- name sets */

static size_t slot_of(Sym x, int cap) { return ((uintptr_t)x >> 3) * 2654435761u % (size_t)cap; }

bool nameset_has(const NameSet *s, Sym x)
{
    if (!s || !s->cap) return false;
    for (size_t i = slot_of(x, s->cap);; i = (i + 1) % (size_t)s->cap) {
        if (!s->slots[i]) return false;
        if (s->slots[i] == x) return true;
    }
}

void nameset_add(Arena *a, NameSet *s, Sym x)
{
    if (nameset_has(s, x)) return;
    if (2 * (s->len + 1) > s->cap) {
        NameSet n = { arena_alloc(a, sizeof(Sym) * (size_t)(s->cap ? 2 * s->cap : 64)), s->cap ? 2 * s->cap : 64, 0 };
        for (int i = 0; i < s->cap; i++)
            if (s->slots[i]) nameset_add(a, &n, s->slots[i]);
        *s = n;
    }
    size_t i = slot_of(x, s->cap);
    while (s->slots[i]) i = (i + 1) % (size_t)s->cap;
    s->slots[i] = x;
    s->len++;
}

/* ---------------------------------------------------------------- interner */

typedef struct Entry { struct Entry *next; size_t seq, len; char s[]; } Entry;
struct Interner { Entry **buckets; size_t nbuckets, count; };

Interner *interner_new(void)
{
    Interner *in = calloc(1, sizeof *in);
    in->nbuckets = 1024;
    in->buckets = calloc(in->nbuckets, sizeof *in->buckets);
    if (!in->buckets) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    return in;
}

void interner_free(Interner *in)
{
    if (!in) return;
    for (size_t i = 0; i < in->nbuckets; i++)
        for (Entry *e = in->buckets[i], *n; e; e = n) { n = e->next; free(e); }
    free(in->buckets);
    free(in);
}

static size_t hash_bytes(const char *s, size_t n)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

Sym intern(Interner *in, const char *s, size_t n)
{
    size_t h = hash_bytes(s, n) & (in->nbuckets - 1);
    for (Entry *e = in->buckets[h]; e; e = e->next)
        if (e->len == n && memcmp(e->s, s, n) == 0) return e->s;
    Entry *e = malloc(sizeof *e + n + 1);
    if (!e) { fputs("nesslc: out of memory\n", stderr); exit(2); }
    e->seq = in->count;
    e->len = n; memcpy(e->s, s, n); e->s[n] = 0;
    e->next = in->buckets[h]; in->buckets[h] = e;
    if (++in->count > in->nbuckets * 2) {
        /* Rehash into a table twice as large. */
        size_t nb = in->nbuckets * 2;
        Entry **b = calloc(nb, sizeof *b);
        if (!b) { fputs("nesslc: out of memory\n", stderr); exit(2); }
        for (size_t i = 0; i < in->nbuckets; i++)
            for (Entry *x = in->buckets[i], *nx; x; x = nx) {
                nx = x->next;
                size_t k = hash_bytes(x->s, x->len) & (nb - 1);
                x->next = b[k]; b[k] = x;
            }
        free(in->buckets); in->buckets = b; in->nbuckets = nb;
    }
    return e->s;
}

Sym intern_cstr(Interner *in, const char *s) { return intern(in, s, strlen(s)); }

size_t interner_mark(const Interner *in) { return in->count; }

void interner_release(Interner *in, size_t mark)
{
    if (in->count == mark) return;
    for (size_t i = 0; i < in->nbuckets; i++)
        for (Entry **pe = &in->buckets[i]; *pe;) {
            Entry *e = *pe;
            if (e->seq >= mark) { *pe = e->next; free(e); }
            else pe = &e->next;
        }
    in->count = mark;
}

/* ---------------------------------------------------------------- spans, diagnostics */

Span span_join(Span a, Span b)
{
    if (!a.src) return b;
    if (!b.src) return a;
    Span r = a;
    r.end_line = b.end_line; r.end_col = b.end_col;
    return r;
}

void diag_init(Diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->max_errors = 20;
}

/* Print the source line of `sp` and a caret line underneath (tabs kept so
 * the caret lines up in a terminal). */
static void show_source(FILE *out, Span sp)
{
    if (!sp.src || !sp.src->text || sp.line <= 0) return;
    const char *p = sp.src->text, *end = sp.src->text + sp.src->len;
    for (int l = 1; l < sp.line && p < end; p++)
        if (*p == '\n') l++;
    const char *eol = p;
    while (eol < end && *eol != '\n') eol++;
    int len = (int)(eol - p);
    fprintf(out, "%6d | %.*s\n", sp.line, len, p);
    fprintf(out, "       | ");
    int col = sp.col < 1 ? 1 : sp.col;
    for (int i = 1; i < col && i <= len; i++) fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
    int last = sp.end_line == sp.line ? sp.end_col : len;
    if (last > len) last = len;
    fputc('^', out);
    for (int i = col + 1; i <= last; i++) fputc('~', out);
    fputc('\n', out);
}

void diag_vreport(Diag *d, const char *kind, Span sp, const char *fmt, va_list ap)
{
    if (sp.src) fprintf(d->out, "%s:%d:%d: %s: ", sp.src->name, sp.line, sp.col, kind);
    else fprintf(d->out, "nesslc: %s: ", kind);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    show_source(d->out, sp);
}

void diag_error(Diag *d, Span sp, const char *fmt, ...)
{
    d->nerrors++;
    if (d->nerrors > d->max_errors) { d->suppressed = true; return; }
    va_list ap; va_start(ap, fmt);
    diag_vreport(d, "error", sp, fmt, ap);
    va_end(ap);
}

void diag_warning(Diag *d, Span sp, const char *fmt, ...)
{
    d->nwarnings++;
    va_list ap; va_start(ap, fmt);
    diag_vreport(d, "warning", sp, fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, Span sp, const char *fmt, ...)
{
    if (d->nerrors > d->max_errors) return;
    va_list ap; va_start(ap, fmt);
    diag_vreport(d, "note", sp, fmt, ap);
    va_end(ap);
}

void diag_plain(Diag *d, const char *fmt, ...)
{
    d->nerrors++;
    va_list ap; va_start(ap, fmt);
    fprintf(d->out, "nesslc: error: ");
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    va_end(ap);
}

char *read_file(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 1 >= cap) { cap *= 2; char *nb = realloc(buf, cap); if (!nb) { free(buf); fclose(f); errno = ENOMEM; return NULL; } buf = nb; }
        size_t n = fread(buf + len, 1, cap - 1 - len, f);
        len += n;
        if (n == 0) break;
    }
    if (ferror(f)) { int e = errno; free(buf); fclose(f); errno = e ? e : EIO; return NULL; }
    fclose(f);
    buf[len] = 0;
    if (len_out) *len_out = len;
    return buf;
}

_Noreturn void ice(const char *file, int line, const char *fmt, ...)
{
    va_list ap; va_start(ap, fmt);
    fprintf(stderr, "nesslc: internal compiler error at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}
