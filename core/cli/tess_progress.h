/* The run's progress line: on a terminal one line rewritten in place (step, percent, MLUPS, ETA),
 * throttled to a few updates a second; elsewhere (files, pipes, --quiet) nothing. */
#ifndef TESS_PROGRESS_H
#define TESS_PROGRESS_H

typedef struct {
    int active;
    double last_print;
    int width;
} tess_progress_t;

void tess_progress_init(tess_progress_t *p, int quiet);
void tess_progress_update(tess_progress_t *p, double now, long step, long first, long last, double mlups, double eta_s);
/* Clears the line before other output. */
void tess_progress_clear(tess_progress_t *p);

/* Monotonic wall clock in seconds. */
double tess_wall_seconds(void);

#endif
