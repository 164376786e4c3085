/* fusion.h — kernel fusion of kernel-formed λcu (DESIGN.md §5, doc/fusion.md).
 *
 * Per control region of the CPU level (every block: a function body, a
 * branch of an if, a nested block) a program-dependence graph of kernel
 * launches and CPU computations is built; legal vertical and horizontal
 * fusion pairs become an ILP after Robinson et al. (2014) solved with
 * lp_solve (a greedy schedule for regions too large for it); the kernels of
 * each cluster are merged into one, whose SOACs are then rewritten by the
 * rules of the λcu paper's Fig. 5 and horizontal tupling.
 *
 * Input: a checked, kernel-formed program.  Output: a new program (the input
 * is not modified) with the same CPU functions (same names and signatures),
 * to be checked again by the caller.  Kernels of a cluster of one are kept
 * as they are; merged kernels are named KF1, KF2, ... */
#ifndef NESSLC_FUSION_H
#define NESSLC_FUSION_H

#include <stdio.h>
#include "../lcu/lcu.h"

typedef struct FusionOptions {
    FILE *pdg;          /* --emit=pdg: every region's PDG and clusters as Graphviz dot */
    FILE *ilp;          /* --emit=ilp: every solved region's model in LP format */
    int ilp_max_nodes;  /* regions with more fusible nodes take the greedy
                           schedule; 0 = FUSION_ILP_MAX_NODES */
    long ilp_work;      /* lp_solve's budget of abort-callback calls a region
                           (fu_ilp.c); 0 = FUSION_ILP_WORK */
} FusionOptions;

/* Measured (doc/fusion.md): models of up to this many fusible kernel nodes
 * solve in well under a second. */
#define FUSION_ILP_MAX_NODES 64
/* lp_solve's work budget a region, in calls of its abort callback
 * (fu_ilp.c).  Measured (doc/fusion.md): every region of the test,
 * example and bench programs that reaches a proven optimum has found it
 * within 1370 calls; proving it takes up to 51036.  A region out of work
 * takes the better of its best schedule so far and the greedy one. */
#define FUSION_ILP_WORK 20000L

typedef struct FusionReport {
    int regions;            /* regions with at least two kernel launches */
    int ilp_regions;        /* solved by the ILP */
    int greedy_regions;     /* scheduled greedily (too large, or no optimum within the budget) */
    int largest_ilp_nodes;  /* fusible nodes of the largest region the ILP solved */
    double largest_ilp_s;   /* its solve time in seconds */
    double max_ilp_s;       /* the slowest solve */
    long max_ilp_work;      /* the most abort-callback calls of a solve (fu_ilp.c) */
    int ilp_out_of_work;    /* regions whose solve ran out of FUSION_ILP_WORK */
    int ilp_best_so_far;    /* of those, scheduled by the ILP's best schedule (cheaper than greedy) */
    int merged_kernels;     /* kernels built from clusters of two or more */
    int largest_region;     /* bindings of the largest region (PDG nodes) */
} FusionReport;

LcuProgram *fusion_program(Arena *a, Interner *in, const LcuProgram *p,
                           const FusionOptions *o, FusionReport *report);

#endif
