/* rt_put.c — printing a λcu main's result in the λcu interpreter's format.
 * Shared by the CPU and CUDA runtimes: it reads vectors and segment
 * descriptors only through the host-access functions of nesl_rt.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nesl_rt.h"

/* ---- printing: ints in decimal, floats %.15g (-ffloat32: the shortest
 * %g that reads back to the same float) plus ".0" when that shows no '.'
 * or exponent, bools T/F, chars 'a' escaped, unit (), vectors
 * [a, b], segment descriptors sd[lengths] ---- */
static void put_char_escaped(int c)
{
    c &= 255;
    if (c == '\n') fputs("\\n", stdout);
    else if (c == '\t') fputs("\\t", stdout);
    else if (c == '\\') fputs("\\\\", stdout);
    else if (c == '\'') fputs("\\'", stdout);
    else if (c >= ' ' && c <= '~') putchar(c);
    else printf("\\x%02x", c);
}

static void put_int(int64_t x) { printf("%lld", (long long)x); }

static void put_float(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.15g", x);
    if (!strpbrk(buf, ".enia")) strcat(buf, ".0");
    fputs(buf, stdout);
}

static void put_float32(float x)
{
    char buf[64];
    for (int prec = 1; prec <= 9; prec++) {   /* 9 digits always read back */
        snprintf(buf, sizeof buf, "%.*g", prec, (double)x);
        if (isnan(x) || strtof(buf, NULL) == x) break;
    }
    if (!strpbrk(buf, ".enia")) strcat(buf, ".0");
    fputs(buf, stdout);
}

static void put_char(int c)
{
    putchar('\'');
    put_char_escaped(c);
    putchar('\'');
}

void nesl_put_int(NeslRt *rt, int32_t x) { (void)rt; put_int(x); }
void nesl_put_float(NeslRt *rt, double x) { (void)rt; put_float(x); }
void nesl_put_float32(NeslRt *rt, float x) { (void)rt; put_float32(x); }
void nesl_put_bool(NeslRt *rt, bool x) { (void)rt; fputs(x ? "T" : "F", stdout); }
void nesl_put_char(NeslRt *rt, uint8_t x) { (void)rt; put_char(x); }
void nesl_put_unit(NeslRt *rt, uint8_t x) { (void)rt; (void)x; fputs("()", stdout); }
void nesl_put_nl(NeslRt *rt) { (void)rt; putchar('\n'); }

void nesl_put_vec(NeslRt *rt, const NeslVec *v)
{
    const void *data = nesl_vec_host(rt, v);
    putchar('[');
    for (int64_t i = 0; i < v->len; i++) {
        if (i) fputs(", ", stdout);
        switch (v->base) {
        case NESL_INT: put_int(((const int32_t *)data)[i]); break;
        case NESL_FLOAT: put_float(((const double *)data)[i]); break;
        case NESL_F32: put_float32(((const float *)data)[i]); break;
        case NESL_BOOL: fputs(((const bool *)data)[i] ? "T" : "F", stdout); break;
        case NESL_CHAR: put_char(((const uint8_t *)data)[i]); break;
        case NESL_UNIT: fputs("()", stdout); break;
        }
    }
    putchar(']');
}

void nesl_put_sd(NeslRt *rt, const NeslSd *s)
{
    const int32_t *lens = nesl_sd_host_lens(rt, s);
    fputs("sd[", stdout);
    for (int64_t g = 0; g < s->nsegs; g++) {
        if (g) fputs(", ", stdout);
        put_int(lens[g]);
    }
    putchar(']');
}

