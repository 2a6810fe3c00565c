/* Host memory available (tess_memory.h). MemAvailable counts reclaimable page cache, which sysconf's free
 * pages do not, so it is preferred; the sysconf figure is the fallback for systems without /proc. */
#define _DEFAULT_SOURCE
#include "tess_memory.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static size_t system_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb = 0;
        int found = 0;
        while (!found && fgets(line, sizeof line, f))
            found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
        fclose(f);
        if (found)
            return (size_t)kb * 1024u;
    }
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return (size_t)pages * (size_t)size;
#endif
    return 0;
}

size_t tess_memory_available(void)
{
    /* An address-space limit (ulimit -v, batch systems) caps what this process may take whatever is free. */
    size_t avail = system_available();
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (avail == 0 || (size_t)rl.rlim_cur < avail))
        avail = (size_t)rl.rlim_cur;
    return avail;
}

tess_status tess_memory_check(size_t need, const char *what, tess_error_t *err)
{
    const size_t avail = tess_memory_available();
    if (avail == 0 || need <= avail)
        return TESS_OK;
    return tess_fail(err, TESS_ERR_NOMEM,
                     "%s: %zu bytes (%.1f GB) of host memory needed, %zu bytes (%.1f GB) available", what,
                     need, (double)need / 1e9, avail, (double)avail / 1e9);
}
