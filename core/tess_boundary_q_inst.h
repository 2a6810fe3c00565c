/* Instantiates a lattice x precision template for D2Q9, D3Q13, D3Q19 and D3Q27, each in double and float:
 * define TESS_QTEMPLATE (the template's file name, a string) and include this file. The template sees
 *   TESS_R, TESS_QFN(name)   the precision and the name name_<lat>_<prec> (e.g. tess_q_pull_d2q9_f64)
 *   TESS_QL_Q, TESS_QL_CX/CY/CZ, TESS_QL_W (weight numerators over TESS_QL_WDEN), TESS_QL_OPP (initialisers)
 *   TESS_QL_IS_D3Q19         1 for D3Q19 only (the Zou-He planes of tess_physics_t.h exist there only)
 * The tables are the compile-time lattice headers (core/lattice/, D3Q19: core/tess_d3q19.h), so there is one
 * definition of every lattice constant. No include guard: every inclusion instantiates another template. */
#ifndef TESS_QTEMPLATE
#error "define TESS_QTEMPLATE (the template's file name) before including tess_boundary_q_inst.h"
#endif

#define TESS_QCAT3_(a, b, c) a##_##b##_##c
#define TESS_QCAT3(a, b, c) TESS_QCAT3_(a, b, c)
#define TESS_QFN(name) TESS_QCAT3(name, TESS_QL, TESS_QP)


#define TESS_QL d2q9
#define TESS_QL_Q TESS_D2Q9_Q
#define TESS_QL_CX TESS_D2Q9_CX
#define TESS_QL_CY TESS_D2Q9_CY
#define TESS_QL_CZ TESS_D2Q9_CZ
#define TESS_QL_W TESS_D2Q9_W
#define TESS_QL_WDEN TESS_D2Q9_WDEN
#define TESS_QL_OPP TESS_D2Q9_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_R double
#define TESS_QP f64
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#define TESS_R float
#define TESS_QP f32
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#undef TESS_QL
#undef TESS_QL_Q
#undef TESS_QL_CX
#undef TESS_QL_CY
#undef TESS_QL_CZ
#undef TESS_QL_W
#undef TESS_QL_WDEN
#undef TESS_QL_OPP
#undef TESS_QL_IS_D3Q19

#define TESS_QL d3q13
#define TESS_QL_Q TESS_D3Q13_Q
#define TESS_QL_CX TESS_D3Q13_CX
#define TESS_QL_CY TESS_D3Q13_CY
#define TESS_QL_CZ TESS_D3Q13_CZ
#define TESS_QL_W TESS_D3Q13_W
#define TESS_QL_WDEN TESS_D3Q13_WDEN
#define TESS_QL_OPP TESS_D3Q13_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_R double
#define TESS_QP f64
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#define TESS_R float
#define TESS_QP f32
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#undef TESS_QL
#undef TESS_QL_Q
#undef TESS_QL_CX
#undef TESS_QL_CY
#undef TESS_QL_CZ
#undef TESS_QL_W
#undef TESS_QL_WDEN
#undef TESS_QL_OPP
#undef TESS_QL_IS_D3Q19

#define TESS_QL d3q19
#define TESS_QL_Q TESS_D3Q19_Q
#define TESS_QL_CX TESS_D3Q19_CX
#define TESS_QL_CY TESS_D3Q19_CY
#define TESS_QL_CZ TESS_D3Q19_CZ
#define TESS_QL_W TESS_D3Q19_W36
#define TESS_QL_WDEN 36
#define TESS_QL_OPP {0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17}
#define TESS_QL_IS_D3Q19 1
#define TESS_R double
#define TESS_QP f64
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#define TESS_R float
#define TESS_QP f32
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#undef TESS_QL
#undef TESS_QL_Q
#undef TESS_QL_CX
#undef TESS_QL_CY
#undef TESS_QL_CZ
#undef TESS_QL_W
#undef TESS_QL_WDEN
#undef TESS_QL_OPP
#undef TESS_QL_IS_D3Q19

#define TESS_QL d3q27
#define TESS_QL_Q TESS_D3Q27_Q
#define TESS_QL_CX TESS_D3Q27_CX
#define TESS_QL_CY TESS_D3Q27_CY
#define TESS_QL_CZ TESS_D3Q27_CZ
#define TESS_QL_W TESS_D3Q27_W
#define TESS_QL_WDEN TESS_D3Q27_WDEN
#define TESS_QL_OPP TESS_D3Q27_OPP
#define TESS_QL_IS_D3Q19 0
#define TESS_R double
#define TESS_QP f64
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#define TESS_R float
#define TESS_QP f32
#include TESS_QTEMPLATE
#undef TESS_R
#undef TESS_QP
#undef TESS_QL
#undef TESS_QL_Q
#undef TESS_QL_CX
#undef TESS_QL_CY
#undef TESS_QL_CZ
#undef TESS_QL_W
#undef TESS_QL_WDEN
#undef TESS_QL_OPP
#undef TESS_QL_IS_D3Q19

#undef TESS_QFN
#undef TESS_QCAT3
#undef TESS_QCAT3_
#undef TESS_QTEMPLATE
