/* The 19 x 64 populations of one tile, node index fastest (L_XYZ), as the CPU patterns gather, collide and store
 * them. Included inside a precision template (TESS_R as R, TESS_FN defined), once per instantiation. */

typedef struct {
    _Alignas(64) R f[19][64]; /* aligned for the streaming stores of the AB pattern */
} TESS_FN(cpu_tile_buffer);
