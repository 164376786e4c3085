/* cudagen.h — code generation from λcu (DESIGN.md §6, doc/codegen.md).
 *
 * The interface of the phase for the driver (cgen_emit_c, cgen_build), and
 * the skeleton interface that a target implements: the shared generator
 * walks host functions and kernels, evaluates GPU expressions with
 * gen_thunk, and hands each SOAC to the target's skeleton generator
 * (Skeletons), which emits the iteration, data access, synchronization and
 * result storage.  The C target (skel_c*.c) is the first; a CUDA target
 * implements the same table. */
#ifndef NESSLC_CUDAGEN_H
#define NESSLC_CUDAGEN_H

#include "cast.h"
#include "lcu/lcu.h"

/* ---- the driver's entry points ---- */
/* A NESL program's top level (doc/codegen.md "NESL programs"), computed by
 * the driver from the front end and the flattener; the generated main walks
 * it with rt/rt_top.c.  Strings are printed as given. */
typedef struct CgenBind { int global, first, n; } CgenBind;   /* global := components [first, first + n) */
typedef struct CgenForm {
    const char *text;          /* a definition: its result line(s); the rest unused */
    Sym fun;                   /* a value form: its λcu function (parameters: the needs, U layout) */
    const char *name;          /* "it" or the pattern as written; NULL: quiet */
    const char *type;          /* printed type */
    const char *desc;          /* value descriptor of its result (flat_describe) */
    const char *where;         /* "FILE:LINE:COL" of its expression */
    int nneeds;                /* globals passed as parameters, checked bound first */
    const int *needs;
    const int *need_ncomps;    /* their flat components (U layout) */
    const char **need_where;
    int nbinds;
    const CgenBind *binds;
} CgenForm;
typedef struct CgenNesl {
    int nforms;
    const CgenForm *forms;
    int nglobals;
    const char **global_names;
    int print_length;
    /* the value descriptors (argument's, then result's) of a host-bridge
     * tag "U|ARG|RES" / "L|ARG|RES"; NULL: not supported */
    const char *(*describe_tag)(void *ctx, const char *tag);
    void *ctx;
} CgenNesl;

/* Translate a checked, kernel-formed λcu program (no inline SOACs) into one
 * C translation unit using rt/nesl_rt.h: main runs the function main, or,
 * with nesl, the NESL program's forms; float32: NESL float is IEEE single
 * (-ffloat32).  False, after "nesslc: error: ..." lines on err, for what
 * the C back end does not support yet. */
bool cgen_emit_c(FILE *out, FILE *err, const LcuProgram *p, const char *srcname, const CgenNesl *nesl, bool float32);
/* The same program as CUDA C++ (rt/nesl_rt.h and rt/nesl_cuda.cuh); tail:
 * with the block-local tails of lifted recursive functions (gen_tail.c). */
bool cgen_emit_cuda(FILE *out, FILE *err, const LcuProgram *p, const char *srcname, const CgenNesl *nesl, bool float32, bool tail);

typedef struct CgenBuildOptions {
    const char *output;   /* executable to write */
    bool keep;            /* keep OUTPUT.c */
    bool openmp;          /* compile with OpenMP when the compiler has it */
    bool cuda;            /* --target=cuda: nvcc and libnesl_rt_cuda.a */
    const char *arch;     /* nvcc -arch (NULL: sm_90) */
    const CgenNesl *nesl; /* a NESL program's top level, or NULL (λcu main) */
    bool float32;         /* -ffloat32 */
    bool no_tail;         /* -fno-block-tail */
} CgenBuildOptions;

/* Generate C, write it and the runtime sources to a temporary directory and
 * build the executable with the configured C compiler.  Returns the exit
 * status for nesslc (0 on success). */
int cgen_build(const LcuProgram *p, const char *srcname, const CgenBuildOptions *o, FILE *err);

/* ---- shared generator state ---- */
struct Skeletons;
typedef struct Gen {
    Arena *a;
    const LcuProgram *prog;
    const struct Skeletons *skel;
    CUnit *unit;
    FILE *err;
    int nerrors;
    int counter;          /* fresh names: base_N, N unique in the unit */
    CFunc *func;          /* the kernel being generated (its parameters and declarations are the host variables device code may capture) */
    const CgenNesl *nesl; /* NULL for a λcu program */
    bool f32;             /* -ffloat32: NESL float is C float (NESL_F32 vectors) */
    /* set while a kernel's group of independent FILTERs is generated: the
     * statements that read their counts, emitted after the last launch of
     * the group (gen_kernel.c), so the host waits once for all */
    CBlock *counts_later;
    /* per kernel of prog, per result: the host reads it only as
     * filter_sd's kept positions or by # (gen_uses.c) */
    bool **kept_only;
    /* the thunk being generated: its segment-invariant reads, loaded at
     * its top (gen_spec.c), or NULL */
    const struct SpecLoads *spec;
} Gen;

