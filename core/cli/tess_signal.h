/* SIGINT and SIGTERM during a run (docs/reliability.md): the first one only raises a flag that the run loop
 * polls between chunks of steps, so the run ends cleanly (checkpoint, summary.json, status 130 or 143); a
 * second one removes the temporary files being written (tess_tmp.h) and ends the process at once with the
 * same status. */
#ifndef TESS_SIGNAL_H
#define TESS_SIGNAL_H

/* Installs the handlers for SIGINT and SIGTERM and clears the flag; tess_signal_restore puts back what was
 * there before. */
void tess_signal_install(void);
void tess_signal_restore(void);
/* The signal received (SIGINT or SIGTERM), or 0. */
int tess_signal_pending(void);
/* "SIGINT", "SIGTERM" or "signal N". */
const char *tess_signal_name(int sig);
/* The exit status for a run ended by sig: 128 + sig (130 for SIGINT, 143 for SIGTERM), as shells report it. */
int tess_signal_exit_code(int sig);

#endif
