/* Temporary files of the atomic writes (tess_file.h): named "<final name>.<pid>.tmp", a name no output has, and
 * listed here while they exist so that a signal handler can remove them (tess_signal.h) with async-signal-safe
 * calls only. A run also removes the temporaries that a killed run (SIGKILL, power loss) left in its folder. */
#ifndef TESS_TMP_H
#define TESS_TMP_H

#include <stddef.h>

/* "<path>.<pid>.tmp" into out; 0 when it does not fit. */
int tess_tmp_name(const char *path, char *out, size_t len);
/* Lists a temporary file before it is created; returns its slot, or -1 when every slot is taken (the file is
 * still written and removed normally; only an abrupt end would then leave it behind). */
int tess_tmp_register(const char *tmp_path);
/* Removes slot from the list (after the file was renamed into place or removed); -1 is ignored. */
void tess_tmp_unregister(int slot);
/* Unlinks every listed file. Async-signal-safe: unlink(2) only, no allocation, no stdio. */
void tess_tmp_unlink_all(void);
/* Removes, in folder dir, the temporaries ("*.<pid>.tmp") of processes that no longer run; returns how many. */
int tess_tmp_remove_stale(const char *dir);

#endif
