/* The engine's step kernels for D3Q13 (cpu_q_kernels_t.h). */
#define CPU_Q_KERNELS_Q 13
#include "cpu_q_kernels_t.h"
