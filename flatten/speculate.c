/* speculate.c — conditionals in lifted code as an element-wise select.
 *
 * A lifted `if c then a else b` normally partitions the context by the
 * flags, runs each branch on its packed part and combines the results
 * with a permutation (expr.c, fl_if): about ten kernels and two scatters
 * per conditional.  When both branches are cheap scalar code that cannot
 * fail and has no effect, it is cheaper and equally correct to compute
 * both branches for every element and pick per element:
 *
 *     r = MAP { i => if c[i] then a[i] else b[i] } (count)
 *
 * which fusion merges with the branches' own MAPs into one kernel.  The
 * test is syntactic (on the typed AST) and conservative: literals, local
 * scalar variables, let, if, tuples and primitives that are total on every
 * input.  Anything that can raise a runtime error in the interpreter (/
 * by a non-literal, rem, mod, ^, sqrt, ln, expt, subscripts), touches a
 * sequence, calls a function (recursion would not terminate when
 * speculated) or reads a global is excluded, so speculation never
 * reports an error or does work the reference would not do, up to a
 * constant factor. */
#include "flatten_impl.h"

bool fl_scalar_type(Type *t)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: case TY_BOOL: case TY_CHAR: return true;
    case TY_PAIR: return fl_scalar_type(t->fst) && fl_scalar_type(t->snd);
    case TY_STREAM: case TY_SEQ: case TY_DATA: case TY_FUN: case TY_FUNID: case TY_VAR: return false;
    }
    return false;
}

/* Primitives that return a value for every argument of their type: asin
 * and acos give NaN outside [-1, 1], the conversions to int wrap or give 0
 * (nesl_f2i), code_char wraps (interp/prims_scalar.c, rt/nesl_scalar.h). */
static bool prim_total(int prim)
{
    switch (prim) {
    case PRIM_NOT: case PRIM_OR: case PRIM_AND: case PRIM_XOR: case PRIM_NOR: case PRIM_NAND:
    case PRIM_EQ: case PRIM_NE: case PRIM_LT: case PRIM_GT: case PRIM_LE: case PRIM_GE:
    case PRIM_ADD: case PRIM_SUB: case PRIM_MUL: case PRIM_NEG: case PRIM_ABS: case PRIM_MAX: case PRIM_MIN:
    case PRIM_LSHIFT: case PRIM_RSHIFT:
    case PRIM_EXP: case PRIM_SIN: case PRIM_COS: case PRIM_TAN: case PRIM_ASIN: case PRIM_ACOS: case PRIM_ATAN:
    case PRIM_SINH: case PRIM_COSH: case PRIM_TANH:
    case PRIM_FLOAT: case PRIM_BTOI: case PRIM_CHAR_CODE: case PRIM_CODE_CHAR:
    case PRIM_TRUNC: case PRIM_FLOOR: case PRIM_CEIL: case PRIM_ROUND:
    case PRIM_FLOAT_NUM: case PRIM_INT_TO_ANY: case PRIM_FLOAT_TO_ANY:
        return true;
    default:
        return false;
    }
}

static bool nonzero_literal(const Expr *e)
{
    return (e->kind == EX_INT && e->ival != 0) || (e->kind == EX_FLOAT && e->fval != 0.0);
}

bool fl_prim_safe(int prim, int nargs, Expr *const *args)
{
    return prim_total(prim) || (prim == PRIM_DIV && nargs == 2 && nonzero_literal(args[1]));
}

static bool pattern_scalar(const Pattern *p)
{
    switch (p->kind) {
    case PAT_VAR: return true;
    case PAT_PAIR: return pattern_scalar(p->fst) && pattern_scalar(p->snd);
    case PAT_CON: return false;
    }
    return false;
}

static bool speculable(const Expr *e, int depth)
{
    if (depth > 32 || !fl_scalar_type(e->type)) return false;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_CHAR:
        return true;
    case EX_VAR:
        return e->ref == REF_LOCAL;
    case EX_PAIR:
        return speculable(e->a, depth + 1) && speculable(e->b, depth + 1);
    case EX_IF:
        return speculable(e->a, depth + 1) && speculable(e->b, depth + 1) && speculable(e->c, depth + 1);
    case EX_LET:
        for (int i = 0; i < e->nbinds; i++)
            if (!pattern_scalar(e->binds[i].pat) || !speculable(e->binds[i].value, depth + 1)) return false;
        return speculable(e->a, depth + 1);
    case EX_OP:
        if (e->fun) return false;
        for (int i = 0; i < e->nargs; i++)
            if (!speculable(e->args[i], depth + 1)) return false;
        return fl_prim_safe(e->prim, e->nargs, e->args);
    case EX_APPLY:
        return e->a->kind == EX_VAR && e->a->ref == REF_PRIM && prim_total(e->a->prim) &&
               speculable(e->b, depth + 1);
    case EX_STRING: case EX_LAMBDA: case EX_SUBSCRIPT: case EX_EACH: case EX_SEQ: case EX_EMPTY:
    case EX_RANGE: case EX_TIME:
        return false;
    }
    return false;
}

bool fl_speculable(const Expr *e) { return speculable(e, 0); }

/* A branch of a lifted if that costs about nothing over the whole context
 * and cannot fail: a local variable (its value is there already; the
 * caller checks that it is lifted) or a literal sequence of speculable
 * scalars (quickhull's [a]) or of datatype values built from them
 * (Barnes-Hut's [node(mt, cx, cy, w, 1)]).  fl_if_lifted (lifted_if.c)
 * evaluates it unpacked. */
bool fl_branch_unpacked(const Expr *e)
{
    if (e->kind == EX_VAR) return e->ref == REF_LOCAL;
    if (e->kind != EX_SEQ || e->nelems == 0) return false;
    for (int i = 0; i < e->nelems; i++) {
        const Expr *x = e->elems[i];
        bool con = x->kind == EX_APPLY && x->a->kind == EX_VAR && x->a->ref == REF_CON;
        if (!(con ? speculable(x->b, 1) : speculable(x, 1))) return false;
    }
    return true;
}

FVal fl_select(Fl *F, const Ctx *cx, Type *t, Sym flags, FVal a, FVal b)
{
    a = materialize(F, cx, a);
    b = materialize(F, cx, b);
    Sym *c = arena_alloc(F->a, sizeof *c * (size_t)a.n);
    for (int k = 0; k < a.n; k++) {
        Sym i = fl_fresh(F, "i");
        LcuExpr *pick = X_if(F, X_idx(F, flags, X_var(F, i)), X_idx(F, a.c[k], X_var(F, i)),
                             X_idx(F, b.c[k], X_var(F, i)));
        c[k] = fl_map(F, a.t[k]->base, i, pick, X_var(F, cx->count));
    }
    return fv_make(F, t, true, a.n, c);
}
