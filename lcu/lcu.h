/* lcu.h — λcu, the three-level IR after flattening (DESIGN.md §4).
 *
 *   CPU level:    functions of let-blocks, if, scalar arithmetic, calls, run K args
 *   kernel level: kernel K (params) -> θ { let xs = SOAC args ... return ys }
 *   GPU level:    thunks { xs => exp using ys } and scalar/tuple expressions
 *
 * One expression type serves the CPU and GPU levels; the checker enforces
 * which forms each level may use.  Text syntax: doc/lcu.md. */
#ifndef NESSLC_LCU_H
#define NESSLC_LCU_H

#include "common.h"

/* ---- types ---- */
typedef enum { LB_BOOL, LB_INT, LB_FLOAT, LB_CHAR, LB_UNIT } LcuBase;

typedef enum {
    LT_BASE,    /* b */
    LT_TUPLE,   /* flat: never nested, never of length 0 or 1 */
    LT_VEC,     /* [b]  CPU-side or kernel vector */
    LT_REF,     /* &[b] reference to a GPU-side vector */
    LT_SD,      /* segment descriptor */
} LcuTypeKind;

typedef struct LcuType LcuType;
struct LcuType {
    LcuTypeKind kind;
    LcuBase base;            /* LT_BASE, LT_VEC, LT_REF */
    int n;                   /* LT_TUPLE */
    const LcuType **elems;   /* LT_TUPLE */
};

const LcuType *lcu_t_base(Arena *a, LcuBase b);
const LcuType *lcu_t_vec(Arena *a, LcuBase b);
const LcuType *lcu_t_ref(Arena *a, LcuBase b);
const LcuType *lcu_t_sd(Arena *a);
/* Tuple of n types, flattened (× is associative); n == 1 gives the element. */
const LcuType *lcu_t_tuple(Arena *a, int n, const LcuType **elems);
int lcu_t_arity(const LcuType *t);                  /* flat component count */
const LcuType *lcu_t_component(const LcuType *t, int i);
bool lcu_t_equal(const LcuType *x, const LcuType *y);
const char *lcu_base_name(LcuBase b);

/* ---- expressions (CPU and GPU levels) ---- */
typedef enum {
    LOP_ADD, LOP_SUB, LOP_MUL, LOP_DIV, LOP_MOD,
    LOP_EQ, LOP_NE, LOP_LT, LOP_LE, LOP_GT, LOP_GE,
    LOP_AND, LOP_OR,
} LcuBinop;

typedef enum { LUOP_NEG, LUOP_NOT, LUOP_TO_FLOAT, LUOP_TO_INT } LcuUnop;

typedef enum {
    LE_INT, LE_FLOAT, LE_BOOL, LE_CHAR, LE_UNIT,
    LE_VAR,
    LE_TUPLE,    /* (e1, ..., en), n >= 2 */
    LE_LET,      /* GPU: let x = e in e / let (x, y) = e in e */
    LE_IF,       /* GPU: branches are expressions; CPU: branches are blocks */
    LE_BINOP,
    LE_UNOP,
    LE_INDEX,    /* x[e] */
    LE_LEN,      /* #x */
    LE_VECLIT,   /* CPU only: [e1, ..., en], n >= 1 */
    LE_RUN,      /* CPU only: run K (args) */
    LE_CALL,     /* f (args): a function (CPU only) or a builtin (see "builtins";
                    the scalar ones also in GPU code) */
    LE_BLOCK,    /* CPU only: { let ... return e } */
    LE_STRING,   /* CPU only: "text" : [char] (may be empty) */
    LE_SOAC,     /* CPU only, Flan form only: an inline SOAC whose thunks read
                    CPU variables directly; kernel formation (lcu_form_kernels)
                    turns each into a one-SOAC kernel and a `run` */
    LE_LIB,      /* CPU only: lib NAME "TAG" (args) -> TYPE, a library kernel
                    (rank, ...) or a host-bridge call (see LcuLibHook) */
    LE_LOOP,     /* GPU only: iterate (x, y) = e in body, a sequential loop (u.let):
                    the variables start as e's components; body's value is the
                    loop's unless it ends in recur */
    LE_RECUR,    /* GPU only: recur (e1, ..., en) (u.tuple), in a tail position of
                    the innermost iterate's body: next iteration with x, y = e1, ... */
} LcuExprKind;