/* The program's kernel of that name, or NULL (gen_host.c). */
const LcuKernel *gen_find_kernel(const LcuProgram *p, Sym k);
/* Is e a call of the builtin `name` (no function of the program has that name)? */
bool gen_builtin_call(const Gen *g, const LcuExpr *e, const char *name);
/* Fill g->kept_only from every run in the program. */
void gen_kernel_uses(Gen *g);
/* Is result j of kernel k read only as filter_sd's kept positions or by #? */
bool gen_kept_only(const Gen *g, const LcuKernel *k, int j);

/* A fresh C identifier "base_N" (base sanitized to [A-Za-z0-9_]). */
const char *gen_fresh(Gen *g, const char *base);
/* Report "nesslc: error: ..." (code generation continues, the result is discarded). */
void gen_error(Gen *g, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* C type of a λcu base type or of a CPU value component ([b], sd); float
 * is double, or float with -ffloat32 (g->f32). */
const char *gen_ctype(const Gen *g, const LcuType *t);
const char *gen_base_ctype(const Gen *g, LcuBase b);
const char *gen_base_enum(const Gen *g, LcuBase b);            /* "NESL_INT", ... */

/* ---- values of λcu variables in the generated code ---- */
typedef struct CVal {
    const LcuType *type;       /* flat λcu type */
    int n;                     /* flat components */
    CExpr **comps;             /* scalars: the value; [b]: a NeslVec *; sd: a NeslSd * */
    CExpr *data, *len;         /* a vector held in locals (kernels): typed data pointer, int64 length */
    const struct GenRange *in_range;  /* an int known to be a valid subscript of these vectors */
    CExpr *at_index;           /* kernels: the element at the SOAC's index, computed, never loaded
                                  (a segment id: gen_kernel_ids) */
    CExpr *segids_of;          /* host: segids (s) not filled, s's NeslSd *; comps[0] fills it where used */
} CVal;

/* The vectors a SOAC's index is a valid subscript of: the one whose length
 * is its size expression, and those fusion proved as long (LcuSoac.same_len;
 * gen_kernel.c checks them on the host before the launch). */
typedef struct GenRange {
    int n;
    const struct CVal **vecs;
    const Sym *syms;
    CExpr **loaded;            /* gen_thunk: vecs[k][index] read into loaded[k] at the
                                  thunk's top (NULL: read where used) */
    const struct CVal *clamp;  /* one of vecs that may be shorter than the size: read
                                  as 0 past its end, the error recorded before the
                                  launch (gen_kernel.c clamp_read), else NULL */
} GenRange;

typedef struct CEnv { Sym name; const CVal *v; const struct CEnv *next; } CEnv;

const CEnv *cenv_bind(Gen *g, const CEnv *env, Sym x, const CVal *v);
const CVal *cenv_find(const CEnv *env, Sym x);     /* an internal error if unbound */
const CVal *cenv_lookup(const CEnv *env, Sym x);   /* NULL if unbound */
CVal *cval_new(Gen *g, const LcuType *t, int n, CExpr **comps);
/* A vector value's data pointer (typed) and length (int64). */
CExpr *cval_data(Gen *g, const CVal *v);
CExpr *cval_len(Gen *g, const CVal *v);

/* Where checked operations (subscripts, integer division, rem/mod, isqrt)
 * record errors: err is a NeslErr *, it the iteration (int64) they belong
 * to.  cpu: CPU-level code, where a user function wins over a builtin of
 * the same name. */
typedef struct ErrCtx {
    CExpr *err, *it;
    bool cpu;
    bool host;       /* host code: with a device target, vector elements are copied from the device */
} ErrCtx;

/* ---- GPU-level expressions and thunks ---- */
/* Emit the statements evaluating e into blk; returns its flat components as
 * C expressions without side effects, valid after those statements.  Works
 * at both levels: CPU-only forms go to the host generator. */
CExpr **gen_expr(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk);

/* Bind a let's names to the components of its right-hand side (each gets a
 * variable unless it is a name or literal). */
const CEnv *gen_bind(Gen *g, const CEnv *env, const LcuBind *b, CExpr **rhs, CBlock *blk);

/* Continuation of a thunk: receives its n flat results (side-effect free,
 * valid in blk) and emits what stores them. */
typedef struct Cont {
    void (*fn)(Gen *g, void *ctx, CBlock *blk, int n, CExpr **res);
    void *ctx;
} Cont;

/* A thunk generator: the thunk and the (kernel) environment it is closed in. */
typedef struct ThunkGen {
    const LcuThunk *thunk;
    const CEnv *env;
    bool may_fail;             /* it contains a checked operation */
    int at;                    /* the parameter that is the SOAC's index, the one a
                                  range is about: 0 for a pull or an index thunk; a
                                  FILTER's predicate the pull's component that is the
                                  index (gen_kernel.c clamp_pred), else -1 */
} ThunkGen;

/* A device thunk's in-range reads at indices that depend only on the
 * element's segment id, literals and scalars, loaded at its top with a
 * bounds select each (gen_spec.c); at: its index parameter.  NULL where
 * none is read under a branch. */
typedef struct SpecLoads { int n; const LcuExpr **reads; CExpr **vals; } SpecLoads;
const SpecLoads *gen_spec_loads(Gen *g, const LcuThunk *th, int at, const CEnv *env, const ErrCtx *ec, CBlock *blk);
/* The loaded value of in-range read e (g->spec), or NULL. */
CExpr *gen_spec_find(const Gen *g, const LcuExpr *e);

/* gen_thunk: bind the thunk's parameters to args (one per flat parameter,
 * of the given bases; range0, if not NULL, holds vectors the argument t->at
 * is a valid index of), emit its body into blk and pass the results to k. */
void gen_thunk(Gen *g, const ThunkGen *t, int nargs, CExpr **args, const LcuBase *bases,
               const GenRange *range0, const ErrCtx *ec, const Cont *k, CBlock *blk);
/* Whether an expression contains a checked operation; for a thunk whose
 * parameter at is a valid subscript of the vectors of range (range may be
 * NULL, at -1), subscripts v[param] of those do not count. */
bool gen_may_fail(const LcuExpr *e);
bool gen_thunk_may_fail(const LcuThunk *t, int at, const GenRange *range);
/* The one vector the thunk reads at its index (its parameter at, as x[i],
 * not x.[i]) on every path through it and that range does not hold;
 * NULL where there are none or several. */
Sym gen_index_read(const LcuThunk *t, int at, const GenRange *range);
/* A range's clamped vector (GenRange.clamp): its name as a string, and the
 * host's check of its length against size before the loop or launch
 * (nesl_index_short into the record rec; CUDA: nesl_cu_index_short, rec
 * the runtime, into the record the next launch takes). */
CExpr *gen_clamp_name(Gen *g, const GenRange *r);
CExpr *gen_clamp_check(Gen *g, const GenRange *r, CExpr *rec, CExpr *size);

/* ---- the skeleton interface ---- */
/* One SOAC of a kernel, ready for its skeleton.  The shared kernel generator
 * has evaluated the size (non-negative, counted in the statistics) and the
 * identity; the skeleton emits the rest into blk and fills out[] with one
 * value per flat result component (in the order of lcu.md's table). */
typedef struct SoacGen {
    const LcuSoac *soac;
    int n;                     /* flat components of τ */
    const LcuBase *tau;        /* their bases */
    ThunkGen pull;             /* argument 1 (ONCE: its thunk) */
    ThunkGen aux;              /* index (PERMUTE), predicate (FILTER, PARTITION) or operator (REDUCE, SCAN) */
    CExpr **ident;             /* REDUCE, SCAN: the identity, n components */
    CExpr *size;               /* int64 name: the index-space size (SEG_: the total) */
    CExpr *kept;               /* FILTER, PARTITION: int64 name of the count kept as given
                                  (LcuSoac.kept: a fact to check, never to trust), or NULL */
    const CVal *sd;            /* SEG_: the segment descriptor */
    const GenRange *range;     /* non-SEG: vectors whose length is the size, if known */
    CExpr *rt;                 /* the NeslRt * */
    ErrCtx err;                /* the kernel's error record for parallel code */
    ErrCtx herr;               /* immediate errors (sequential host code) */
    CBlock *blk;
    const CVal **out;
    bool flag_dead;            /* FILTER: the predicate is its last component itself and
                                  nothing reads that output (all true): a skeleton may
                                  compute the flag in pred instead and leave it empty */
    int pos_comp;              /* FILTER: the flat component of the pull that is its index
                                  (the kept positions, ascending), else -1 */
    bool pos_dead;             /* FILTER: nothing reads that output but filter_sd (gen_uses.c):
                                  a skeleton with rank words may leave it unstored */
    const GenRange *pred_range;  /* FILTER, PARTITION: the vectors the predicate's
                                  parameter aux.at is a valid index of, one of them
                                  clamped (gen_kernel.c clamp_pred; the skeleton checks
                                  its length before the launch), else NULL */
} SoacGen;

typedef void (*SkelFn)(Gen *g, SoacGen *s);
/* A MAP and a REDUCE of one kernel over the same size, neither reading
 * the other's results, in one pass over the index space; false (nothing
 * emitted) where the target does not. */
typedef bool (*SkelPairFn)(Gen *g, SoacGen *map, SoacGen *reduce);
/* make_sd (v, total) of v, result c of a MAP (ints, cannot fail): the
 * MAP's results stored and the descriptor (returned) built in one pass;
 * total < 0: none given. */
typedef CExpr *(*SkelSdFn)(Gen *g, SoacGen *map, int c, CExpr *total);
/* A MAP whose thunk reads the segment ids of sd at its index (gen_kernel_ids):
 * those reads are "sg", the segment the skeleton finds per element. */
typedef void (*SkelSegFn)(Gen *g, SoacGen *map, CExpr *sd);
/* FILTERS_MULTI_MAX FILTERs at most of a kernel's group (g->counts_later
 * set), over one size with alpha-equal pulls, none reading another's
 * results, none with a given count or a dropped flag: one pass over the
 * index space, each FILTER's count read with the group's
 * (gen_kernel.c). */
typedef void (*SkelMultiFn)(Gen *g, SoacGen *filters, int n);
#define FILTERS_MULTI_MAX 4
typedef struct Skeletons {
    const char *target;
    bool device;      /* vector data lives in device memory (host code never dereferences it) */
    SkelFn gen_map, gen_permute, gen_reduce, gen_scan, gen_filter, gen_partition, gen_once;
    SkelFn gen_seg_permute, gen_seg_reduce, gen_seg_scan, gen_seg_filter, gen_seg_partition;
    SkelPairFn gen_map_reduce;   /* may be NULL */
    SkelSdFn gen_map_sd;         /* may be NULL */
    SkelSegFn gen_map_seg;       /* may be NULL */
    SkelMultiFn gen_filters;     /* may be NULL */
} Skeletons;

/* The C (OpenMP) skeletons, and the CUDA ones (skel_cuda*.c). */
const Skeletons *cgen_c_skeletons(void);
const Skeletons *cgen_cuda_skeletons(void);

/* ---- kernels and host code (gen_kernel.c, gen_host.c) ---- */
/* A kernel's C function, made on first use (a run): its name.  Kernels
 * are made where host code runs them, so one whose every run took a
 * variant below (gen_kernel_sd, gen_kernel_ids) is not emitted. */
const char *gen_kernel(Gen *g, const LcuKernel *k);
void gen_function(Gen *g, const LcuFun *f);
/* make_sd of a kernel's result v in one pass: the C function's name, made
 * on first use, or NULL where the kernel or the target does not allow it
 * (gen_kernel.c). */
const char *gen_kernel_sd(Gen *g, const LcuKernel *k, Sym v);
/* A run of a kernel whose parameters marked in virt are segment ids (of one
 * descriptor) that are not filled: the C function, taking that descriptor
 * for each of them, made on first use, or NULL where the kernel or the
 * target does not allow it (gen_kernel.c). */
const char *gen_kernel_ids(Gen *g, const LcuKernel *k, const bool *virt);
/* The C name and result type of a kernel or function (a struct of the
 * components for a tuple). */
const char *gen_kernel_name(Gen *g, Sym k);
const char *gen_fun_name(Gen *g, Sym f);
const char *gen_result_type(Gen *g, const LcuType *t, const char *sname);
/* CPU-only expressions (calls, run, blocks, vector and string literals, lib). */
CExpr **gen_cpu_expr(Gen *g, const CEnv *env, const ErrCtx *ec, const LcuExpr *e, CBlock *blk);
/* Declare a fresh variable initialized to e unless e is a name or literal;
 * returns the expression to use. */
CExpr *gen_hoist(Gen *g, CBlock *blk, const char *type, const char *base, CExpr *e);
/* Declare the result variable (of C type rtype) of a function or kernel
 * from the components of its λcu type t, release the frame taken at mark
 * keeping the result's vectors and sds, and return the variable. */
CExpr *gen_return(Gen *g, CBlock *blk, const LcuType *t, const char *rtype, CExpr **comps, CExpr *rt, CExpr *mark);
/* Unpack a call result of type t held in C variable var (a struct for a tuple). */
CExpr **gen_unpack(Gen *g, const LcuType *t, CExpr *var);

/* ---- the block-local tail (gen_tail.c) ---- */
/* After every function is made: device copies, tail kernels and
 * dispatchers of the lifted recursive functions (CUDA). */
void gen_tails(Gen *g);

/* ---- NESL programs (gen_nesl.c) ---- */
/* A host-bridge lib call (a tag): args are rt and the flat arguments. */
CExpr **gen_bridge(Gen *g, const LcuExpr *e, CExpr **args, CBlock *blk);
/* The form wrappers, the form table and main of a NESL program. */
void gen_nesl_main(Gen *g);

#endif
