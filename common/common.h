/* common.h — arenas, interned names and diagnostics shared by every phase.
 *
 * No phase keeps global state: everything a compilation needs hangs off the
 * Arena / Interner / Diag values that the driver creates and passes down. */
#ifndef NESSLC_COMMON_H
#define NESSLC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- arenas: IR memory, freed all at once ---- */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);            /* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
size_t arena_bytes(const Arena *a);               /* bytes handed out so far */
/* Snapshots (the fuzzers compile many programs against one checked library):
 * arena_restore frees what was allocated after the snapshot and copies every
 * byte handed out before it back, undoing any later writes to it. */
typedef struct ArenaSnapshot ArenaSnapshot;
ArenaSnapshot *arena_snapshot(const Arena *a);
void arena_restore(Arena *a, const ArenaSnapshot *s);
void arena_snapshot_free(ArenaSnapshot *s);

/* Growable array of pointers in an arena (used by parser and checker). */
typedef struct PtrVec { void **items; int len, cap; } PtrVec;
void ptrvec_push(Arena *a, PtrVec *v, void *p);

/* ---- interned names: case already folded by the lexer; compare by pointer ---- */
typedef const char *Sym;
typedef struct Interner Interner;
Interner *interner_new(void);
void interner_free(Interner *in);
Sym intern(Interner *in, const char *s, size_t n);
Sym intern_cstr(Interner *in, const char *s);
/* Forget every name interned after the mark (its Syms become dangling). */
size_t interner_mark(const Interner *in);
void interner_release(Interner *in, size_t mark);

/* A set of interned names in an arena (open addressing on the pointer). */
typedef struct NameSet { Sym *slots; int cap, len; } NameSet;
bool nameset_has(const NameSet *s, Sym x);
void nameset_add(Arena *a, NameSet *s, Sym x);

/* ---- sources and spans ---- */
typedef struct Source {
    const char *name;   /* file name as given on the command line, or "<prelude>" */
    const char *text;   /* NUL-terminated contents */
    size_t len;
} Source;

typedef struct Span {
    const Source *src;
    int line, col;          /* 1-based, first character */
    int end_line, end_col;  /* 1-based, last character (inclusive) */
} Span;

Span span_join(Span a, Span b);

/* ---- diagnostics in GCC style: file:line:col: error: message, source line, caret ---- */
typedef struct Diag {
    FILE *out;
    int nerrors, nwarnings;
    int max_errors;      /* stop reporting (not checking) after this many; 0 = 20 */
    bool suppressed;     /* an error was dropped because of max_errors */
} Diag;

void diag_init(Diag *d, FILE *out);
void diag_error(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_vreport(Diag *d, const char *kind, Span sp, const char *fmt, va_list ap);
/* Error with no position (command line, I/O). */
void diag_plain(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a whole file; NULL and errno set on failure. */
char *read_file(const char *path, size_t *len_out);

/* Fatal internal error: a bug in nesslc, never a user error. */
_Noreturn void ice(const char *file, int line, const char *fmt, ...);
#define ICE(...) ice(__FILE__, __LINE__, __VA_ARGS__)

#endif
