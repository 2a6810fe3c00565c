/* The engine's step kernels for D3Q27 (cpu_q_kernels_t.h). */
#define CPU_Q_KERNELS_Q 27
#include "cpu_q_kernels_t.h"
