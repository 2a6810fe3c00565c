/* The engine's step kernels and the curved links' coefficients at initialise, per lattice and precision
 * (cpu_q_step_t.h, cpu_q_mr_window_t.h),
 * instantiated in cpu_q_kernels_<lattice>.c and called by cpu_q.c's dispatch. */
#ifndef TESS_CPU_Q_KERNELS_H
#define TESS_CPU_Q_KERNELS_H

#include "cpu_q.h"

#define CPU_Q_KERNELS_DECLARE(lat, prec)                                                                           \
    void cpu_q_step_##lat##_##prec(tess_cpu_q_t *be, int part);                                                   \
    void cpu_q_mr_window_step_##lat##_##prec(tess_cpu_q_t *be, int part);                                        \
    void cpu_q_link_coefs_##lat##_##prec(tess_cpu_q_t *be);

CPU_Q_KERNELS_DECLARE(d2q9, f64)
CPU_Q_KERNELS_DECLARE(d2q9, f32)
CPU_Q_KERNELS_DECLARE(d3q13, f64)
CPU_Q_KERNELS_DECLARE(d3q13, f32)
CPU_Q_KERNELS_DECLARE(d3q19, f64)
CPU_Q_KERNELS_DECLARE(d3q19, f32)
CPU_Q_KERNELS_DECLARE(d3q27, f64)
CPU_Q_KERNELS_DECLARE(d3q27, f32)

#endif
