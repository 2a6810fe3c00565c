/* Host memory that a run may still take, so that an oversized domain fails at once with the figures instead
 * of allocating (and paging) for minutes. */
#ifndef TESS_MEMORY_H
#define TESS_MEMORY_H

#include "tess_error.h"
#include <stddef.h>

/* Bytes available now: MemAvailable from /proc/meminfo, else free pages from sysconf, capped by the
 * address-space limit (RLIMIT_AS) when one is set; 0 when unknown. */
size_t tess_memory_available(void);

/* TESS_ERR_NOMEM with "<what>: N bytes (X GB) of host memory needed, M bytes (Y GB) available"
 * when `need` exceeds what is available; TESS_OK otherwise, or when the amount is unknown. */
tess_status tess_memory_check(size_t need, const char *what, tess_error_t *err);

#endif
