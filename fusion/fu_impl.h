/* fu_impl.h — internals of the fusion phase (fusion.h). */
#ifndef NESSLC_FU_IMPL_H
#define NESSLC_FU_IMPL_H

#include "fusion.h"

typedef struct Fu {
    Arena *a;
    Interner *in;
    const LcuProgram *prog;
    const FusionOptions *opt;
    FusionReport *report;
    PtrVec new_kernels;       /* LcuKernel * made from clusters */
    int kf_counter;
    NameSet kernel_names;     /* every kernel name in use */
    PtrVec sd_access;         /* SdAccess *: the function's segids/offsets/lengths (s) bindings */
} Fu;

/* A CPU binding v = segids (sd), offsets (sd) or lengths (sd) of the
 * function being fused (merged kernels name their parameters after CPU
 * variables, so the rewrite can tell what a kernel's vector is). */
typedef enum { SD_SEGIDS, SD_OFFSETS, SD_LENGTHS } SdAccessKind;
typedef struct SdAccess { Sym v; SdAccessKind kind; Sym sd; } SdAccess;
const SdAccess *fu_sd_access(const Fu *F, Sym v);   /* fu_merge.c */

/* A fresh name base_N not in taken (then added). */
Sym fu_fresh(Fu *F, NameSet *taken, Sym base);

/* Free variables of an expression / thunk / SOAC argument, in order of first
 * occurrence, appended to out (no duplicates). */
void fu_free_vars_expr(Fu *F, const LcuExpr *e, PtrVec *out);
void fu_free_vars_thunk(Fu *F, const LcuThunk *t, PtrVec *out);
void fu_free_vars_arg(Fu *F, const LcuArg *g, PtrVec *out);
/* Every name an expression mentions or binds, into s. */
void fu_all_names_expr(Fu *F, const LcuExpr *e, NameSet *s);

/* A capture-avoiding copier of GPU-level code.  Variables are renamed by
 * the substitution; a binder is renamed (fresh against *taken) when `fresh`
 * is set or when it is in `avoid`.  on_index/on_len may replace x[e] and #x
 * (return NULL to keep them). */
typedef struct Sub Sub;
struct Sub { Sym from; Sym to; const LcuExpr *expr; const Sub *next; };
typedef struct Copier Copier;
struct Copier {
    Fu *F;
    NameSet *taken;
    const NameSet *avoid;
    bool fresh;
    LcuExpr *(*on_index)(Copier *c, Sym vec, LcuExpr *idx, bool inrange, Span sp);
    LcuExpr *(*on_len)(Copier *c, Sym vec, Span sp);
    void *ctx;
};
const Sub *sub_add(Fu *F, const Sub *s, Sym from, Sym to, const LcuExpr *expr);
LcuExpr *fu_copy(Copier *c, const LcuExpr *e, const Sub *s);
/* A thunk copied with its parameters renamed like binders; `using` is left
 * empty (fu_fix_using recomputes every list of a kernel). */
LcuThunk *fu_copy_thunk(Copier *c, const LcuThunk *t, const Sub *s);
LcuArg *fu_copy_arg(Copier *c, const LcuArg *g, const Sub *s);
/* Set every thunk's `using` to its free variables (order of occurrence). */
void fu_fix_using(Fu *F, LcuKernel *k);
/* Does e mention x (free)? */
bool fu_mentions(Fu *F, const LcuExpr *e, Sym x);

/* ---- regions and the PDG (fu_pdg.c) ---- */
typedef enum { NODE_RUN, NODE_CPU } NodeKind;
typedef enum { EDGE_NONE, EDGE_FUSE, EDGE_PREVENT } EdgeKind;

typedef struct Node {
    NodeKind kind;
    LcuBind *bind;              /* the region's binding */
    const LcuKernel *k;         /* NODE_RUN: a one-SOAC kernel */
    LcuSoacKind soac;
    bool effect;                /* keeps its order against every node */
    bool may_fail;              /* NODE_RUN: may raise a runtime error (fu_pdg.c) */
    bool view;                  /* a MAP cheap enough to compute again where it is read (fu_pdg.c) */
    bool segids;                /* NODE_RUN: reads segids (s), or a MAP that does */
    int size_class;             /* NODE_RUN: iteration size (-1: unknown) */
    int alt_class;              /* size once fused with node alt_pred (-1: none) */
    int alt_pred;               /* a FILTER/PERMUTE producer, or a MAP's one
                                   consumer, a SEG_REDUCE/SEG_SCAN; or -1 */
    LcuSoacKind alt_kind;       /* the SOAC it then belongs to */
    bool in_ilp;                /* has a fusion candidate */
    int cluster;                /* result of scheduling */
    PtrVec reads;               /* Sym: CPU variables read (free) */
} Node;

