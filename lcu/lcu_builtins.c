/* lcu_builtins.c — the builtin table shared by the checker and the
 * interpreter: scalar builtins (GPU and CPU level), the names of the CPU-only
 * builtins, and the library kernels the interpreter implements itself.
 * The scalar semantics are NESL's, from rt/nesl_scalar.h. */
#include <math.h>
#include <string.h>
#include "lcu_internal.h"
#include "rt/nesl_scalar.h"

#define I_ LB_INT
#define F_ LB_FLOAT
#define C_ LB_CHAR
#define B_ LB_BOOL

static const LcuBuiltin builtins[] = {
    { "rem", LBI_REM, 2, { I_, I_ }, I_ },
    { "mod", LBI_MOD, 2, { I_, I_ }, I_ },
    { "lshift", LBI_LSHIFT, 2, { I_, I_ }, I_ },
    { "rshift", LBI_RSHIFT, 2, { I_, I_ }, I_ },
    { "band", LBI_BAND, 2, { I_, I_ }, I_ },
    { "bor", LBI_BOR, 2, { I_, I_ }, I_ },
    { "bxor", LBI_BXOR, 2, { I_, I_ }, I_ },
    { "bnot", LBI_BNOT, 1, { I_ }, I_ },
    { "ipow", LBI_IPOW, 2, { I_, I_ }, I_ },
    { "fpow", LBI_FPOW, 2, { F_, I_ }, F_ },
    { "isqrt", LBI_ISQRT, 1, { I_ }, I_ },
    { "sqrt", LBI_SQRT, 1, { F_ }, F_ },
    { "ln", LBI_LN, 1, { F_ }, F_ },
    { "exp", LBI_EXP, 1, { F_ }, F_ },
    { "sin", LBI_SIN, 1, { F_ }, F_ },
    { "cos", LBI_COS, 1, { F_ }, F_ },
    { "tan", LBI_TAN, 1, { F_ }, F_ },
    { "asin", LBI_ASIN, 1, { F_ }, F_ },
    { "acos", LBI_ACOS, 1, { F_ }, F_ },
    { "atan", LBI_ATAN, 1, { F_ }, F_ },
    { "sinh", LBI_SINH, 1, { F_ }, F_ },
    { "cosh", LBI_COSH, 1, { F_ }, F_ },
    { "tanh", LBI_TANH, 1, { F_ }, F_ },
    { "fabs", LBI_FABS, 1, { F_ }, F_ },
    { "expt", LBI_EXPT, 2, { F_, F_ }, F_ },
    { "trunc", LBI_TRUNC, 1, { F_ }, I_ },
    { "floor", LBI_FLOOR, 1, { F_ }, I_ },
    { "ceil", LBI_CEIL, 1, { F_ }, I_ },
    { "round", LBI_ROUND, 1, { F_ }, I_ },
    { "code_char", LBI_CODE_CHAR, 1, { I_ }, C_ },
    { "char_code", LBI_CHAR_CODE, 1, { C_ }, I_ },
    { "btoi", LBI_BTOI, 1, { B_ }, I_ },
    { "min", LBI_IMIN, 2, { I_, I_ }, I_ },
    { "min", LBI_FMIN, 2, { F_, F_ }, F_ },
    { "min", LBI_CMIN, 2, { C_, C_ }, C_ },
    { "max", LBI_IMAX, 2, { I_, I_ }, I_ },
    { "max", LBI_FMAX, 2, { F_, F_ }, F_ },
    { "max", LBI_CMAX, 2, { C_, C_ }, C_ },
    { "iabs", LBI_IABS, 1, { I_ }, I_ },
    /* guard (failed, site, kind): NESL's error kind (rt/nesl_scalar.h) at
     * the site when failed; the interpreter reports it (li_apply_builtin) */
    { "guard", LBI_GUARD, 3, { B_, I_, I_ }, LB_UNIT },
    /* div_in (a, b) = a / b where 0 <= a and 0 < b by construction (the
     * segment of element a of segments of length b): unchecked in the
     * generated code; the interpreter checks the promise (li_apply_builtin) */
    { "div_in", LBI_DIV_IN, 2, { I_, I_ }, I_ },
    /* pos_in (r, l) = r where 0 <= r < l by construction (a position in
     * a segment of length l): fusion reads the segment of an element at
     * offsets (s)[k] + pos_in (r, lengths (s)[k]) as k (fu_rewrite.c) */
    { "pos_in", LBI_POS_IN, 2, { I_, I_ }, I_ },
};
#define NBUILTINS (int)(sizeof builtins / sizeof builtins[0])

const LcuBuiltin *lcu_builtin_find(const char *name, int nargs, const LcuBase *args)
{
    for (int i = 0; i < NBUILTINS; i++) {
        const LcuBuiltin *b = &builtins[i];
        if (strcmp(b->name, name) || b->nargs != nargs) continue;
        bool ok = true;
        for (int j = 0; j < nargs; j++) ok = ok && b->args[j] == args[j];
        if (ok) return b;
    }
    return NULL;
}

bool lcu_builtin_exists(const char *name)
{
    for (int i = 0; i < NBUILTINS; i++)
        if (!strcmp(builtins[i].name, name)) return true;
    return false;
}

