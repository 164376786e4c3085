/* frontend.h — the front end's interface: parse, check (names, types,
 * datatypes, signatures), and monomorphize NESL programs.
 *
 * A Compilation owns the arena, the name table and the diagnostics of one run.
 * The library (lib/prelude.nesl, compiled into the binary) is parsed and
 * checked into the same Compilation before the user's program, in a scope the
 * user's definitions may shadow. */
#ifndef NESSLC_FRONTEND_H
#define NESSLC_FRONTEND_H

#include "ast.h"

typedef struct Scope Scope;

typedef struct Compilation {
    Arena *arena;           /* every AST node and type of this run */
    Interner *names;
    Diag *diag;
    Program *prelude;       /* the checked library, or NULL before check_program */
    Scope *lib_scope;       /* names the library defines (operators resolve here) */
    Scope *user_scope;      /* names the user's program defines */
    int nglobals;           /* top-level variables numbered so far */
    int next_var_id;        /* fresh type variables */
} Compilation;

Compilation *compilation_new(Diag *diag);
void compilation_free(Compilation *c);

/* Parse a whole program.  Syntax errors are reported through c->diag; the
 * parser recovers at the next top-level terminator, so the result holds every
 * form that parsed.  Returns NULL only when nothing could be parsed. */
Program *parse_program(Compilation *c, const Source *src);

/* Parse a type as written in a signature (used for primitive signatures). */
TypeExpr *parse_type_text(Compilation *c, const Source *src, Context **ctx, int *nctx);

/* Resolve names and infer types in place (loads the library first).  Forms
 * with errors are marked `failed`; returns false if any error was reported. */
bool check_program(Compilation *c, Program *p);

/* One checked library, many programs (the fuzzers, tests/fuzz/): a snapshot
 * of c just after the library loaded (NULL if it fails to, or if c has
 * checked a program already), and a restore that undoes everything since:
 * the arena's bytes, the names interned, the user's scope, the counters.
 * A compilation restored this way checks a program as a fresh one would. */
typedef struct LibrarySnapshot LibrarySnapshot;
LibrarySnapshot *library_snapshot(Compilation *c);
void library_restore(Compilation *c, const LibrarySnapshot *s);
void library_snapshot_free(LibrarySnapshot *s);

/* A program whose types have no variables: every polymorphic function is
 * instantiated once per set of argument types reached from the top level.
 * Forms keep their order; `instances` lists every specialised function. */
typedef struct MonoProgram {
    Program prog;               /* top-level forms, rewritten over instances */
    FunDecl **instances; int ninstances;
    int nglobals;
} MonoProgram;
MonoProgram *monomorphize(Compilation *c, const Program *checked);

/* The library source compiled into the binary (generated from lib/). */
extern const char nesl_prelude_text[];
extern const char nesl_prelude_name[];

#endif
