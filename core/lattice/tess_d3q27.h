/* The D3Q27 lattice: the D3Q19 velocities in the D3Q19 order (so that index i names the same velocity in
 * both), then the eight corners, opposites again at i, i + 1 for odd i. Weights 8/27, 2/27, 1/54, 1/216. */
#ifndef TESS_D3Q27_H
#define TESS_D3Q27_H

#define TESS_D3Q27_Q 27

/*                       O  E   W  N   S  T   B NE  SW  SE  NW  ET  WB  EB  WT  NT  SB  NB  ST
 *                      NET SWB SET NWB NEB SWT NWT SEB */
#define TESS_D3Q27_CX { 0, 1, -1, 0,  0, 0,  0, 1, -1,  1, -1,  1, -1,  1, -1,  0,  0,  0,  0, \
                        1, -1,  1, -1,  1, -1, -1,  1 }
#define TESS_D3Q27_CY { 0, 0,  0, 1, -1, 0,  0, 1, -1, -1,  1,  0,  0,  0,  0,  1, -1,  1, -1, \
                        1, -1, -1,  1,  1, -1,  1, -1 }
#define TESS_D3Q27_CZ { 0, 0,  0, 0,  0, 1, -1, 0,  0,  0,  0,  1, -1, -1,  1,  1, -1, -1,  1, \
                        1, -1,  1, -1, -1,  1,  1, -1 }
#define TESS_D3Q27_NAMES { "O", "E", "W", "N", "S", "T", "B", "NE", "SW", "SE", "NW", \
                           "ET", "WB", "EB", "WT", "NT", "SB", "NB", "ST", \
                           "NET", "SWB", "SET", "NWB", "NEB", "SWT", "NWT", "SEB" }
/* Weights as numerators over TESS_D3Q27_WDEN = 216. */
#define TESS_D3Q27_W { 64, 16, 16, 16, 16, 16, 16, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, \
                       1, 1, 1, 1, 1, 1, 1, 1 }
#define TESS_D3Q27_WDEN 216
#define TESS_D3Q27_OPP { 0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17, \
                         20, 19, 22, 21, 24, 23, 26, 25 }

#endif