typedef struct LcuExpr LcuExpr;

/* let-bound names; types present at the CPU level only (NULL on the GPU). */
typedef struct LcuBind {
    Span span;
    int nvars;
    Sym *vars;
    const LcuType **types;
    LcuExpr *rhs;
} LcuBind;

struct LcuExpr {
    LcuExprKind kind;
    Span span;
    const LcuType *type;   /* set by the checker */
    union {
        int64_t i;            /* LE_INT, LE_CHAR */
        double f;             /* LE_FLOAT */
        bool b;               /* LE_BOOL */
        Sym var;              /* LE_VAR */
        struct { int n; LcuExpr **elems; } tuple;          /* LE_TUPLE, LE_VECLIT, LE_RECUR */
        struct { LcuBind *bind; LcuExpr *body; } let;      /* LE_LET, LE_LOOP */
        struct { LcuExpr *cond, *then_e, *else_e; } if_;   /* LE_IF */
        struct { LcuBinop op; LcuExpr *l, *r; } bin;       /* LE_BINOP */
        struct { LcuUnop op; LcuExpr *e; } un;             /* LE_UNOP */
        /* LE_INDEX: vec[idx]; inrange (written vec.[idx]): the flattener's
         * own index arithmetic, in range by construction, so code
         * generation does not check it and fusion counts it as unable to
         * fail; the λcu interpreter still checks it (an internal error) */
        struct { Sym vec; Span vec_span; LcuExpr *idx; bool inrange; } index;
        struct { Sym vec; bool paren; } len;               /* LE_LEN; paren: written #(x) */
        struct { Sym name; int nargs; LcuExpr **args; } call;    /* LE_RUN, LE_CALL */
        struct { int nbinds; LcuBind **binds; LcuExpr *result; } block;  /* LE_BLOCK */
        struct { const char *s; int len; } str;            /* LE_STRING */
        struct LcuSoac *soac;                              /* LE_SOAC */
        struct { Sym name; const char *tag; int nargs; LcuExpr **args;
                 const LcuType *result; } lib;             /* LE_LIB */
    } u;
};

LcuExpr *lcu_e_int(Arena *a, Span sp, int64_t v);
LcuExpr *lcu_e_float(Arena *a, Span sp, double v);
LcuExpr *lcu_e_bool(Arena *a, Span sp, bool v);
LcuExpr *lcu_e_char(Arena *a, Span sp, int64_t c);
LcuExpr *lcu_e_unit(Arena *a, Span sp);
LcuExpr *lcu_e_var(Arena *a, Span sp, Sym x);
LcuExpr *lcu_e_tuple(Arena *a, Span sp, int n, LcuExpr **elems);
LcuExpr *lcu_e_veclit(Arena *a, Span sp, int n, LcuExpr **elems);
LcuExpr *lcu_e_let(Arena *a, Span sp, LcuBind *b, LcuExpr *body);
LcuExpr *lcu_e_if(Arena *a, Span sp, LcuExpr *c, LcuExpr *t, LcuExpr *e);
LcuExpr *lcu_e_loop(Arena *a, Span sp, LcuBind *b, LcuExpr *body);
LcuExpr *lcu_e_recur(Arena *a, Span sp, int n, LcuExpr **args);
LcuExpr *lcu_e_binop(Arena *a, Span sp, LcuBinop op, LcuExpr *l, LcuExpr *r);
LcuExpr *lcu_e_unop(Arena *a, Span sp, LcuUnop op, LcuExpr *e);
LcuExpr *lcu_e_index(Arena *a, Span sp, Sym vec, Span vec_span, LcuExpr *idx, bool inrange);
LcuExpr *lcu_e_len(Arena *a, Span sp, Sym vec, bool paren);
LcuExpr *lcu_e_run(Arena *a, Span sp, Sym kernel, int nargs, LcuExpr **args);
LcuExpr *lcu_e_call(Arena *a, Span sp, Sym fn, int nargs, LcuExpr **args);
LcuExpr *lcu_e_block(Arena *a, Span sp, int nbinds, LcuBind **binds, LcuExpr *result);
LcuExpr *lcu_e_string(Arena *a, Span sp, const char *s, int len);
LcuExpr *lcu_e_soac(Arena *a, Span sp, struct LcuSoac *s);
LcuExpr *lcu_e_lib(Arena *a, Span sp, Sym name, const char *tag, int nargs, LcuExpr **args, const LcuType *result);
LcuBind *lcu_bind(Arena *a, Span sp, int nvars, Sym *vars, const LcuType **types, LcuExpr *rhs);
bool lcu_has_loop(const LcuExpr *e);   /* GPU level: holds an iterate */
int lcu_expr_size(const LcuExpr *e);   /* GPU level: its nodes */

