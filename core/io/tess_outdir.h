/* The output folder of a run (docs/reliability.md, "Output folders"): a folder that holds another run's fields is
 * refused unless the run overwrites it or restarts from a restart file in it; nothing is created or removed
 * until the case has been checked; a folder the run made and left empty is removed again. */
#ifndef TESS_OUTDIR_H
#define TESS_OUTDIR_H

#include "tess_error.h"

typedef struct {
    char path[1100];
    char created[1100]; /* the topmost folder this run made ("" when the folder existed) */
} tess_outdir_t;

/* Prepares dir for a run. In a folder with fields_*.vti files: with overwrite, removes every output first
 * (fields_, wss_ and average_<step> files, fields.pvd and other *.pvd / *.series, monitor.csv, summary.json,
 * probe_*.csv, line_*.csv, and restart.tsr and average.restart unless the run restarts from that folder); with
 * restart (a restart file inside dir, at step restart_step) removes the per-step outputs after restart_step,
 * which the restarted run writes again; with neither, TESS_ERR_INPUT naming the way out. Also removes the
 * temporaries of killed runs (tess_tmp.h). Creates the folder and its parents when missing. */
tess_status tess_outdir_prepare(tess_outdir_t *d, const char *dir, int overwrite, const char *restart,
                                long restart_step, tess_error_t *err);
/* Removes the folders that tess_outdir_prepare made if they are still empty (a run that failed before writing). */
void tess_outdir_remove_if_empty(const tess_outdir_t *d);

#endif
