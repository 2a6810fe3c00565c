#define _POSIX_C_SOURCE 200809L
#include "tess_signal.h"
#include "tess_tmp.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t pending;
static struct sigaction old_int, old_term;
static int installed;

/* Runs on whatever thread the kernel picks (OpenMP workers included): only sig_atomic_t stores, unlink(2)
 * and _exit(2), all async-signal-safe. */
static void handler(int sig)
{
    if (pending) {
        tess_tmp_unlink_all();
        static const char msg[] = "tessera: second signal: stopped at once (temporary files removed)\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(128 + sig);
    }
    pending = sig;
}

void tess_signal_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    /* Interrupted writes and reads restart: the first signal must not turn into an I/O error. */
    sa.sa_flags = SA_RESTART;
    pending = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    installed = 1;
}

void tess_signal_restore(void)
{
    if (!installed)
        return;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    installed = 0;
}

int tess_signal_pending(void)
{
    return pending;
}

const char *tess_signal_name(int sig)
{
    static char buf[32];
    if (sig == SIGINT)
        return "SIGINT";
    if (sig == SIGTERM)
        return "SIGTERM";
    snprintf(buf, sizeof buf, "signal %d", sig);
    return buf;
}

int tess_signal_exit_code(int sig)
{
    return 128 + sig;
}
