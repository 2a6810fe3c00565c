#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "tess_setup.h"
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

double tess_setup_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *tess_setup_stage_name(int stage)
{
    static const char *const names[TESS_SETUP_STAGES] = {"case", "tiling", "links", "backend", "initialise"};
    return stage >= 0 && stage < TESS_SETUP_STAGES ? names[stage] : "?";
}

double tess_setup_total(const tess_setup_t *s)
{
    double t = 0.0;
    for (int i = 0; i < TESS_SETUP_STAGES; i++)
        t += s->seconds[i];
    return t;
}

size_t tess_setup_host_peak(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0 || u.ru_maxrss <= 0)
        return 0;
    return (size_t)u.ru_maxrss * 1024u; /* kilobytes on Linux */
}

void tess_setup_format(const tess_setup_t *s, char *buf, size_t len)
{
    int n = snprintf(buf, len, "set-up %.2f s (", tess_setup_total(s));
    for (int i = 0; i < TESS_SETUP_STAGES && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%s %.2f", i ? ", " : "", tess_setup_stage_name(i), s->seconds[i]);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "); host peak %.2f GB", (double)tess_setup_host_peak() / 1e9);
}
