/* cast.c — constructors of the C target AST (cast.h). */
#include <stdarg.h>
#include <string.h>
#include "cast.h"

static CExpr *mk(Arena *a, CExprKind k)
{
    CExpr *e = arena_alloc(a, sizeof *e);
    e->kind = k;
    return e;
}

CExpr *cx_int(Arena *a, int64_t v) { CExpr *e = mk(a, CX_INT); e->u.i = v; return e; }
CExpr *cx_float(Arena *a, double v) { CExpr *e = mk(a, CX_FLOAT); e->u.f = v; return e; }
CExpr *cx_name(Arena *a, const char *name) { CExpr *e = mk(a, CX_NAME); e->u.name = name; return e; }

CExpr *cx_str(Arena *a, const char *s, int len)
{
    CExpr *e = mk(a, CX_STR);
    e->u.str.s = s;
    e->u.str.len = len;
    return e;
}

CExpr *cx_bin(Arena *a, CBinop op, CExpr *l, CExpr *r)
{
    CExpr *e = mk(a, CX_BIN);
    e->u.bin.op = op;
    e->u.bin.l = l;
    e->u.bin.r = r;
    return e;
}

CExpr *cx_un(Arena *a, CUnop op, CExpr *x)
{
    CExpr *e = mk(a, CX_UN);
    e->u.un.op = op;
    e->u.un.e = x;
    return e;
}

CExpr *cx_call(Arena *a, const char *fn, int nargs, CExpr **args)
{
    CExpr *e = mk(a, CX_CALL);
    e->u.call.fn = fn;
    e->u.call.nargs = nargs;
    e->u.call.args = arena_alloc(a, sizeof *args * (size_t)(nargs ? nargs : 1));
    if (nargs) memcpy(e->u.call.args, args, sizeof *args * (size_t)nargs);
    return e;
}

CExpr *cx_calln(Arena *a, const char *fn, int nargs, ...)
{
    CExpr *args[nargs ? nargs : 1];
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs; i++) args[i] = va_arg(ap, CExpr *);
    va_end(ap);
    return cx_call(a, fn, nargs, args);
}

CExpr *cx_index(Arena *a, CExpr *arr, CExpr *i)
{
    CExpr *e = mk(a, CX_INDEX);
    e->u.index.a = arr;
    e->u.index.i = i;
    return e;
}

CExpr *cx_arrow(Arena *a, CExpr *p, const char *field)
{
    CExpr *e = mk(a, CX_ARROW);
    e->u.member.e = p;
    e->u.member.field = field;
    return e;
}

CExpr *cx_member(Arena *a, CExpr *s, const char *field)
{
    CExpr *e = mk(a, CX_MEMBER);
    e->u.member.e = s;
    e->u.member.field = field;
    return e;
}

CExpr *cx_cond(Arena *a, CExpr *c, CExpr *t, CExpr *f)
{
    CExpr *e = mk(a, CX_COND);
    e->u.cond.c = c;
    e->u.cond.t = t;
    e->u.cond.e = f;
    return e;
}

CExpr *cx_cast(Arena *a, const char *type, CExpr *x)
{
    CExpr *e = mk(a, CX_CAST);
    e->u.cast.type = type;
    e->u.cast.e = x;
    return e;
}

CExpr *cx_sizeof(Arena *a, const char *type)
{
    CExpr *e = mk(a, CX_SIZEOF);
    e->u.cast.type = type;
    return e;
}

/* ---- statements ---- */
CBlock *cb_new(Arena *a) { return arena_alloc(a, sizeof(CBlock)); }

void cb_add(Arena *a, CBlock *b, CStmt *s)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        CStmt **v = arena_alloc(a, sizeof *v * (size_t)cap);
        if (b->n) memcpy(v, b->stmts, sizeof *v * (size_t)b->n);
        b->stmts = v;
        b->cap = cap;
    }
    b->stmts[b->n++] = s;
}

static CStmt *st(Arena *a, CBlock *b, CStmtKind k)
{
    CStmt *s = arena_alloc(a, sizeof *s);
    s->kind = k;
    cb_add(a, b, s);
    return s;
}

