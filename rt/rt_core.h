/* rt_core.h — the part of a runtime object that does not depend on the
 * target (internal to rt/): the region stack of objects, the call depth,
 * statistics, options, the immediate error record and the NESL top level's
 * hooks.  rt_core.c implements on it everything of nesl_rt.h that is the
 * same on the CPU and the GPU (frames, errors, statistics, options); each
 * target runtime embeds a NeslCore in its NeslRt and provides the four
 * functions below. */
#ifndef NESL_RT_CORE_H
#define NESL_RT_CORE_H

#include "nesl_rt.h"

typedef struct NeslCore {
    NeslObj **objs;          /* the region stack: objects of all live frames */
    size_t nobjs, cobjs;
    int depth;
    bool stats;              /* --stats */
    int repeat;              /* --repeat=R; 0 when not given */
    bool float32;            /* compiled with -ffloat32 (nesl_set_float32) */
    long kernels, soac_launches[NESL_NSOACS], soac_elements[NESL_NSOACS], lib_calls, lib_elements;
    bool kstats;             /* --stats=kernels: also per kernel, in launch order */
    bool ktime;              /* --stats=time: kstats plus each kernel's time */
    double timer_wall0;      /* nesl_timer_start's host clock */
    struct NeslKStat { const char *name; long launches; long long rd, wr; double ms, t0; } *kst;
    int nkst, ckst;
    int nsites;
    const char *const *sites;
    NeslErr herr;            /* immediate errors of host code */
    struct NeslHost *host;   /* NESL programs: rt_top.c's state */
    void (*error_hook)(NeslRt *rt);
} NeslCore;

NESL_C_BEGIN

/* ---- provided by the target runtime ---- */
NeslCore *nesl_core(NeslRt *rt);
/* Free an object of the region stack (and what it owns). */
void nesl_tgt_free_obj(NeslRt *rt, NeslObj *o);
/* Before a NESL program goes on after a runtime error: forget the target's
 * pending error state (the GPU's device error record). */
void nesl_tgt_reset(NeslRt *rt);
/* Before a host error is reported: report instead an error of device code
 * launched earlier and not checked yet (the GPU's deferred checks), if any. */
void nesl_tgt_flush_errors(NeslRt *rt);

/* ---- rt_core.c ---- */
/* Initialize c for rt from the program's options (--stats, --repeat=R;
 * anything else: usage message, exit 2). */
void nesl_core_init(NeslRt *rt, NeslCore *c, int argc, char **argv, int nsites, const char *const *sites);
/* Push a new object on the region stack. */
void nesl_core_push(NeslRt *rt, NeslObj *o);
/* dist_sd(n, l)'s arguments: fail unless n, l >= 0 and n * l fits an int. */
void nesl_dist_sd_check(NeslRt *rt, int32_t n, int32_t l);
/* The SOAC's name, as the interpreter's statistics print it. */
const char *nesl_soac_name(NeslSoac k);

NESL_C_END

#endif
