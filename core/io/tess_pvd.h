/* fields.pvd: the ParaView collection of a run's field files, one entry per file with its step and time, so that
 * ParaView steps through physical time instead of file indices (docs/outputs.md). Rewritten whole and atomically
 * (tess_file.h) each time a file is added, so it always lists exactly the files that exist. */
#ifndef TESS_PVD_H
#define TESS_PVD_H

#include "tess_error.h"

typedef struct {
    long step;
    double time;
    char file[64]; /* relative to the collection's folder */
} tess_pvd_entry_t;

typedef struct {
    char path[1100];
    tess_pvd_entry_t *e;
    int n, cap;
} tess_pvd_t;

/* Starts the collection at path. With keep_before >= 0 the entries of an existing file whose step is below
 * keep_before are kept (a restarted run continues its collection); otherwise it starts empty. An unreadable or
 * foreign file is started afresh. Nothing is written until the first tess_pvd_add. */
tess_status tess_pvd_open(tess_pvd_t *p, const char *path, long keep_before, tess_error_t *err);
/* Adds (or replaces, for the same step) an entry and rewrites the collection. */
tess_status tess_pvd_add(tess_pvd_t *p, long step, double time, const char *file, tess_error_t *err);
void tess_pvd_free(tess_pvd_t *p);

#endif
