/* Instantiates a lattice x precision template for D2Q9, D3Q13, D3Q19 and D3Q27, each in double and float (the
 * idea of tess_instantiate.h, one level up): define TESS_QTEMPLATE (the template's file name, a string) and include
 * this file. The template sees
 *   TESS_R, TESS_QP           the precision: double / f64, then float / f32
 *   TESS_QFN(name)            name_<lat>_<prec>, e.g. TESS_QFN(tess_q_collide) = tess_q_collide_d2q9_f64
 *   TESS_QPFN(name)           name_<prec>: the lattice-free functions of tess_physics_t.h
 *   TESS_QL_Q, TESS_QL_D      number of velocities and dimension (2 for D2Q9, whose c_z are all 0)
 *   TESS_QL_CX/CY/CZ, TESS_QL_W (weight numerators over TESS_QL_WDEN), TESS_QL_OPP   table initialisers
 *   TESS_QL_IS_D3Q19          1 for D3Q19 only (the lattice of the planar Zou-He rule)
 *   TESS_QL_PAIRWISE          1 where the equilibrium and the moments take their pairwise form (opposites at
 *                             i, i + 1 for odd i, which every lattice here has): D3Q19 (whose bits the former D3Q19
 *                             kernels fixed) and D3Q27 (a quarter fewer flops in its collision, which the CPU's
 *                             D3Q27 AA needs); D2Q9 and D3Q13 keep the direction-by-direction sums
 * A template may branch on the lattice with `#if TESS_QL_Q == 13` (the Q are distinct). With TESS_QONLY defined to
 * one Q (9, 13, 19 or 27) only that lattice is instantiated: a translation unit per lattice, which compile in
 * parallel (one unit of all four took minutes). The tables come from the
 * compile-time lattice headers, so every lattice constant has one definition. No include guard: every
 * inclusion instantiates another template. */
#ifndef TESS_QTEMPLATE
#error "define TESS_QTEMPLATE (the template's file name) before including tess_instantiate_q.h"
#endif

#include "lattice/tess_d2q9.h"
#include "lattice/tess_d3q13.h"
#include "lattice/tess_d3q27.h"
#include "tess_d3q19.h"

#ifndef TESS_QCAT3
#define TESS_QCAT2_(a, b) a##_##b
#define TESS_QCAT2(a, b) TESS_QCAT2_(a, b)
#define TESS_QCAT3_(a, b, c) a##_##b##_##c
#define TESS_QCAT3(a, b, c) TESS_QCAT3_(a, b, c)
#endif
#define TESS_QFN(name) TESS_QCAT3(name, TESS_QL, TESS_QP)
#define TESS_QPFN(name) TESS_QCAT2(name, TESS_QP)

#if !defined(TESS_QONLY) || TESS_QONLY == 9
#define TESS_QL d2q9
#define TESS_QL_Q TESS_D2Q9_Q
#define TESS_QL_D 2
#define TESS_QL_CX TESS_D2Q9_CX
#define TESS_QL_CY TESS_D2Q9_CY
#define TESS_QL_CZ TESS_D2Q9_CZ
#define TESS_QL_W TESS_D2Q9_W
#define TESS_QL_WDEN TESS_D2Q9_WDEN
#define TESS_QL_OPP TESS_D2Q9_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_QL_PAIRWISE 0
#include "tess_instantiate_lattice.h"
#endif

#if !defined(TESS_QONLY) || TESS_QONLY == 13
#define TESS_QL d3q13
#define TESS_QL_Q TESS_D3Q13_Q
#define TESS_QL_D 3
#define TESS_QL_CX TESS_D3Q13_CX
#define TESS_QL_CY TESS_D3Q13_CY
#define TESS_QL_CZ TESS_D3Q13_CZ
#define TESS_QL_W TESS_D3Q13_W
#define TESS_QL_WDEN TESS_D3Q13_WDEN
#define TESS_QL_OPP TESS_D3Q13_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_QL_PAIRWISE 0
#include "tess_instantiate_lattice.h"
#endif

#if !defined(TESS_QONLY) || TESS_QONLY == 19
#define TESS_QL d3q19
#define TESS_QL_Q TESS_D3Q19_Q
#define TESS_QL_D 3
#define TESS_QL_CX TESS_D3Q19_CX
#define TESS_QL_CY TESS_D3Q19_CY
#define TESS_QL_CZ TESS_D3Q19_CZ
#define TESS_QL_W TESS_D3Q19_W36
#define TESS_QL_WDEN 36
#define TESS_QL_OPP TESS_D3Q19_OPP_TABLE
#define TESS_QL_IS_D3Q19 1
#define TESS_QL_PAIRWISE 1
#include "tess_instantiate_lattice.h"
#endif

#if !defined(TESS_QONLY) || TESS_QONLY == 27
#define TESS_QL d3q27
#define TESS_QL_Q TESS_D3Q27_Q
#define TESS_QL_D 3
#define TESS_QL_CX TESS_D3Q27_CX
#define TESS_QL_CY TESS_D3Q27_CY
#define TESS_QL_CZ TESS_D3Q27_CZ
#define TESS_QL_W TESS_D3Q27_W
#define TESS_QL_WDEN TESS_D3Q27_WDEN
#define TESS_QL_OPP TESS_D3Q27_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_QL_PAIRWISE 1
#include "tess_instantiate_lattice.h"
#endif

#undef TESS_QFN
#undef TESS_QPFN
#undef TESS_QTEMPLATE