/* ---- kernel level ---- */
typedef struct LcuThunk {
    Span span;
    int nparams;
    Sym *params;
    LcuExpr *body;
    int nusing;
    Sym *using_;
    Span *using_spans;
} LcuThunk;

/* The same thunk up to the names of its parameters and let-bound
 * variables (GPU level; CPU-level forms compare as different). */
bool lcu_thunk_alpha_equal(const LcuThunk *x, const LcuThunk *y);

typedef enum {
    LS_MAP, LS_PERMUTE, LS_REDUCE, LS_SCAN, LS_FILTER, LS_PARTITION, LS_ONCE,
    LS_SEG_PERMUTE, LS_SEG_REDUCE, LS_SEG_SCAN, LS_SEG_FILTER, LS_SEG_PARTITION,
} LcuSoacKind;
#define LCU_NSOAC_KINDS 12
const char *lcu_soac_name(LcuSoacKind k);

/* A SOAC argument: a thunk, or a parenthesized kernel-level expression
 * (a scalar, a tuple of scalars, #xs, or an sd variable). */
typedef enum { LA_THUNK, LA_EXPR } LcuArgKind;
typedef struct LcuArg {
    LcuArgKind kind;
    Span span;
    union { LcuThunk *thunk; LcuExpr *expr; } u;
} LcuArg;

typedef struct LcuSoac {
    LcuSoacKind kind;
    Span span;
    int nargs;
    LcuArg **args;
    /* FILTER and PARTITION only (NULL otherwise, and where unknown): the
     * number of elements the predicate keeps, as the flattener knows it (a
     * lifted if's count of true flags): an int expression at the SOAC's
     * level, in a kernel over its parameters and literals only, so the
     * host has it before the launch.  Text: ` kept (e)` after the
     * arguments.  A fact, not a request: the interpreter and the code
     * generators check it, and a wrong one is an internal error; the CUDA
     * back end launches without waiting for the count (doc/lcu.md). */
    LcuExpr *kept;
    /* Set by fusion (MAP, REDUCE, SCAN): vector parameters of the kernel
     * proved as long as the size, so their subscripts at the SOAC's index
     * need no check.  Not part of the text; the code generators verify it
     * on the host. */
    int nsame_len;
    Sym *same_len;
} LcuSoac;

/* The same expression of a thunk's kinds (literals, variables, operators,
 * lets, calls), names bound inside paired; false for CPU-level kinds. */
bool lcu_expr_equal(const LcuExpr *x, const LcuExpr *y);
/* The same SOAC up to the names its thunks bind: kind, arguments, kept. */
bool lcu_soac_alpha_equal(const LcuSoac *x, const LcuSoac *y);

typedef struct LcuParam { Sym name; const LcuType *type; Span span; } LcuParam;

typedef struct LcuKBind {     /* let xs = SOAC args */
    Span span;
    int nvars;
    Sym *vars;
    Span *var_spans;
    LcuSoac *soac;
    const LcuType **types;    /* set by the checker: one θ per var */
} LcuKBind;

typedef struct LcuKernel {
    Span span;
    Sym name;
    int nparams;
    LcuParam *params;
    const LcuType *result;    /* possibly a tuple of θs */
    int nbinds;
    LcuKBind **binds;
    int nrets;
    Sym *rets;
    Span *ret_spans;
    bool ret_paren;           /* return (y) / return (y1, y2) vs return y */
} LcuKernel;

