/* The engine's step kernels for D2Q9 (cpu_q_kernels_t.h). */
#define CPU_Q_KERNELS_Q 9
#include "cpu_q_kernels_t.h"
