/* cast.h — a small target AST for C and CUDA C++ with a printer.
 *
 * Code generators build statements and expressions as trees and print them
 * at the end; no generator pastes code text together.  Types are spelled as
 * C type names ("int32_t", "NeslVec *"); a pragma is a statement whose text
 * follows `#pragma`.  Nodes live in the compilation's arena. */
#ifndef NESSLC_CAST_H
#define NESSLC_CAST_H

#include "common.h"

/* ---- expressions ---- */
typedef enum {
    CX_INT,      /* integer literal (int64 value; printed with parentheses if negative) */
    CX_FLOAT,    /* double literal, printed exactly (round-trips) */
    CX_NAME,     /* identifier */
    CX_STR,      /* string literal (bytes, escaped when printed) */
    CX_BIN,      /* l op r */
    CX_UN,       /* op e */
    CX_CALL,     /* f(args) */
    CX_INDEX,    /* a[i] */
    CX_ARROW,    /* p->field */
    CX_MEMBER,   /* s.field */
    CX_COND,     /* c ? a : b */
    CX_CAST,     /* (type)e */
    CX_SIZEOF,   /* sizeof(type) */
} CExprKind;

typedef enum {
    CB_MUL, CB_DIV, CB_MOD, CB_ADD, CB_SUB,
    CB_LT, CB_LE, CB_GT, CB_GE, CB_EQ, CB_NE,
    CB_BAND, CB_AND, CB_OR,
} CBinop;

typedef enum { CU_NEG, CU_NOT, CU_ADDR, CU_DEREF } CUnop;

typedef struct CExpr CExpr;
struct CExpr {
    CExprKind kind;
    union {
        int64_t i;                                              /* CX_INT */
        double f;                                               /* CX_FLOAT */
        const char *name;                                       /* CX_NAME */
        struct { const char *s; int len; } str;                 /* CX_STR */
        struct { CBinop op; CExpr *l, *r; } bin;                /* CX_BIN */
        struct { CUnop op; CExpr *e; } un;                      /* CX_UN */
        struct { const char *fn; int nargs; CExpr **args; } call;   /* CX_CALL */
        struct { CExpr *a, *i; } index;                         /* CX_INDEX */
        struct { CExpr *e; const char *field; } member;         /* CX_ARROW, CX_MEMBER */
        struct { CExpr *c, *t, *e; } cond;                      /* CX_COND */
        struct { const char *type; CExpr *e; } cast;            /* CX_CAST, CX_SIZEOF (e NULL) */
    } u;
};

CExpr *cx_int(Arena *a, int64_t v);
CExpr *cx_float(Arena *a, double v);
CExpr *cx_name(Arena *a, const char *name);
CExpr *cx_str(Arena *a, const char *s, int len);
CExpr *cx_bin(Arena *a, CBinop op, CExpr *l, CExpr *r);
CExpr *cx_un(Arena *a, CUnop op, CExpr *e);
CExpr *cx_call(Arena *a, const char *fn, int nargs, CExpr **args);
/* f(args...) with nargs CExpr * arguments */
CExpr *cx_calln(Arena *a, const char *fn, int nargs, ...);
CExpr *cx_index(Arena *a, CExpr *arr, CExpr *i);
CExpr *cx_arrow(Arena *a, CExpr *p, const char *field);
CExpr *cx_member(Arena *a, CExpr *s, const char *field);
CExpr *cx_cond(Arena *a, CExpr *c, CExpr *t, CExpr *e);
CExpr *cx_cast(Arena *a, const char *type, CExpr *e);
CExpr *cx_sizeof(Arena *a, const char *type);

/* ---- statements ---- */
typedef enum {
    CS_DECL,     /* type name [= init]; */
    CS_ASSIGN,   /* lhs = rhs;  or lhs += rhs; */
    CS_EXPR,     /* e; */
    CS_IF,       /* if (c) {..} [else {..}] */
    CS_FOR,      /* for (int64_t v = lo; v < hi; v++) {..} */
    CS_BLOCK,    /* {..} */
    CS_PRAGMA,   /* #pragma text */
    CS_RETURN,   /* return [e]; */
    CS_COMMENT,  /* one-line comment */
    CS_LOOP,     /* for (;;) {..} */
    CS_JUMP,     /* break; or continue; (u.text) */
} CStmtKind;