/* ---- CPU level ---- */
/* The nesting of a lifted function's flat parameters and results (the
 * flattener's f^, flatten.h): for each component, what its length (a
 * vector's elements, an sd's segments) counts.  LCU_LIFT_UNIFORM: not a
 * lifted component (the count n itself, a library function's site);
 * LCU_LIFT_OUTER: the call count n; k >= 0: the total of sd component k
 * of the same list (parameters index params, results index the result's
 * flat components).  Not part of λcu's text: phases that copy an LcuFun
 * keep it, a parsed .lcu file has none. */
enum { LCU_LIFT_UNIFORM = -2, LCU_LIFT_OUTER = -1 };
typedef struct LcuLiftShape {
    int nparams;
    const int *param_parent;   /* nparams entries */
    int nres;
    const int *res_parent;     /* nres entries */
} LcuLiftShape;

typedef struct LcuFun {
    Span span;
    Sym name;
    int nparams;
    LcuParam *params;
    const LcuType *result;
    LcuExpr *body;            /* LE_BLOCK */
    const LcuLiftShape *lift; /* a lifted function version's (the flattener's
                                 f^, param 0 its count n); NULL for others */
} LcuFun;

typedef struct LcuProgram {
    int nsites;               /* source positions for check(): `site N "file:line:col"` */
    const char **sites;
    int nkernels;
    LcuKernel **kernels;
    int nfuns;
    LcuFun **funs;
} LcuProgram;

LcuThunk *lcu_thunk(Arena *a, Span sp, int np, Sym *params, LcuExpr *body, int nusing, Sym *using_);
LcuArg *lcu_arg_thunk(Arena *a, LcuThunk *t);
LcuArg *lcu_arg_expr(Arena *a, Span sp, LcuExpr *e);
LcuSoac *lcu_soac(Arena *a, Span sp, LcuSoacKind k, int nargs, LcuArg **args);   /* kept NULL */

/* ---- phases ---- */
/* Parse λcu text; NULL (with diagnostics) on a syntax error. */
LcuProgram *lcu_parse(Arena *a, Interner *in, Diag *d, const Source *src);
/* Canonical text form; lcu_parse(lcu_print(p)) prints identically. */
void lcu_print(FILE *out, const LcuProgram *p);
/* Type-check, filling in expression and binding types; false on errors. */
bool lcu_check(Arena *a, Interner *in, Diag *d, LcuProgram *p);

typedef struct LcuStats {
    long kernel_launches;
    long soac_launches[LCU_NSOAC_KINDS];
    long soac_elements[LCU_NSOAC_KINDS];   /* size of the index space processed */
    long lib_calls;                        /* LE_LIB calls */
    long lib_elements;                     /* elements of their vector arguments */
    /* --stats=kernels: per kernel (in order of first launch) launches and the
     * global-memory bytes of its arguments (read) and results (written); a
     * scalar counts its size, a vector its elements', an sd 4 per segment. */
    bool per_kernel;
    int nkernels, kcap;
    struct LcuKernelStats { const char *name; long launches; long long bytes_read, bytes_written; } *kernels;
} LcuStats;
void lcu_stats_free(LcuStats *s);