void cs_decl(Arena *a, CBlock *b, const char *type, const char *name, CExpr *init)
{
    CStmt *s = st(a, b, CS_DECL);
    s->u.decl.type = type;
    s->u.decl.name = name;
    s->u.decl.init = init;
}

void cs_assign(Arena *a, CBlock *b, CExpr *lhs, CExpr *rhs)
{
    CStmt *s = st(a, b, CS_ASSIGN);
    s->u.assign.lhs = lhs;
    s->u.assign.rhs = rhs;
}

void cs_add_assign(Arena *a, CBlock *b, CExpr *lhs, CExpr *rhs)
{
    CStmt *s = st(a, b, CS_ASSIGN);
    s->u.assign.lhs = lhs;
    s->u.assign.rhs = rhs;
    s->u.assign.add = true;
}

void cs_expr(Arena *a, CBlock *b, CExpr *e) { st(a, b, CS_EXPR)->u.expr = e; }

void cs_if(Arena *a, CBlock *b, CExpr *c, CBlock *then_b, CBlock *else_b)
{
    CStmt *s = st(a, b, CS_IF);
    s->u.if_.c = c;
    s->u.if_.then_b = then_b;
    s->u.if_.else_b = else_b;
}

void cs_for(Arena *a, CBlock *b, const char *var, CExpr *lo, CExpr *hi, CBlock *body)
{
    CStmt *s = st(a, b, CS_FOR);
    s->u.for_.var = var;
    s->u.for_.lo = lo;
    s->u.for_.hi = hi;
    s->u.for_.body = body;
}

void cs_block(Arena *a, CBlock *b, CBlock *inner) { st(a, b, CS_BLOCK)->u.block = inner; }
void cs_pragma(Arena *a, CBlock *b, const char *text) { st(a, b, CS_PRAGMA)->u.text = text; }
void cs_return(Arena *a, CBlock *b, CExpr *e) { st(a, b, CS_RETURN)->u.expr = e; }
void cs_comment(Arena *a, CBlock *b, const char *text) { st(a, b, CS_COMMENT)->u.text = text; }
void cs_loop(Arena *a, CBlock *b, CBlock *body) { st(a, b, CS_LOOP)->u.block = body; }
void cs_jump(Arena *a, CBlock *b, bool is_break) { st(a, b, CS_JUMP)->u.text = is_break ? "break" : "continue"; }

/* ---- unused variables ---- */
typedef struct StrSet { const char **v; size_t cap, n; } StrSet;

static size_t name_hash(const char *s)
{
    size_t h = 5381;
    for (; *s; s++) h = h * 33 + (unsigned char)*s;
    return h;
}

static bool set_has(const StrSet *ns, const char *s)
{
    if (!ns->cap) return false;
    for (size_t h = name_hash(s) % ns->cap; ns->v[h]; h = (h + 1) % ns->cap)
        if (!strcmp(ns->v[h], s)) return true;
    return false;
}

static void set_add(Arena *a, StrSet *ns, const char *s)
{
    if (set_has(ns, s)) return;
    if (2 * (ns->n + 1) > ns->cap) {
        StrSet big = { NULL, ns->cap ? 2 * ns->cap : 64, 0 };
        big.v = arena_alloc(a, sizeof *big.v * big.cap);
        for (size_t i = 0; i < ns->cap; i++)
            if (ns->v[i]) set_add(a, &big, ns->v[i]);
        *ns = big;
    }
    size_t h = name_hash(s) % ns->cap;
    while (ns->v[h]) h = (h + 1) % ns->cap;
    ns->v[h] = s;
    ns->n++;
}