typedef struct CStmt CStmt;
typedef struct CBlock { int n, cap; CStmt **stmts; } CBlock;

struct CStmt {
    CStmtKind kind;
    union {
        struct { const char *type, *name; CExpr *init; } decl;
        struct { CExpr *lhs, *rhs; bool add; } assign;
        CExpr *expr;                                           /* CS_EXPR, CS_RETURN (may be NULL) */
        struct { CExpr *c; CBlock *then_b, *else_b; } if_;     /* else_b may be NULL */
        struct { const char *var; CExpr *lo, *hi; CBlock *body; } for_;
        CBlock *block;                                         /* CS_BLOCK, CS_LOOP */
        const char *text;                                      /* CS_PRAGMA, CS_COMMENT, CS_JUMP */
    } u;
};

CBlock *cb_new(Arena *a);
void cb_add(Arena *a, CBlock *b, CStmt *s);
/* Convenience: build a statement and append it to b. */
void cs_decl(Arena *a, CBlock *b, const char *type, const char *name, CExpr *init);
void cs_assign(Arena *a, CBlock *b, CExpr *lhs, CExpr *rhs);
void cs_add_assign(Arena *a, CBlock *b, CExpr *lhs, CExpr *rhs);
void cs_expr(Arena *a, CBlock *b, CExpr *e);
/* if (c) then_b else else_b (else_b may be NULL); the blocks are appended as given */
void cs_if(Arena *a, CBlock *b, CExpr *c, CBlock *then_b, CBlock *else_b);
void cs_for(Arena *a, CBlock *b, const char *var, CExpr *lo, CExpr *hi, CBlock *body);
void cs_block(Arena *a, CBlock *b, CBlock *inner);
void cs_pragma(Arena *a, CBlock *b, const char *text);
void cs_return(Arena *a, CBlock *b, CExpr *e);
void cs_comment(Arena *a, CBlock *b, const char *text);
void cs_loop(Arena *a, CBlock *b, CBlock *body);
void cs_jump(Arena *a, CBlock *b, bool is_break);

/* ---- top level ---- */
typedef struct CParam { const char *type, *name; } CParam;

typedef struct CFunc {
    const char *comment;      /* printed above, may be NULL */
    const char *attr;         /* printed first (a macro such as NESL_KERNEL, or __device__), may be NULL */
    const char *post;         /* printed after the parameters (" const" of a method), may be NULL */
    bool is_static;
    const char *ret;          /* return type */
    const char *name;
    int nparams;
    CParam *params;
    CBlock *body;
} CFunc;

/* A struct; with methods (C++, CUDA functors) they are printed inside it. */
typedef struct CStruct {
    const char *name;
    int n;
    const char **types, **fields;
    PtrVec methods;           /* CFunc * */
} CStruct;

/* A translation unit: header comment, includes, typedef'd structs, constant
 * string tables, prototypes of every static function, then the functions. */
typedef struct CUnit {
    const char *comment;
    PtrVec includes;          /* const char *: "name.h" or <name.h>, as written */
    PtrVec structs;           /* CStruct * */
    PtrVec tables;            /* CTable * */
    PtrVec funcs;             /* CFunc * */
    PtrVec raw;               /* const char *: C text printed last (static data, main) */
} CUnit;

/* static const char *const name[] = { "...", ... }; (n may be 0) */
typedef struct CTable { const char *name; int n; const char **strs; } CTable;

/* After every declaration in f whose variable is never read, add `(void)x;`
 * (a λcu let whose value is unused still runs, for its errors). */
void cfunc_mark_unused(Arena *a, CFunc *f);

void cunit_print(FILE *out, const CUnit *u);
void cexpr_print(FILE *out, const CExpr *e);

#endif