/* ---- builtins ----
 * Scalar builtins, callable as f(args) at the GPU and the CPU level; int is
 * 32-bit two's complement and every function has NESL 3.1's semantics
 * (rt/nesl_scalar.h holds the one C definition shared by both interpreters
 * and the generated code).  The flattener guards the partial ones (division
 * by zero, sqrt/ln of negatives, negative exponents), so none fails here.
 *   rem mod (int,int)->int        lshift rshift (int,int)->int
 *   band bor bxor (int,int)->int  bnot int->int
 *   ipow (int,int)->int  fpow (float,int)->float   isqrt int->int
 *   sqrt ln exp sin cos tan asin acos atan sinh cosh tanh fabs float->float
 *   expt (float,float)->float
 *   trunc floor ceil round float->int   code_char int->char  char_code char->int
 *   btoi bool->int   min max (b,b)->b for b in int, float, char
 *   iabs int->int
 *   div_in (int,int)->int: a / b where 0 <= a, 0 < b by construction (the
 *     flattener's segment arithmetic); unchecked in generated code, an
 *     internal error in the interpreter when broken
 *   pos_in (int,int)->int: r where 0 <= r < l by construction (a position in
 *     a segment of length l); the same promise as div_in's
 * CPU-only builtins:
 *   make_sd([int]) -> sd      lengths(sd) -> [int]     offsets(sd) -> [int] (exclusive scan)
 *   make_sd([int], int t) -> sd: the same, whose total the flattener knows is t
 *     (total(sd) then costs no wait for the device; a different sum of the
 *     lengths is an internal error)
 *   dist_sd(int n, int l) -> sd: n segments of length l (total n * l without a scan)
 *   sum_sd(sd a, sd b) -> sd: segment k of length a's + b's (#a = #b); cat_sd(sd a,
 *     sd b) -> sd: a's segments then b's; zip_sd(sd a, sd b) -> sd: a's segment k at
 *     2k, b's at 2k + 1 (#a = #b).  Offsets from a's and b's, without a scan
 *   filter_sd(sd s, [int] kept) -> sd: segment k holds the positions of kept (ascending,
 *     in 0..total(s)-1: else an internal error) in s's segment k; total #kept
 *   segids(sd) -> [int] (segment of each element)      total(sd) -> int
 *   check(bool, int site, [char] msg) -> unit: when the bool is true, a runtime
 *     error "FILE:LINE:COL: RUNTIME ERROR: msg" with the position of `site`
 *     (no position when site < 0 or has none)
 * #s on an sd is its segment count.
 * Library kernels (LE_LIB with an empty tag), stable:
 *   rank_up([b]) -> [int], rank_down([b]) -> [int]           b in int, float
 *   seg_rank_up(sd, [b]) -> [int], seg_rank_down(sd, [b]) -> [int] (ranks within segments)
 */

/* Is name a CPU-only builtin (make_sd dist_sd lengths offsets segids total check)? */
bool lcu_cpu_builtin_exists(const char *name);

/* ---- values (the interpreter's, public for drivers and library hooks) ---- */
typedef union LcuScalar { int64_t i; double f; } LcuScalar;  /* bool, char, unit in i */
typedef enum { LV_SCALAR, LV_TUPLE, LV_VEC, LV_SD } LcuValKind;
typedef struct LcuVal LcuVal;
struct LcuVal {
    LcuValKind kind;
    LcuBase base;         /* LV_SCALAR, LV_VEC */
    LcuScalar s;          /* LV_SCALAR */
    int n;                /* LV_TUPLE: flat components */
    LcuVal **elems;
    int64_t len;          /* LV_VEC: elements; LV_SD: segments */
    LcuScalar *data;      /* LV_VEC: elements; LV_SD: segment lengths (.i) */
};

/* A library call the interpreter does not implement itself is passed to the
 * hook with its name, tag and flat arguments.  The hook returns the flat
 * result (a tuple when the declared type is one) allocated with
 * lcu_val_*, or NULL after printing a runtime error itself. */
typedef struct LcuInterp LcuInterp;
typedef LcuVal *(*LcuLibHook)(void *ctx, LcuInterp *I, const char *name, const char *tag,
                              int nargs, LcuVal **args, const LcuType *result);

LcuInterp *lcu_interp_new(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats);
void lcu_interp_set_hook(LcuInterp *I, LcuLibHook hook, void *ctx);
/* Call CPU function `fname`; *result gets its (flat) result.  Values passed
 * in and returned stay valid until lcu_interp_free.  False on a runtime error
 * (already reported on err); the interpreter stays usable for later calls. */
bool lcu_interp_call(LcuInterp *I, const char *fname, int nargs, LcuVal **args, LcuVal **result);
/* Why the last lcu_interp_call failed: a runtime error of the program
 * ("RUNTIME ERROR: ..."), or an internal error ("nesslc: internal error:
 * ..."): a state a checked program cannot reach, a hook that broke its
 * contract, or, in a guarded program, an unguarded error. */
