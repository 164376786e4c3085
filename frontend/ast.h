/* ast.h — the NESL abstract syntax tree, its types, and the typed/monomorphic
 * annotations that the checker and monomorphizer add in place.
 *
 * One tree serves three phases:
 *   parse  : nodes with spans, names as interned Syms, no types;
 *   check  : every Expr gets `type`, every EX_VAR gets `ref` (what it names);
 *   mono   : a fresh tree whose types contain no TY_VAR and whose EX_VAR refs
 *            point at specialised FunDecl instances.
 * All nodes live in one Arena per compilation. */
#ifndef NESSLC_AST_H
#define NESSLC_AST_H

#include "../common/common.h"

typedef struct Type Type;
typedef struct TypeExpr TypeExpr;
typedef struct Expr Expr;
typedef struct Pattern Pattern;
typedef struct FunDecl FunDecl;
typedef struct DataDecl DataDecl;
typedef struct TopForm TopForm;
typedef struct Binder Binder;

/* ------------------------------------------------------------------ types */

/* Class bounds of type variables (NESL.md 4.2).  Ordered so that
 * number ⊂ ordinal ⊂ any and logical ⊂ any. */
typedef enum { CLS_ANY, CLS_ORDINAL, CLS_NUMBER, CLS_LOGICAL } TypeClass;

/* What a function identity denotes (TY_FUNID). */
typedef enum {
    FID_NONE,       /* a fresh identity no value has (unconstrained) */
    FID_FUN,        /* FunDecl* */
    FID_LAMBDA,     /* Expr* of kind EX_LAMBDA */
    FID_CON,        /* DataDecl*: a datatype constructor */
    FID_PRIM,       /* const PrimInfo* */
} FunIdKind;

typedef enum {
    TY_INT, TY_FLOAT, TY_BOOL, TY_CHAR,
    TY_STREAM,      /* opaque I/O stream (NESL.md 6.20) */
    TY_SEQ,         /* [elem] */
    TY_PAIR,        /* (fst, snd); tuples are right-nested pairs */
    TY_DATA,        /* datatype instance: data + args */
    TY_FUN,         /* arg -> res, with a function identity `ident` (NESL.md 4.5) */
    TY_FUNID,       /* the identity of one particular function value */
    TY_VAR,         /* unification variable; `link` set once bound */
} TypeKind;

struct Type {
    TypeKind kind;
    Type *elem;                 /* TY_SEQ */
    Type *fst, *snd;            /* TY_PAIR */
    Type *arg, *res, *ident;    /* TY_FUN: ident is TY_FUNID or TY_VAR */
    DataDecl *data;             /* TY_DATA */
    Type **args; int nargs;     /* TY_DATA: one per context entry */
    const void *funid;          /* TY_FUNID: the FunDecl* or lambda Expr* it denotes */
    FunIdKind funid_kind;       /* TY_FUNID: what funid points to */
    Type *link;                 /* TY_VAR: bound to this type, or NULL */
    int var_id;                 /* TY_VAR: unique id, for printing and generalisation */
    TypeClass cls;              /* TY_VAR: bound */
    int level;                  /* TY_VAR: let-level for generalisation */
};

/* Type syntax as written in signatures, datatypes and `[] t`. */
typedef enum { TE_INT, TE_FLOAT, TE_BOOL, TE_CHAR, TE_NAME, TE_SEQ, TE_PAIR, TE_FUN } TypeExprKind;
struct TypeExpr {
    TypeExprKind kind;
    Span span;
    Sym name;                   /* TE_NAME: type variable or datatype name */
    TypeExpr **args; int nargs; /* TE_NAME: datatype arguments */
    TypeExpr *a, *b;            /* TE_SEQ: a; TE_PAIR: (a, b); TE_FUN: a -> b */
};

/* One `v in class` entry of a `:: (...)` context. */
typedef struct Context { Sym var; TypeClass cls; Span span; } Context;

/* ------------------------------------------------------------------ patterns */