static void uses_e(Arena *a, StrSet *ns, const CExpr *e)
{
    if (!e) return;
    switch (e->kind) {
    case CX_INT: case CX_FLOAT: case CX_STR: case CX_SIZEOF: return;
    case CX_NAME: set_add(a, ns, e->u.name); return;
    case CX_BIN: uses_e(a, ns, e->u.bin.l); uses_e(a, ns, e->u.bin.r); return;
    case CX_UN: uses_e(a, ns, e->u.un.e); return;
    case CX_CALL:
        for (int i = 0; i < e->u.call.nargs; i++) uses_e(a, ns, e->u.call.args[i]);
        return;
    case CX_INDEX: uses_e(a, ns, e->u.index.a); uses_e(a, ns, e->u.index.i); return;
    case CX_ARROW: case CX_MEMBER: uses_e(a, ns, e->u.member.e); return;
    case CX_COND: uses_e(a, ns, e->u.cond.c); uses_e(a, ns, e->u.cond.t); uses_e(a, ns, e->u.cond.e); return;
    case CX_CAST: uses_e(a, ns, e->u.cast.e); return;
    }
}

/* Names read anywhere (the left side of a plain assignment is a write). */
static void uses_b(Arena *a, StrSet *ns, const CBlock *b)
{
    for (int i = 0; i < b->n; i++) {
        const CStmt *s = b->stmts[i];
        switch (s->kind) {
        case CS_DECL: uses_e(a, ns, s->u.decl.init); break;
        case CS_ASSIGN:
            if (s->u.assign.add || s->u.assign.lhs->kind != CX_NAME) uses_e(a, ns, s->u.assign.lhs);
            uses_e(a, ns, s->u.assign.rhs);
            break;
        case CS_EXPR: case CS_RETURN: uses_e(a, ns, s->u.expr); break;
        case CS_IF:
            uses_e(a, ns, s->u.if_.c);
            uses_b(a, ns, s->u.if_.then_b);
            if (s->u.if_.else_b) uses_b(a, ns, s->u.if_.else_b);
            break;
        case CS_FOR: uses_e(a, ns, s->u.for_.lo); uses_e(a, ns, s->u.for_.hi); uses_b(a, ns, s->u.for_.body); break;
        case CS_BLOCK: case CS_LOOP: uses_b(a, ns, s->u.block); break;
        case CS_PRAGMA: case CS_COMMENT: case CS_JUMP: break;
        }
    }
}

/* An unread variable with an initializer gets (void) right after its
 * declaration; one without (assigned later, in an if) at the end of its
 * block, before a final return: never read while indeterminate. */
static void mark_b(Arena *a, const StrSet *ns, CBlock *b)
{
    CBlock old = *b;
    b->n = b->cap = 0;
    b->stmts = NULL;
    PtrVec late = { NULL, 0, 0 };
    for (int i = 0; i < old.n; i++) {
        CStmt *s = old.stmts[i];
        if (s->kind == CS_RETURN && i == old.n - 1)
            for (int j = 0; j < late.len; j++) cs_expr(a, b, cx_cast(a, "void", cx_name(a, late.items[j])));
        cb_add(a, b, s);
        switch (s->kind) {
        case CS_DECL: {
            /* an array's declarator is "name[N]": (void) names the array */
            const char *name = s->u.decl.name, *br = strchr(name, '[');
            if (br) name = arena_strndup(a, name, (size_t)(br - name));
            if (set_has(ns, name)) break;
            if (s->u.decl.init) cs_expr(a, b, cx_cast(a, "void", cx_name(a, name)));
            else ptrvec_push(a, &late, (void *)name);
            break;
        }
        case CS_IF:
            mark_b(a, ns, s->u.if_.then_b);
            if (s->u.if_.else_b) mark_b(a, ns, s->u.if_.else_b);
            break;
        case CS_FOR: mark_b(a, ns, s->u.for_.body); break;
        case CS_BLOCK: case CS_LOOP: mark_b(a, ns, s->u.block); break;
        case CS_ASSIGN: case CS_EXPR: case CS_RETURN: case CS_PRAGMA: case CS_COMMENT: case CS_JUMP: break;
        }
    }
    if (!old.n || old.stmts[old.n - 1]->kind != CS_RETURN)
        for (int j = 0; j < late.len; j++) cs_expr(a, b, cx_cast(a, "void", cx_name(a, late.items[j])));
}

void cfunc_mark_unused(Arena *a, CFunc *f)
{
    StrSet ns = { NULL, 0, 0 };
    uses_b(a, &ns, f->body);
    mark_b(a, &ns, f->body);
}