typedef enum { LCU_FAIL_NONE, LCU_FAIL_RUNTIME, LCU_FAIL_INTERNAL } LcuFailure;
LcuFailure lcu_interp_failure(const LcuInterp *I);
/* Guarded: the program was flattened from NESL, which raises every NESL
 * runtime error with check(); the interpreter's own checks (index out of
 * range, division by zero, a partial builtin, a negative size, ...) failing
 * is then a flattener bug, an internal error.  Off by default (.lcu files). */
void lcu_interp_set_guarded(LcuInterp *I, bool guarded);
void lcu_interp_free(LcuInterp *I);
LcuVal *lcu_val_scalar(LcuInterp *I, LcuBase b, LcuScalar s);
LcuVal *lcu_val_vec(LcuInterp *I, LcuBase b, int64_t len);      /* zeroed data */
LcuVal *lcu_val_sd(LcuInterp *I, int64_t nsegs);                 /* zeroed lengths */
LcuVal *lcu_val_tuple(LcuInterp *I, int n, LcuVal **elems);      /* flattens; n == 1 gives elems[0] */

/* Run the CPU function `main` (no parameters) of a checked program and print
 * each component of its result on its own line.  Returns the exit status:
 * 0, 1 after a runtime error (reported on err as "RUNTIME ERROR: ..."),
 * 3 after an internal error (LcuFailure).  lcu_interp: status == 0. */
int lcu_interp_status(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats);
bool lcu_interp(const LcuProgram *p, FILE *out, FILE *err, LcuStats *stats);
void lcu_print_stats(FILE *out, const LcuStats *s);

/* Kernel formation: the unfused λcu of a Flan-form program, one kernel per
 * inline SOAC (named K1, K2, ... in order of appearance), its parameters the
 * CPU variables the SOAC reads, each `using` list exact. */
LcuProgram *lcu_form_kernels(Arena *a, Interner *in, const LcuProgram *flan);

/* Drops CPU-level bindings that nothing reads and whose evaluation cannot
 * fail or have an effect (lcu_prune.c): the flattener's unused segment
 * lengths, totals and segment ids. */
void lcu_prune_dead(Arena *a, LcuProgram *p);

/* Flan: a MAP whose element is small arithmetic of its index (a range) is
 * recomputed by the thunks that read it in range, `#` of it becomes its
 * size, and the MAP is dropped once nothing reads it (lcu_index_maps.c). */
void lcu_inline_index_maps(Arena *a, Interner *in, LcuProgram *p);

/* ---- the names of a tree (lcu_names.c) ----
 * fn(ctx, x, free) for every name the tree reads, in evaluation order
 * (free: not bound inside the tree), and for every name it binds (free =
 * false).  The walk's scratch memory comes from a. */
typedef void (*LcuNameFn)(void *ctx, Sym x, bool free);
void lcu_names_expr(Arena *a, const LcuExpr *e, LcuNameFn fn, void *ctx);
void lcu_names_thunk(Arena *a, const LcuThunk *t, LcuNameFn fn, void *ctx);
void lcu_names_arg(Arena *a, const LcuArg *g, LcuNameFn fn, void *ctx);
void lcu_names_soac(Arena *a, const LcuSoac *s, LcuNameFn fn, void *ctx);

/* A program a compiler phase built must type-check and print -> parse ->
 * print identically; false (diagnostics and an "internal compiler error"
 * line on err) means a bug in that phase.  `what` names the program. */
bool lcu_verify_built(Arena *a, Interner *in, LcuProgram *p, const char *what, FILE *err);
/* The print -> parse -> print half of the above (parse errors go to err). */
bool lcu_round_trips(const LcuProgram *p, FILE *err);

/* Driver entry for a .lcu file: parse, check, then print (emit) or run. */
typedef struct LcuDriveOptions { bool emit; bool interp; bool stats; bool stats_kernels; } LcuDriveOptions;
int lcu_drive(const Source *src, FILE *out, Diag *d, LcuDriveOptions o);

#endif
