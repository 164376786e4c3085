/* ast.c — AST and type constructors. */
#include "ast.h"

Expr *expr_new(Arena *a, ExprKind k, Span sp)
{
    Expr *e = arena_alloc(a, sizeof *e);
    e->kind = k; e->span = sp; e->prim = -1;
    return e;
}

Pattern *pattern_new(Arena *a, PatternKind k, Span sp)
{
    Pattern *p = arena_alloc(a, sizeof *p);
    p->kind = k; p->span = sp;
    return p;
}

TypeExpr *texpr_new(Arena *a, TypeExprKind k, Span sp)
{
    TypeExpr *t = arena_alloc(a, sizeof *t);
    t->kind = k; t->span = sp;
    return t;
}

Binder *binder_new(Arena *a, Sym name, Span sp)
{
    Binder *b = arena_alloc(a, sizeof *b);
    b->name = name; b->span = sp; b->slot = -1; b->global_index = -1;
    return b;
}

Type *type_new(Arena *a, TypeKind k)
{
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = k;
    return t;
}

Type *type_base(Arena *a, TypeKind k) { return type_new(a, k); }

Type *type_seq(Arena *a, Type *elem)
{
    Type *t = type_new(a, TY_SEQ);
    t->elem = elem;
    return t;
}

Type *type_pair(Arena *a, Type *fst, Type *snd)
{
    Type *t = type_new(a, TY_PAIR);
    t->fst = fst; t->snd = snd;
    return t;
}

Type *type_fun(Arena *a, Type *arg, Type *res, Type *ident)
{
    Type *t = type_new(a, TY_FUN);
    t->arg = arg; t->res = res; t->ident = ident;
    return t;
}

Type *type_prune(Type *t)
{
    while (t && t->kind == TY_VAR && t->link) t = t->link;
    return t;
}

const char *op_spelling(Op op)
{
    switch (op) {
    case OP_OR: return "or";      case OP_NOR: return "nor";   case OP_XOR: return "xor";
    case OP_AND: return "and";    case OP_NAND: return "nand";
    case OP_EQ: return "==";      case OP_NE: return "/=";     case OP_LT: return "<";
    case OP_GT: return ">";       case OP_LE: return "<=";     case OP_GE: return ">=";
    case OP_ADD: return "+";      case OP_SUB: return "-";     case OP_APPEND: return "++";
    case OP_MUL: return "*";      case OP_DIV: return "/";     case OP_PAD: return "||";
    case OP_POW: return "^";      case OP_WRITE: return "<-";  case OP_READ: return "->";
    case OP_LENGTH: return "#";   case OP_STRING: return "@";  case OP_NEG: return "-";
    case OP__COUNT: break;
    }
    return "?";
}