/* Every name a pattern, generator, parameter or top-level binding introduces. */
struct Binder {
    Sym name;
    Span span;
    Type *type;                 /* set by the checker; concrete after mono */
    int slot;                   /* frame slot for locals, -1 for globals */
    bool is_global;             /* bound by a top-level `pattern = exp` */
    int global_index;           /* index into the interpreter's global table */
};

typedef enum { PAT_VAR, PAT_PAIR, PAT_CON } PatternKind;
struct Pattern {
    PatternKind kind;
    Span span;
    Type *type;
    Binder *binder;             /* PAT_VAR */
    Pattern *fst, *snd;         /* PAT_PAIR */
    Sym con; DataDecl *data;    /* PAT_CON: constructor name, resolved datatype */
    Pattern *sub;               /* PAT_CON */
};

/* ------------------------------------------------------------------ expressions */

/* Operators.  Each maps to a primitive (prims.def); `,` is EX_PAIR, not an op. */
typedef enum {
    OP_OR, OP_NOR, OP_XOR, OP_AND, OP_NAND,
    OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE,
    OP_ADD, OP_SUB, OP_APPEND,          /* + - ++ */
    OP_MUL, OP_DIV, OP_PAD,             /* * / || */
    OP_POW,                             /* ^ */
    OP_WRITE,                           /* <- */
    OP_READ,                            /* -> */
    OP_LENGTH, OP_STRING, OP_NEG,       /* prefix # @ - */
    OP__COUNT
} Op;

typedef enum {
    EX_INT, EX_FLOAT, EX_BOOL, EX_CHAR, EX_STRING,
    EX_VAR,          /* name */
    EX_PAIR,         /* a, b */
    EX_IF,
    EX_LET,          /* binds[] in body */
    EX_LAMBDA,       /* pattern => body */
    EX_APPLY,        /* fn(arg) and juxtaposition */
    EX_OP,           /* binary or prefix operator: op, args[0..nargs) */
    EX_SUBSCRIPT,    /* a[i] */
    EX_EACH,         /* { body : gens | filter } */
    EX_SEQ,          /* [e1, ..., en], n >= 1 */
    EX_EMPTY,        /* [] t */
    EX_RANGE,        /* [lo : hi] or [lo : hi : step] */
    EX_TIME,         /* time(e) */
} ExprKind;

/* What an EX_VAR names, filled in by the checker. */
typedef enum {
    REF_NONE,        /* unresolved (parse output) */
    REF_LOCAL,       /* pattern-bound variable: binder */
    REF_GLOBAL,      /* top-level `pattern = exp` variable: binder */
    REF_FUN,         /* user or prelude function: fun */
    REF_PRIM,        /* primitive: prim */
    REF_CON,         /* datatype constructor: data */
} RefKind;

typedef struct LetBind { Pattern *pat; Expr *value; } LetBind;
typedef struct Generator { Pattern *pat; Expr *seq; } Generator;

struct Expr {
    ExprKind kind;
    Span span;
    Type *type;                 /* set by the checker */

    /* literals */
    int32_t ival;               /* EX_INT (wrapped to 32 bits), EX_CHAR (code 0..255) */
    double fval;                /* EX_FLOAT */
    bool bval;                  /* EX_BOOL */
    const char *str; int slen;  /* EX_STRING: contents, escapes removed */

    /* EX_VAR */
    Sym name;
    RefKind ref;
    Binder *binder;             /* REF_LOCAL, REF_GLOBAL */
    FunDecl *fun;               /* REF_FUN (after mono: the specialised instance) */
    int prim;                   /* REF_PRIM; also EX_OP's primitive, set by the checker */
    DataDecl *data;             /* REF_CON */
    Type *inst;                 /* REF_FUN/REF_PRIM/REF_CON: the instantiated type */

    /* children */
    Expr *a, *b, *c;            /* PAIR(a,b) IF(a,b,c) APPLY(a=fn,b=arg) SUBSCRIPT(a,b)
                                   RANGE(a,b,c=step or NULL) TIME(a) LAMBDA(body=a) */
    Op op; Expr *args[2]; int nargs;          /* EX_OP */
    LetBind *binds; int nbinds;               /* EX_LET; body in a */
    Pattern *param;                            /* EX_LAMBDA */
    Generator *gens; int ngens;               /* EX_EACH; body in a, filter in b (or NULL) */
    bool body_from_pattern;                    /* EX_EACH written {x in s | c} */
    bool parenthesized;                        /* written inside ( ) */
    Expr **elems; int nelems;                 /* EX_SEQ */
    TypeExpr *texpr;                           /* EX_EMPTY: the written type */

