/* scope.c — global name tables: values (functions, primitives, constructors,
 * top-level variables) and type names (datatypes).  The library's table and
 * the user's are separate so that operators always resolve in the library's. */
#include <stdlib.h>
#include "scope.h"

typedef struct Slot { Sym key; void *val; } Slot;
typedef struct Map { Slot *slots; size_t cap, len; } Map;

struct Scope { Map values, types; };

static size_t ptr_hash(const void *p) { return ((uintptr_t)p >> 4) * 11400714819323198485u; }

static void map_put(Map *m, Sym key, void *val)
{
    if (m->len * 2 >= m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        Slot *ns = calloc(ncap, sizeof *ns);
        if (!ns) ICE("out of memory");
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->slots[i].key) continue;
            size_t h = ptr_hash(m->slots[i].key) & (ncap - 1);
            while (ns[h].key) h = (h + 1) & (ncap - 1);
            ns[h] = m->slots[i];
        }
        free(m->slots);
        m->slots = ns; m->cap = ncap;
    }
    size_t h = ptr_hash(key) & (m->cap - 1);
    while (m->slots[h].key && m->slots[h].key != key) h = (h + 1) & (m->cap - 1);
    if (!m->slots[h].key) m->len++;
    m->slots[h].key = key;
    m->slots[h].val = val;
}

static void *map_get(const Map *m, Sym key)
{
    if (!m->cap) return NULL;
    size_t h = ptr_hash(key) & (m->cap - 1);
    while (m->slots[h].key) {
        if (m->slots[h].key == key) return m->slots[h].val;
        h = (h + 1) & (m->cap - 1);
    }
    return NULL;
}

Scope *scope_new(void)
{
    Scope *s = calloc(1, sizeof *s);
    if (!s) ICE("out of memory");
    return s;
}

void scope_free(Scope *s)
{
    if (!s) return;
    free(s->values.slots);
    free(s->types.slots);
    free(s);
}

void scope_put_value(Scope *s, Sym name, Entity *e) { map_put(&s->values, name, e); }
Entity *scope_get_value(const Scope *s, Sym name) { return s ? map_get(&s->values, name) : NULL; }
void scope_put_type(Scope *s, Sym name, DataDecl *d) { map_put(&s->types, name, d); }
DataDecl *scope_get_type(const Scope *s, Sym name) { return s ? map_get(&s->types, name) : NULL; }