const char *lcu_builtin_sigs(Arena *a, const char *name)
{
    char buf[256];
    size_t n = 0;
    int count = 0, total = 0;
    buf[0] = 0;
    for (int i = 0; i < NBUILTINS; i++) total += !strcmp(builtins[i].name, name);
    for (int i = 0; i < NBUILTINS; i++) {
        const LcuBuiltin *b = &builtins[i];
        if (strcmp(b->name, name)) continue;
        count++;
        const char *sep = count == 1 ? "" : count == total ? " or " : ", ";
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s(", sep);
        for (int j = 0; j < b->nargs && n < sizeof buf; j++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", j ? ", " : "", lcu_base_name(b->args[j]));
        if (n < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, ")");
        if (n >= sizeof buf) break;
    }
    return arena_strndup(a, buf, strlen(buf));
}

LcuScalar lcu_builtin_apply(const LcuBuiltin *b, const LcuScalar *a, const char **err)
{
    LcuScalar r = { 0 };
    int32_t x = (int32_t)a[0].i, y = b->nargs > 1 ? (int32_t)a[1].i : 0;
    double f = a[0].f;
    switch (b->id) {
    case LBI_REM: case LBI_MOD:
        if (y == 0) { *err = "integer division by zero"; return r; }
        r.i = b->id == LBI_REM ? nesl_rem(x, y) : nesl_mod(x, y);
        return r;
    case LBI_LSHIFT: r.i = nesl_lshift(x, y); return r;
    case LBI_RSHIFT: r.i = nesl_rshift(x, y); return r;
    case LBI_BAND: r.i = nesl_band(x, y); return r;
    case LBI_BOR: r.i = nesl_bor(x, y); return r;
    case LBI_BXOR: r.i = nesl_bxor(x, y); return r;
    case LBI_BNOT: r.i = nesl_bnot(x); return r;
    case LBI_IPOW: r.i = nesl_ipow(x, y); return r;
    case LBI_FPOW: r.f = nesl_fpow(f, y); return r;
    case LBI_ISQRT:
        if (x < 0) { *err = "negative argument"; return r; }
        r.i = nesl_isqrt(x);
        return r;
    case LBI_SQRT: r.f = sqrt(f); return r;
    case LBI_LN: r.f = log(f); return r;
    case LBI_EXP: r.f = exp(f); return r;
    case LBI_SIN: r.f = sin(f); return r;
    case LBI_COS: r.f = cos(f); return r;
    case LBI_TAN: r.f = tan(f); return r;
    case LBI_ASIN: r.f = asin(f); return r;
    case LBI_ACOS: r.f = acos(f); return r;
    case LBI_ATAN: r.f = atan(f); return r;
    case LBI_SINH: r.f = sinh(f); return r;
    case LBI_COSH: r.f = cosh(f); return r;
    case LBI_TANH: r.f = tanh(f); return r;
    case LBI_FABS: r.f = fabs(f); return r;
    case LBI_EXPT: r.f = nesl_expt(f, a[1].f); return r;
    case LBI_TRUNC: r.i = nesl_trunc(f); return r;
    case LBI_FLOOR: r.i = nesl_floor(f); return r;
    case LBI_CEIL: r.i = nesl_ceil(f); return r;
    case LBI_ROUND: r.i = nesl_round(f); return r;
    case LBI_CODE_CHAR: r.i = nesl_code_char(x); return r;
    case LBI_CHAR_CODE: r.i = x; return r;
    case LBI_BTOI: r.i = nesl_btoi(x != 0); return r;
    case LBI_IMIN: case LBI_CMIN: r.i = nesl_imin(x, y); return r;
    case LBI_IMAX: case LBI_CMAX: r.i = nesl_imax(x, y); return r;
    case LBI_FMIN: r.f = nesl_fmin(f, a[1].f); return r;
    case LBI_FMAX: r.f = nesl_fmax(f, a[1].f); return r;
    case LBI_IABS: r.i = nesl_iabs(x); return r;
    case LBI_GUARD: return r;
    case LBI_DIV_IN:
        if (x < 0 || y <= 0) { *err = "in-range division out of range"; return r; }
        r.i = x / y;
        return r;
    case LBI_POS_IN:
        if (x < 0 || x >= y) { *err = "in-segment position out of range"; return r; }
        r.i = x;
        return r;
    }
    return r;
}

static const char *const cpu_builtins[] = { "make_sd", "dist_sd", "sum_sd", "cat_sd", "zip_sd", "filter_sd", "lengths", "offsets", "segids", "total", "check" };

bool lcu_cpu_builtin_exists(const char *name)
{
    for (size_t i = 0; i < sizeof cpu_builtins / sizeof cpu_builtins[0]; i++)
        if (!strcmp(cpu_builtins[i], name)) return true;
    return false;
}

LcuLibKind lcu_lib_kind(const char *name, const char *tag)
{
    static const struct { const char *name; LcuLibKind kind; } libs[] = {
        { "rank_up", LLIB_RANK_UP }, { "rank_down", LLIB_RANK_DOWN },
        { "seg_rank_up", LLIB_SEG_RANK_UP }, { "seg_rank_down", LLIB_SEG_RANK_DOWN },
        { "clock", LLIB_CLOCK },
    };
    if (tag[0]) return LLIB_NONE;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (!strcmp(libs[i].name, name)) return libs[i].kind;
    return LLIB_NONE;
}
