/* flatten_impl.h — internals shared by the flattener's files.
 *
 * The flattener walks the monomorphic AST once per (function, mode) and
 * emits Flan: λcu CPU-level lets whose right-hand sides are scalar
 * expressions, inline SOACs, library calls, calls of flattened functions
 * and CPU ifs.  Every NESL value is an FVal: its NESL type and the CPU
 * variables holding its flat components (flatten.h), unlifted or lifted. */
#ifndef NESSLC_FLATTEN_IMPL_H
#define NESSLC_FLATTEN_IMPL_H

#include "flatten.h"
#include <setjmp.h>
#include "../frontend/prims.h"
#include "../frontend/types.h"

/* A NESL value as flat components.  In a lifted context an unlifted FVal is
 * uniform: the same value for every element (vectorization avoidance); it is
 * materialized (distributed) only where lifted code needs it. */
typedef struct FVal {
    Type *type;
    bool lifted;
    int n;
    Sym *c;                     /* component variables */
    const LcuType **t;          /* their λcu types */
    Sym via;                    /* lifted sequences only: when set, element p of this
                                   value is element via[p] of the components (a
                                   distributed free variable, not copied).  Only
                                   subscript, -> and # read it; fv_direct copies. */
} FVal;

typedef struct Env Env;
struct Env { Binder *b; FVal v; const Env *next; };

/* The statements being emitted (one CPU block). */
/* same_lens: pairs of descriptors (sd, sd) whose lengths a check in this
 * block found equal; it holds for the rest of the block and the blocks in
 * it (fl_lengths_checked, fl_note_lengths_checked). */
typedef struct Block { PtrVec binds; PtrVec same_lens; struct Block *outer; } Block;

typedef struct FunReq FunReq;

/* Per-program state. */
typedef struct Fl {
    Compilation *c;
    Arena *a;
    Interner *in;
    Diag *d;
    Block *blk;                 /* current block */
    int next_var;
    PtrVec funs;                /* LcuFun* emitted */
    FunReq *reqs;               /* requested function versions */
    PtrVec queue;               /* FunReq* still to compile */
    PtrVec sites;               /* const char* */
    PtrVec site_spans;          /* Span* */
    jmp_buf *fail;              /* "not supported yet": longjmp here */
    PtrVec purity;              /* cache for fl_fun_pure */
    PtrVec lambdas;             /* EX_LAMBDA clones seen, for calls by identity */
    int cur_form;               /* the form being compiled (redefinitions) */
    PtrVec *defs;               /* DefForm*: defining form of each function, when the
                                   program redefines some function; else NULL */
    PtrVec empty_safe;          /* LcuExpr*: check calls that cannot fail when their
                                   lifted context has no elements (fl_check_lifted) */
    PtrVec uniform;             /* UniformSd*: descriptors made by dist_sd (segdesc.c) */
} Fl;

/* The context an expression is compiled in. */
typedef struct Ctx {
    bool lifted;
    Sym count;                  /* lifted: the CPU int holding the element count */
    Sym site;                   /* in library code: the int parameter with the user's
                                   call site; NULL in user code */
    const Env *env;
} Ctx;

