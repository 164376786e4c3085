/* value.h — runtime values of the reference interpreter, and the calling
 * convention of primitives.
 *
 * Values are small tagged unions passed by value.  Everything a value points
 * to lives in an Arena (the interpreter's heap for the current top-level form;
 * results bound to globals are deep-copied into the global arena), so nothing
 * is freed individually. */
#ifndef NESSLC_VALUE_H
#define NESSLC_VALUE_H

#include <setjmp.h>
#include "../frontend/ast.h"

typedef enum { V_INT, V_FLOAT, V_BOOL, V_CHAR, V_SEQ, V_PAIR, V_DATA, V_FUN, V_STREAM } ValueKind;

typedef struct Seq Seq;
typedef struct PairVal PairVal;
typedef struct DataVal DataVal;
typedef struct Closure Closure;

typedef struct Value {
    ValueKind kind;
    union {
        int32_t i;          /* V_INT (wrapping), V_STREAM (stream number) */
        double f;           /* V_FLOAT */
        bool b;             /* V_BOOL */
        uint8_t c;          /* V_CHAR */
        Seq *seq;           /* V_SEQ */
        PairVal *pair;      /* V_PAIR */
        DataVal *data;      /* V_DATA */
        Closure *fn;        /* V_FUN */
    };
} Value;

struct Seq { int64_t len; Value elems[]; };
struct PairVal { Value fst, snd; };
struct DataVal { DataDecl *decl; Value fields; };

/* A function value: a named function instance, a primitive, a datatype
 * constructor, or a `=>` closure with a copy of its enclosing frame. */
typedef enum { CLO_FUN, CLO_PRIM, CLO_CON, CLO_LAMBDA } ClosureKind;
struct Closure {
    ClosureKind kind;
    FunDecl *fun;       /* CLO_FUN */
    int prim;           /* CLO_PRIM */
    Type *inst;         /* CLO_PRIM: instantiated type of the primitive */
    DataDecl *con;      /* CLO_CON */
    Expr *lambda;       /* CLO_LAMBDA */
    Value *frame; int nframe;   /* CLO_LAMBDA: captured frame (copied at creation) */
};

/* ---- constructors ---- */
static inline Value v_int(int32_t i) { Value v; v.kind = V_INT; v.i = i; return v; }
static inline Value v_float(double f) { Value v; v.kind = V_FLOAT; v.f = f; return v; }
static inline Value v_bool(bool b) { Value v; v.kind = V_BOOL; v.b = b; return v; }
static inline Value v_char(uint8_t c) { Value v; v.kind = V_CHAR; v.c = c; return v; }

Seq *seq_alloc(Arena *heap, int64_t len);          /* elements uninitialised */
Value v_seq(Seq *s);
Value v_pair(Arena *heap, Value a, Value b);
Value v_string(Arena *heap, const char *s, int64_t n);   /* [char] */
Value v_data(Arena *heap, DataDecl *d, Value fields);
Value value_copy(Arena *to, Value v);              /* deep copy */
/* The "zero" of a concrete type (NESL `identity`): 0, 0.0, f, space, [], ... */
Value value_identity(Arena *heap, Type *t);
bool value_eql(Value a, Value b);                  /* NESL `eql`: deep equality */

/* ---- runtime errors ----
 * A checked error aborts the current top-level form: the interpreter prints
 * "FILE:LINE:COL: RUNTIME ERROR: message" (message worded as NESL 3.1 does,
 * NESL.md 10) and goes on with the next form. */
typedef struct RtErrorCtx {
    jmp_buf jb;
    bool active;
} RtErrorCtx;

/* ---- primitives ----
 * Primitives are listed in prims.def.  A primitive of arity k receives the k
 * top-level components of its argument tuple (arity 1: the whole argument).
 * `ty` is its instantiated, concrete function type (for type-directed
 * primitives such as identity, `@`, printing, `[] t`). */
typedef struct Interp Interp;
typedef Value (*PrimImpl)(Interp *I, Value *args, Type *ty, Span where);

#endif