typedef struct Region {
    LcuExpr *block;             /* LE_BLOCK */
    const char *fun;            /* enclosing function (for dot/LP names) */
    int index;                  /* region number within the program */
    int n;
    Node *nodes;
    unsigned char *edge;        /* n*n: EdgeKind of i -> j (i < j) */
    unsigned char *reach;       /* n*n: a path i ->+ j */
    unsigned char *via_cpu;     /* n*n: a path i ->+ j through a node outside the ILP */
    int **succ, *nsucc;         /* per node: its essential successors (every
                                   other successor is reachable from one) */
    bool *exported;             /* per node: a result read after the region's binds */
    int nclusters;
} Region;

/* Iteration-size classes of one function: union-find over keys. */
typedef struct SizeKey { int kind; Sym name; int64_t k; } SizeKey;   /* kind: 0 value, 1 length, 2 constant, 3 sd, 4 total (sd), 5 + op: l op r */
typedef struct Sizes { Fu *F; int n, cap; SizeKey *keys; int *parent; } Sizes;
int sizes_class(Sizes *S, int kind, Sym name, int64_t k);
void sizes_union(Sizes *S, int x, int y);
int sizes_find(Sizes *S, int x);
/* The class of l op r for +, - and * (-1 otherwise, or an operand -1). */
int sizes_binop_class(Sizes *S, LcuBinop op, int l, int r);
void sizes_collect_fun(Sizes *S, const LcuFun *f);

const LcuKernel *fu_find_kernel(const LcuProgram *p, Sym name);
/* Build region r's PDG over block b. */
void pdg_build(Fu *F, Sizes *S, Region *r, LcuExpr *block);
/* Can unordered run nodes i and j share a kernel?  -1: no; otherwise a mask
 * of conditions: 1 = only if i is fused with nodes[i].alt_pred, 2 = only if
 * j is fused with nodes[j].alt_pred (0: always). */
int pdg_horizontal(const Region *r, int i, int j);
/* The CPU argument expression passed for kernel parameter `param` of node. */
const LcuExpr *node_arg_for(const Node *nd, Sym param);
/* The size class of a SOAC's size argument under node's run arguments. */
int node_size_class(Sizes *S, const Node *nd, const LcuArg *size);
bool soac_index_thunk(const LcuSoac *s, int argno);   /* its parameter an index of the SOAC's space */
/* The parameter of argument argno that is an index of the SOAC's space:
 * an index thunk's, or a FILTER's or PARTITION's predicate parameter for a
 * pulled component that is the pull's own index; NULL if none. */
Sym soac_index_param(const LcuSoac *s, int argno);
bool view_inlinable(Fu *F, Sizes *S, const Node *p, const Node *c);   /* fu_pdg.c */
bool reads_node(const Node *c, const Node *p);   /* does c read a result of p (fu_pdg.c) */
/* e is `total (s)` for an sd variable s: s; otherwise NULL. */
Sym total_of(const LcuExpr *e);
/* The class of total (s) for a SEG_ SOAC's sd argument s (-1: unknown). */
int node_total_class(Sizes *S, const Node *nd, const LcuArg *size);
/* Does SEG_ SOAC so read a SEG_FILTER's elements (kernel names elems) only
 * at its own index, and its descriptor t only as its sd argument? */
bool seg_filter_consumer_ok(Fu *F, const LcuSoac *so, int ne, const Sym *elems, Sym t);
/* Does thunk t read the vectors ps only at its parameter (and as #p)?
 * filtered (a consumer over a FILTER's result): never as #p, and its
 * parameter only as that subscript. */
bool thunk_reads_only_at_param(Fu *F, const LcuThunk *t, int n, const Sym *ps, bool filtered);
/* The same at parameter r of a thunk of any arity (none of its parameters
 * one of ps). */
bool thunk_reads_only_at(Fu *F, const LcuThunk *t, Sym r, int n, const Sym *ps, bool filtered);
/* Does an argument use the vectors in ps other than through #p (no_len:
 * at all)? */
bool arg_reads_beyond_len(Fu *F, const LcuArg *g, int n, const Sym *ps, bool no_len);

/* ---- scheduling (fu_ilp.c) ---- */
void schedule_region(Fu *F, Region *r);

/* ---- merging and rewriting (fu_merge.c, fu_rewrite.c) ---- */
/* Replace the region's binds by the scheduled, merged ones. */
void merge_region(Fu *F, Sizes *S, Region *r);
/* Rewrite the SOACs of a merged kernel to fewer ones; same_size says whether
 * two size arguments of k are equal (via the CPU's size classes). */
typedef bool (*SameSize)(void *ctx, const LcuArg *x, const LcuArg *y);
/* views: the results of view MAPs (Node.view), which may be inlined at
 * in-range subscripts at any index */
void rewrite_kernel(Fu *F, LcuKernel *k, NameSet *taken, const NameSet *views, SameSize same, void *ctx);
bool soac_has_pull(LcuSoacKind k);
const LcuArg *soac_size_arg(const LcuSoac *s);

/* ---- output (fu_dot.c) ---- */
void dot_region(Fu *F, const Region *r);

#endif