/* ---- build.c: names, emission, λcu expression helpers ---- */
Sym fl_fresh(Fl *F, const char *prefix);
Sym fl_emit(Fl *F, const LcuType *t, LcuExpr *rhs);             /* let x : t = rhs */
void fl_emitn(Fl *F, int n, Sym *vars, const LcuType **ts, LcuExpr *rhs);
Sym *fl_emit_tuple(Fl *F, int n, const LcuType **ts, LcuExpr *rhs);
void fl_block_push(Fl *F, Block *b);
bool fl_lengths_checked(Fl *F, Sym a, Sym b);
void fl_note_lengths_checked(Fl *F, Sym a, Sym b);   /* a check of them follows in this block */
LcuExpr *fl_block_pop(Fl *F, LcuExpr *result);                  /* -> LE_BLOCK */
_Noreturn void fl_unsupported(Fl *F, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

const LcuType *T_int(Fl *F);
const LcuType *T_bool(Fl *F);
const LcuType *T_float(Fl *F);
const LcuType *T_base(Fl *F, LcuBase b);
const LcuType *T_vec(Fl *F, LcuBase b);
const LcuType *T_sd(Fl *F);
const LcuType *T_tuple(Fl *F, int n, const LcuType **ts);

LcuExpr *X_var(Fl *F, Sym x);
LcuExpr *X_int(Fl *F, int64_t v);
LcuExpr *X_bool(Fl *F, bool v);
LcuExpr *X_bin(Fl *F, LcuBinop op, LcuExpr *l, LcuExpr *r);
LcuExpr *X_un(Fl *F, LcuUnop op, LcuExpr *e);
LcuExpr *X_if(Fl *F, LcuExpr *c, LcuExpr *t, LcuExpr *e);
LcuExpr *X_idx(Fl *F, Sym v, LcuExpr *i);
LcuExpr *X_idx_in(Fl *F, Sym v, LcuExpr *i);   /* v.[i]: in range by construction */
LcuExpr *X_idx_as(Fl *F, Sym v, LcuExpr *i, bool inrange);   /* either */
LcuExpr *X_len(Fl *F, Sym v);
LcuExpr *X_call(Fl *F, const char *fn, int n, LcuExpr **args);
LcuExpr *X_call1(Fl *F, const char *fn, LcuExpr *a);
LcuExpr *X_call2(Fl *F, const char *fn, LcuExpr *a, LcuExpr *b);
LcuExpr *X_tuple(Fl *F, int n, LcuExpr **es);                   /* n == 1: the element; 0: () */
LcuExpr *X_default(Fl *F, LcuBase b);                           /* 0, 0.0, false, '\0', () */

/* SOACs (inline, Flan form).  A thunk body is a GPU expression over the
 * named parameters; CPU variables may be read directly. */
LcuThunk *fl_thunk(Fl *F, int np, Sym *params, LcuExpr *body);
LcuThunk *fl_thunk1(Fl *F, Sym p, LcuExpr *body);
LcuExpr *X_soac(Fl *F, LcuSoacKind k, int n, LcuArg **args);
LcuArg *A_thunk(Fl *F, LcuThunk *t);
LcuArg *A_expr(Fl *F, LcuExpr *e);
/* MAP { i => body(i) } (n) with one result of base b. */
Sym fl_map(Fl *F, LcuBase b, Sym i, LcuExpr *body, LcuExpr *n);
/* Common scalar-vector kernels. */
Sym fl_dist(Fl *F, LcuBase b, LcuExpr *v, LcuExpr *n);          /* n copies of v */
Sym fl_gather(Fl *F, LcuBase b, Sym v, Sym idx);                /* v[idx[i]] */
Sym fl_gather_in(Fl *F, LcuBase b, Sym v, Sym idx);             /* v.[idx[i]]: idx's values in range by construction */
Sym fl_gather_as(Fl *F, LcuBase b, Sym v, Sym idx, bool inrange);   /* either */
Sym fl_reduce(Fl *F, LcuBase b, LcuBinop op, const char *builtin, Sym v, LcuExpr *ident);
Sym fl_any(Fl *F, Sym flags);                                   /* or-reduce of [bool] */
Sym fl_sum_int(Fl *F, Sym v);
Sym fl_seg_sum_int(Fl *F, Sym sd, Sym v);                       /* per segment */
Sym fl_empty(Fl *F, LcuBase b);                                 /* a vector of length 0 */
Sym fl_count_true(Fl *F, Sym flags);                            /* int */
Sym fl_count_true_before(Fl *F, Sym flags);                    /* [int]: exclusive SCAN of the flags */
Sym fl_sum_where(Fl *F, Sym flags, Sym v);                      /* int: sum of v[i] where flags[i] */
/* Indices i with flags[i] (and those without); nt: the number of true
 * flags (fl_count_true), the PARTITION's kept, so the CUDA back end
 * launches it without waiting for its count. */
void fl_partition_index(Fl *F, Sym flags, LcuExpr *n, Sym nt, Sym *idx_t, Sym *idx_f);
Sym fl_filter_index(Fl *F, Sym flags, LcuExpr *n);
void fl_filter_elems(Fl *F, int k, const LcuBase *bs, const Sym *vs, Sym flags, LcuExpr *n, Sym *out);
/* Runtime check: when cond (a CPU bool) holds, fail at the site. */
void fl_check(Fl *F, const Ctx *cx, Span sp, LcuExpr *cond, const char *msg);
/* A check in a lifted context whose condition is false when the context has
 * no elements (a reduction over its elements, or a uniform condition
 * conjoined with count > 0): the body needs no guard for it. */
void fl_check_lifted(Fl *F, const Ctx *cx, Span sp, LcuExpr *cond, const char *msg);
bool fl_check_empty_safe(const Fl *F, const LcuExpr *call);
LcuExpr *fl_site(Fl *F, const Ctx *cx, Span sp);

/* ---- segdesc.c: segment descriptors ---- */
/* The accessors of sd: CPU builtins, or arithmetic when sd came from
 * fl_dist_sd in scope. */
Sym fl_sd_lengths(Fl *F, Sym sd);
Sym fl_sd_offsets(Fl *F, Sym sd);
Sym fl_sd_segids(Fl *F, Sym sd);
Sym fl_sd_total(Fl *F, Sym sd);                                 /* int */
/* Every segment's length where sd is uniform (dist_sd in scope), else NULL. */
LcuExpr *fl_sd_uniform_len(Fl *F, Sym sd);
Sym fl_make_sd_total(Fl *F, Sym lens, LcuExpr *total);          /* make_sd (lens, total): the sum known */
Sym fl_make_sd(Fl *F, Sym lens);
Sym fl_sum_sd(Fl *F, Sym a, Sym b);   /* segment k: a's length + b's (#a = #b) */
Sym fl_cat_sd(Fl *F, Sym a, Sym b);   /* a's segments, then b's */
Sym fl_zip_sd(Fl *F, Sym a, Sym b);   /* segment 2k: a's k, 2k + 1: b's k (#a = #b) */
Sym fl_filter_sd(Fl *F, Sym sd, Sym kept);   /* segment k: kept's positions (ascending) in sd's segment k */
/* n segments of length len (dist_sd); *total (if total) gets n * len. */
Sym fl_dist_sd(Fl *F, LcuExpr *n, LcuExpr *len, Sym *total);
/* n copies of the unlifted sequence v: a lifted sequence of count n. */
FVal fl_dist_seq(Fl *F, FVal v, LcuExpr *n);

/* ---- rep.c: type-directed operations on flat representations ---- */
FVal fv_make(Fl *F, Type *t, bool lifted, int n, Sym *c);
FVal fv_slice(Fl *F, FVal v, Type *t, int from);                 /* the sub-value of type t at comp from */
int fv_arity(Type *t, bool lifted);
LcuExpr *fv_count(Fl *F, FVal seq);
/* The components of a lifted value of element type t whose length (# of a
 * vector, segment count of an sd) is the element count. */
void fv_outer_comps(Fl *F, Type *t, const Sym *c, PtrVec *out);                              /* #s of an unlifted sequence */
/* The lifted representation of element type t: gather, concat, empty, dist. */
FVal rep_gather(Fl *F, Type *t, const Sym *c, Sym idx);           /* count #idx */
FVal rep_gather_in(Fl *F, Type *t, const Sym *c, Sym idx);        /* ... idx in range by construction */
FVal rep_permute_in(Fl *F, Type *t, const Sym *c, Sym idx);       /* ... idx a permutation: totals kept */
/* ... idx the positions another gather (its components rest) left out:
 * totals are what rest's leave */
FVal rep_gather_rest_in(Fl *F, Type *t, const Sym *c, Sym idx, const Sym *rest);
/* ... an outer sequence's new total known (a CPU int variable): its
 * descriptor is made with it, so nothing waits for its scan */
FVal rep_gather_total_in(Fl *F, Type *t, const Sym *c, Sym idx, Sym total);
bool rep_filter_flat(Fl *F, Type *t, const Sym *c, Sym flags, LcuExpr *n, FVal *out);
FVal rep_concat(Fl *F, Type *t, const Sym *c1, LcuExpr *n1, const Sym *c2, LcuExpr *n2);
/* The segments of nsid/noffs, each a's segment (lengths la, offsets oa into
 * a's elements) then b's (lb, ob): the elements, for flat element types. */
typedef struct SegParts { Sym nsid, noffs, la, oa, lb, ob; const Sym *a, *b; } SegParts;
bool rep_interleave_flat(Fl *F, Type *t, const SegParts *sp, FVal *out);
bool rep_zip_flat(Fl *F, Type *t, const Sym *a, const Sym *b, Sym *zsd, FVal *out);   /* lifted [a, b] */
FVal rep_empty(Fl *F, Type *t, bool lifted);
FVal rep_singleton(Fl *F, FVal v);                               /* unlifted v -> lifted, count 1 */
FVal rep_dist(Fl *F, FVal v, LcuExpr *n);                        /* unlifted v -> lifted, count n */
FVal materialize(Fl *F, const Ctx *cx, FVal v);                  /* lifted in cx */
FVal fv_direct(Fl *F, FVal v);                                   /* without via */
/* An unlifted sequence from the lifted representation of its elements. */
FVal seq_of_elems(Fl *F, Type *seqt, FVal elems);
FVal elems_of_seq(Fl *F, FVal seq);                              /* inverse */
/* Lifted sequence [s] over a context: split into sd and lifted elements. */
Sym lseq_sd(FVal lseq);
FVal lseq_elems(Fl *F, FVal lseq);
FVal lseq_make(Fl *F, Type *seqt, Sym sd, FVal elems);
LcuExpr *X_rest(Fl *F, int n, const Sym *c);                     /* tuple of vars */
/* Join results of an if: the result variables of type t bound to a CPU if. */
FVal fl_emit_if(Fl *F, Type *t, bool lifted, LcuExpr *cond, LcuExpr *then_b, LcuExpr *else_b);
Type *fl_data_fields(Fl *F, Type *t);                           /* concrete field tuple */

/* ---- expr.c ---- */
FVal fl_expr(Fl *F, const Ctx *cx, Expr *e);
FVal fl_operand(Fl *F, const Ctx *cx, Expr *e);
void fl_collect_lambdas(Fl *F, Expr *e);
const Env *fl_bind(Fl *F, const Env *env, Pattern *p, FVal v);
FVal fl_apply_fun(Fl *F, const Ctx *cx, FunDecl *fun, FVal arg, Span sp);
FVal fl_apply_value(Fl *F, const Ctx *cx, FVal fn, FVal arg, Span sp);
FunDecl *fl_fun_body(Fl *F, FunDecl *fun, Span sp);
bool fl_fun_pure(Fl *F, FunDecl *fun);
/* environments, free variables and guarded bodies, for lifted_if.c */
typedef struct BSet { PtrVec v; } BSet;                          /* Binder *, each once */
const Env *fl_env_add(Fl *F, const Env *env, Binder *b, FVal v);
const FVal *fl_env_find(const Env *env, Binder *b);
BSet fl_free_vars(Fl *F, Expr *e, Expr *e2, const BSet *except);  /* of e and e2, less except */
/* body in the lifted context sub, skipped when its count is 0 (always:
 * even where running it on no elements would be harmless) */
FVal fl_guarded_body(Fl *F, const Ctx *sub, Type *t, Expr *body, bool always);

/* ---- lifted_if.c: if on a lifted condition (flags), partitioned ---- */
FVal fl_if_lifted(Fl *F, const Ctx *cx, Expr *e, Sym flags);

/* ---- speculate.c: lifted ifs of cheap total scalar branches as a select ---- */
bool fl_speculable(const Expr *e);
bool fl_branch_unpacked(const Expr *e);   /* a lifted if evaluates it over the whole context */
bool fl_scalar_type(Type *t);                                   /* int, float, bool, char, tuples of them */
/* prim on these operands returns a value for every argument: a total
 * primitive, or / by a non-zero literal. */
bool fl_prim_safe(int prim, int nargs, Expr *const *args);
FVal fl_select(Fl *F, const Ctx *cx, Type *t, Sym flags, FVal a, FVal b);

/* ---- sequential.c: scalar tail recursion in lifted code as a loop ---- */
/* The lifted call f(arg) as one MAP whose thunk loops (iterate); false,
 * emitting nothing, when f is not scalar tail-recursive code. */
bool fl_loop_call(Fl *F, const Ctx *cx, FunDecl *f, FVal arg, FVal *out);
/* The same for a call f (argx) with a sequence among the argument's tuple
 * components that every self call passes on unchanged (Barnes-Hut's walk):
 * evaluates argx only when it makes the loop. */
bool fl_loop_call_seq(Fl *F, const Ctx *cx, FunDecl *f, Expr *argx, Span sp, FVal *out);

/* ---- prims.c ---- */
/* The scalar λcu expression of an element-wise primitive on operands x. */
LcuExpr *fl_scalar_op(Fl *F, int prim, Type *t0, Type *t1, LcuExpr **x);
bool fl_prim_pure(int prim);
FVal fl_range(Fl *F, const Ctx *cx, FVal lo, FVal hi, FVal step, Span sp);
FVal fl_prim(Fl *F, const Ctx *cx, int prim, Type *inst, int nargs, FVal *args, Span sp);
/* Split a k-tuple argument into its top-level components. */
void fl_split_args(Fl *F, FVal arg, int k, FVal *out);

/* A partial primitive's failure condition on operands x (NULL: it cannot
 * fail), and its NESL error kind for guard (nesl_scalar.h). */
LcuExpr *fl_scalar_fails(Fl *F, int prim, Type *t0, LcuExpr **x);
int fl_guard_kind(int prim);
/* let g = guard (true, SITE, KIND) in value: where an element fails, the
 * error recorded (λcu's guard) and a harmless value. */
LcuExpr *fl_guard_fail(Fl *F, LcuExpr *site, int kind, LcuExpr *value, Span sp);

/* ---- program.c ---- */
/* The instance of fun (lifted or not) for a call with argument components
 * args (n of them; NULL: none known): one per pattern of components the
 * call passes as one variable (FunReq.same). */
#define FL_ALIAS_MAX 64
Sym fl_request_fun(Fl *F, FunDecl *fun, bool lifted, int nargs, const Sym *args);

#endif
