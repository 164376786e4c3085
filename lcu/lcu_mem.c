/* lcu_mem.c — the interpreter's value memory and the public value
 * constructors.
 *
 * An LArena holds small objects in chunks (bump allocation) and every block
 * larger than SMALL_MAX in its own calloc'd block, so that a large vector can
 * change hands without being copied.  The interpreter keeps a stack of
 * arenas: [0] lives as long as the LcuInterp (values made through the API
 * and results of lcu_interp_call), and each CPU function call, kernel run
 * and inline SOAC pushes one for its temporaries.  When it returns, its
 * result is adopted by the arena below — small parts copied, large blocks
 * handed over (or copied when mostly unused) — and the rest is freed, so
 * memory stays proportional to what is live on the call stack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_interp.h"

typedef struct Chunk { struct Chunk *next; size_t used, cap; _Alignas(16) unsigned char data[]; } Chunk;
typedef struct Big { struct Big *next, *prev; size_t size; _Alignas(16) unsigned char data[]; } Big;
struct LArena { Chunk *chunks; Big *bigs; size_t next_cap; };

enum { SMALL_MAX = 2048, CHUNK_FIRST = 4096, CHUNK_MAX = 256 * 1024 };

_Noreturn static void out_of_memory(void)
{
    fputs("nesslc: out of memory\n", stderr);
    exit(2);
}

LArena *larena_new(void)
{
    LArena *a = calloc(1, sizeof *a);
    if (!a) out_of_memory();
    a->next_cap = CHUNK_FIRST;
    return a;
}

void larena_free(LArena *a)
{
    if (!a) return;
    for (Chunk *c = a->chunks, *n; c; c = n) { n = c->next; free(c); }
    for (Big *b = a->bigs, *n; b; b = n) { n = b->next; free(b); }
    free(a);
}

static void big_link(LArena *a, Big *b)
{
    b->prev = NULL;
    b->next = a->bigs;
    if (a->bigs) a->bigs->prev = b;
    a->bigs = b;
}

static void big_unlink(LArena *a, Big *b)
{
    if (b->prev) b->prev->next = b->next;
    else a->bigs = b->next;
    if (b->next) b->next->prev = b->prev;
}

/* NULL when out of memory. */
void *larena_alloc(LArena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0) n = 16;
    if (n > SMALL_MAX) {
        if (n > SIZE_MAX - sizeof(Big)) return NULL;
        Big *b = calloc(1, sizeof *b + n);   /* fresh pages come zeroed, untouched */
        if (!b) return NULL;
        b->size = n;
        big_link(a, b);
        return b->data;
    }
    Chunk *c = a->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = a->next_cap;
        if (a->next_cap < CHUNK_MAX) a->next_cap *= 2;
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->used = 0;
        c->cap = cap;
        c->next = a->chunks;
        a->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

static void *xalloc(LArena *a, size_t n)
{
    void *p = larena_alloc(a, n);
    if (!p) out_of_memory();
    return p;
}

static bool in_chunks(const LArena *a, const void *p)
{
    uintptr_t q = (uintptr_t)p;
    for (const Chunk *c = a->chunks; c; c = c->next)
        if (q >= (uintptr_t)c->data && q < (uintptr_t)c->data + c->used) return true;
    return false;
}

static Big *find_big(const LArena *a, const void *p)
{
    for (Big *b = a->bigs; b; b = b->next)
        if ((const void *)b->data == p) return b;
    return NULL;
}

/* need: the bytes in use from p. */
static void *adopt_data(LArena *from, LArena *to, void *p, size_t need)
{
    Big *b = NULL;
    if (!in_chunks(from, p) && !(b = find_big(from, p))) return p;
    if (b && need > SMALL_MAX && need >= b->size / 2) {   /* hand the block over */
        big_unlink(from, b);
        big_link(to, b);
        return p;
    }
    void *q = xalloc(to, need);   /* small, or mostly unused: copy */
    memcpy(q, p, need);
    return q;
}

