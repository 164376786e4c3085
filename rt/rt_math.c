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

float nesl_mf_sqrt(float x) { return sqrtf(x); }
float nesl_mf_ln(float x) { return logf(x); }
float nesl_mf_exp(float x) { return expf(x); }
float nesl_mf_sin(float x) { return sinf(x); }
float nesl_mf_cos(float x) { return cosf(x); }
float nesl_mf_tan(float x) { return tanf(x); }
float nesl_mf_asin(float x) { return asinf(x); }
float nesl_mf_acos(float x) { return acosf(x); }
float nesl_mf_atan(float x) { return atanf(x); }
float nesl_mf_sinh(float x) { return sinhf(x); }
float nesl_mf_cosh(float x) { return coshf(x); }
float nesl_mf_tanh(float x) { return tanhf(x); }
float nesl_mf_expt(float x, float p) { return nesl_exptf(x, p); }
