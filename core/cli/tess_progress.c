#define _POSIX_C_SOURCE 200809L
#include "tess_progress.h"
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double tess_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tess_progress_init(tess_progress_t *p, int quiet)
{
    p->active = !quiet && isatty(fileno(stderr));
    p->last_print = -1.0;
    p->width = 0;
}

void tess_progress_update(tess_progress_t *p, double now, long step, long first, long last, double mlups, double eta_s)
{
    if (!p->active || (now - p->last_print < 0.2 && step != last))
        return;
    p->last_print = now;
    const long total = last - first, done = step - first;
    const double pct = total > 0 ? 100.0 * (double)done / (double)total : 100.0;
    char eta[32] = "--";
    if (eta_s >= 0 && eta_s < 1e7)
        snprintf(eta, sizeof eta, "%ldm%02lds", (long)eta_s / 60, (long)eta_s % 60);
    p->width = fprintf(stderr, "\rstep %ld/%ld (%5.1f%%)  %.1f MLUPS  ETA %s   ", step, last, pct, mlups, eta);
    fflush(stderr);
}

void tess_progress_clear(tess_progress_t *p)
{
    if (p->active && p->width > 0) {
        fprintf(stderr, "\r%*s\r", p->width, "");
        p->width = 0;
    }
}