LcuVal *larena_adopt(LArena *from, LArena *to, LcuVal *v)
{
    if (!in_chunks(from, v)) return v;   /* LcuVals are small objects */
    LcuVal *w = xalloc(to, sizeof *w);
    *w = *v;
    switch (v->kind) {
    case LV_SCALAR: break;
    case LV_TUPLE:
        w->elems = xalloc(to, sizeof *w->elems * (size_t)(v->n ? v->n : 1));
        for (int i = 0; i < v->n; i++) w->elems[i] = larena_adopt(from, to, v->elems[i]);
        break;
    case LV_VEC: case LV_SD:
        w->data = adopt_data(from, to, v->data, sizeof *v->data * (size_t)(v->len ? v->len : 1));
        break;
    }
    return w;
}

/* ---- the interpreter's arena stack ---- */
void *li_alloc(LcuInterp *I, size_t n)
{
    void *p = larena_alloc(I->arenas[I->narenas - 1], n);
    if (!p) {
        if (I->running) li_fail(I, "out of memory (allocating %zu bytes)", n);
        out_of_memory();
    }
    return p;
}

void li_push_arena(LcuInterp *I)
{
    if (I->narenas == I->carenas) {
        I->carenas = I->carenas ? 2 * I->carenas : 64;
        I->arenas = realloc(I->arenas, sizeof *I->arenas * (size_t)I->carenas);
        if (!I->arenas) out_of_memory();
    }
    I->arenas[I->narenas++] = larena_new();
}

LcuVal *li_pop_arena(LcuInterp *I, LcuVal *v)
{
    LArena *top = I->arenas[--I->narenas];
    v = larena_adopt(top, I->arenas[I->narenas - 1], v);
    larena_free(top);
    return v;
}

/* ---- values ---- */
int lcu_val_arity(const LcuVal *v) { return v->kind == LV_TUPLE ? v->n : 1; }
LcuVal *lcu_val_comp(LcuVal *v, int i) { return v->kind == LV_TUPLE ? v->elems[i] : v; }

LcuVal *lcu_val_scalar(LcuInterp *I, LcuBase b, LcuScalar s)
{
    LcuVal *v = li_alloc(I, sizeof *v);
    v->kind = LV_SCALAR;
    v->base = b;
    v->s = s;
    return v;
}

LcuVal *lcu_val_vec(LcuInterp *I, LcuBase b, int64_t len)
{
    if (len < 0 || (uint64_t)len > SIZE_MAX / sizeof(LcuScalar) / 2) {
        if (I->running) li_fail(I, "vector length %lld is out of range", (long long)len);
        out_of_memory();
    }
    LcuVal *v = li_alloc(I, sizeof *v);
    v->kind = LV_VEC;
    v->base = b;
    v->len = len;
    v->data = li_alloc(I, sizeof *v->data * (size_t)(len ? len : 1));
    return v;
}

LcuVal *lcu_val_sd(LcuInterp *I, int64_t nsegs)
{
    LcuVal *v = lcu_val_vec(I, LB_INT, nsegs);
    v->kind = LV_SD;
    return v;
}

LcuVal *lcu_val_tuple(LcuInterp *I, int n, LcuVal **vs)
{
    int total = 0;
    for (int i = 0; i < n; i++) total += lcu_val_arity(vs[i]);
    if (total == 1) for (int i = 0; i < n; i++) if (lcu_val_arity(vs[i]) == 1) return vs[i];
    LcuVal *t = li_alloc(I, sizeof *t);
    t->kind = LV_TUPLE;
    t->n = total;
    t->elems = li_alloc(I, sizeof *t->elems * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < lcu_val_arity(vs[i]); j++) t->elems[k++] = lcu_val_comp(vs[i], j);
    return t;
}

bool li_val_has_type(const LcuVal *v, const LcuType *t)
{
    if (lcu_val_arity(v) != lcu_t_arity(t)) return false;
    for (int i = 0; i < lcu_t_arity(t); i++) {
        const LcuVal *c = v->kind == LV_TUPLE ? v->elems[i] : v;
        const LcuType *ct = lcu_t_component(t, i);
        switch (ct->kind) {
        case LT_BASE: if (c->kind != LV_SCALAR || c->base != ct->base) return false; break;
        case LT_VEC: case LT_REF: if (c->kind != LV_VEC || c->base != ct->base) return false; break;
        case LT_SD: if (c->kind != LV_SD) return false; break;
        case LT_TUPLE: return false;
        }
    }
    return true;
}
