/* One dense pull step in one precision; included by tess_dense_reference.c with TESS_R and TESS_FN defined. */
#define R TESS_R

void TESS_FN(tess_dense_step)(const tess_geometry_t *g, const tess_params_t *p, const R *src, R *dst)
{
    static const int cx[19] = TESS_D3Q19_CX, cy[19] = TESS_D3Q19_CY, cz[19] = TESS_D3Q19_CZ;
    const size_t n = (size_t)g->nx * g->ny * g->nz;
    for (int z = 0; z < g->nz; z++)
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                const size_t self = tess_geometry_index(g, x, y, z);
                const tess_material_t *m = &p->mat[g->type[self]];
                if (!tess_kind_is_wet(m->kind)) {
                    for (int i = 0; i < 19; i++)
                        dst[i * n + self] = (R)0;
                    continue;
                }
                R f[19];
                for (int i = 0; i < 19; i++) {
                    size_t up;
                    const uint8_t ut = dense_type(g, x - cx[i], y - cy[i], z - cz[i], &up);
                    if (tess_kind_is_wet(p->mat[ut].kind))
                        f[i] = src[i * n + up];
                    else
                        f[i] = TESS_FN(tess_bounce_back)(i, src[(size_t)TESS_D3Q19_OPP(i) * n + self], &p->mat[ut]);
                }
                TESS_FN(tess_node_collide)(p, m, f);
                for (int i = 0; i < 19; i++)
                    dst[i * n + self] = f[i];
            }
}

#undef R
