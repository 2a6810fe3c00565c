/* One lattice of tess_instantiate_q.h: instantiates TESS_QTEMPLATE for the lattice whose TESS_QL* macros are
 * defined, in double and then float, and undefines them for the next lattice. No include guard. */
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
#undef TESS_QL_D
#undef TESS_QL_CX
#undef TESS_QL_CY
#undef TESS_QL_CZ
#undef TESS_QL_W
#undef TESS_QL_WDEN
#undef TESS_QL_OPP
#undef TESS_QL_IS_D3Q19
#undef TESS_QL_PAIRWISE