    /* EX_LAMBDA, filled by the checker: frame slots the closure needs */
    int nslots;
};

/* ------------------------------------------------------------------ top level */

struct FunDecl {
    Sym name;
    Span span;                  /* the whole header */
    Pattern *param;
    TypeExpr *sig;              /* optional signature (a TE_FUN) */
    Context *ctx; int nctx;     /* its `:: (...)` context */
    const char *doc;            /* optional documentation string */
    Expr *body;                 /* NULL for a forward declaration */
    bool is_prelude;            /* defined in lib/, not by the user */

    /* checker */
    Type *type;                 /* generalised type; TY_VARs inside are quantified */
    int nslots;                 /* frame size for the interpreter */
    FunDecl *forward;           /* the forward declaration this definition completes */
    FunDecl *defined_by;        /* on a forward declaration: its later definition */
    FunDecl *replaced_by;       /* a later top-level definition of the same name and type:
                                   once it has run, callers of this one call it (NESL.md 2.1) */
    bool live;                  /* interpreter: its defining form has run */
    bool serial_only;           /* calls file I/O or rand_seed (NESL.md 3.9 item 6) */

    /* mono */
    FunDecl *generic;           /* instance: the polymorphic original */
    FunDecl *next_instance;     /* chain of instances on the original */
    FunDecl *replacement;       /* instance: the same-typed instance of generic->replaced_by */
};

struct DataDecl {
    Sym name;
    Span span;
    TypeExpr **fields; int nfields;     /* the constructor's argument types as written */
    Context *ctx; int nctx;             /* type parameters, in context order */
    Type *field_type;                   /* checker: tuple of fields over `params` */
    Type **params;                      /* checker: one TY_VAR per ctx entry */
};

typedef enum { TOP_FUN, TOP_DATA, TOP_BIND, TOP_EXPR } TopKind;
struct TopForm {
    TopKind kind;
    Span span;
    FunDecl *fun;               /* TOP_FUN */
    DataDecl *data;             /* TOP_DATA */
    Pattern *pat;               /* TOP_BIND */
    Expr *expr;                 /* TOP_BIND value, TOP_EXPR */
    bool failed;                /* checker rejected it: mono and interp skip it */
    bool quiet;                 /* a library binding: evaluated, never printed */
    int nslots;                 /* checker: frame size for evaluating expr */
};

typedef struct Program {
    TopForm **forms; int nforms;
} Program;

/* ------------------------------------------------------------------ constructors (ast.c) */

Expr *expr_new(Arena *a, ExprKind k, Span sp);
Pattern *pattern_new(Arena *a, PatternKind k, Span sp);
TypeExpr *texpr_new(Arena *a, TypeExprKind k, Span sp);
Binder *binder_new(Arena *a, Sym name, Span sp);

Type *type_new(Arena *a, TypeKind k);
Type *type_base(Arena *a, TypeKind k);             /* int, float, bool, char, stream */
Type *type_seq(Arena *a, Type *elem);
Type *type_pair(Arena *a, Type *fst, Type *snd);
Type *type_fun(Arena *a, Type *arg, Type *res, Type *ident);
Type *type_prune(Type *t);                          /* follow TY_VAR links */

const char *op_spelling(Op op);                     /* "+", "++", "#", ... */

/* Printers (ast_print.c).  print_type follows NESL.md 4.6: outermost pair
 * unparenthesised, right-nested tuples flat, `:: (a in number)` suffix when
 * `with_context` and the type has bounded variables. */
void print_type(FILE *out, Type *t, bool with_context);
char *type_to_string(Arena *a, Type *t, bool with_context);
void print_program(FILE *out, const Program *p, bool with_types);
void print_fundecl(FILE *out, const FunDecl *f, bool with_types);

#endif
