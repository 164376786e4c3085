/* rt_math.c — the float functions of nesl_rt.h, out of line so that the C
 * compiler never folds them at compile time (the λcu interpreter calls the
 * C library at run time).  Shared by the CPU runtime and the C parts of the
 * CUDA runtime library. */
#include <math.h>
#include "nesl_rt.h"

double nesl_m_sqrt(double x) { return sqrt(x); }
double nesl_m_ln(double x) { return log(x); }
double nesl_m_exp(double x) { return exp(x); }
double nesl_m_sin(double x) { return sin(x); }
double nesl_m_cos(double x) { return cos(x); }
double nesl_m_tan(double x) { return tan(x); }
double nesl_m_asin(double x) { return asin(x); }
double nesl_m_acos(double x) { return acos(x); }
double nesl_m_atan(double x) { return atan(x); }
double nesl_m_sinh(double x) { return sinh(x); }
double nesl_m_cosh(double x) { return cosh(x); }
double nesl_m_tanh(double x) { return tanh(x); }
double nesl_m_expt(double x, double p) { return nesl_expt(x, p); }
