/* The engine's step kernels for the lattice CPU_Q_KERNELS_Q names, in both precisions: the body of each
 * cpu_q_kernels_<lattice>.c (one translation unit per lattice, so that they compile in parallel). No include
 * guard: each unit includes it once. */
#ifndef CPU_Q_KERNELS_Q
#error "define CPU_Q_KERNELS_Q (9, 13, 19 or 27) before including cpu_q_kernels_t.h"
#endif
#include "cpu_q_kernels.h"
#include "cpu_q_mr_window.h"
#include "cpu_stream.h"
#include "tess_physics_q.h"
#include "tess_state.h"
#include "tess_state_mr.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The node-by-node collision of the models without a vectorised copy: out of line, and with gcc not vectorised
 * (vectorising it cost compile minutes for nothing); clang (the fuzz build) has no such attribute. */
#if defined(__GNUC__) && !defined(__clang__)
#define CPU_Q_NO_VECTORIZE __attribute__((noinline, optimize("no-tree-vectorize")))
#else
#define CPU_Q_NO_VECTORIZE __attribute__((noinline))
#endif

/* After the headers: the core's physics is instantiated for every lattice, the kernels for this one only. */
#define TESS_QONLY CPU_Q_KERNELS_Q
#define TESS_QTEMPLATE "cpu_q_step_t.h"
#include "tess_instantiate_q.h"
#define TESS_QTEMPLATE "cpu_q_mr_window_t.h" /* MR with one copy: uses cpu_q_step_t.h's row pull */
#include "tess_instantiate_q.h"
#undef TESS_QONLY
