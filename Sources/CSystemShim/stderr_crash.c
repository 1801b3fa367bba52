#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "csystem_shim.h"

// The capture's two descriptors, read by the handler; -1 when disarmed.
static volatile sig_atomic_t crash_original = -1;
static volatile sig_atomic_t crash_pending = -1;

static const int crash_signals[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_previous[CRASH_SIGNAL_COUNT];
static int crash_installed = 0;

// The last bytes the capture read (one writer: its thread), kept for a crash report.
static char crash_recent[4096];
static volatile size_t crash_recent_total = 0;

void webimage_crash_remember(const void *bytes, size_t count) {
    const char *source = bytes;
    size_t total = crash_recent_total;
    if (count > sizeof crash_recent) {
        source += count - sizeof crash_recent;
        total += count - sizeof crash_recent;
        count = sizeof crash_recent;
    }
    for (size_t index = 0; index < count; index++) crash_recent[(total + index) % sizeof crash_recent] = source[index];
    crash_recent_total = total + count;
}

static void write_all(int fd, const char *bytes, ssize_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, (size_t)count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        count -= written;
    }
}

// Async-signal-safe only: dup2, read, write, sigaction, raise.
static void restore_on_crash(int signal, siginfo_t *info, void *context) {
    int saved_errno = errno;
    int original = crash_original, pending = crash_pending;
    crash_original = -1;
    crash_pending = -1;
    if (original >= 0) {
        dup2(original, 2);
        size_t total = crash_recent_total;
        size_t kept = total < sizeof crash_recent ? total : sizeof crash_recent;
        size_t start = (total - kept) % sizeof crash_recent;
        size_t first = kept < sizeof crash_recent - start ? kept : sizeof crash_recent - start;
        write_all(2, crash_recent + start, (ssize_t)first);
        write_all(2, crash_recent, (ssize_t)(kept - first));
        if (pending >= 0) {
            char buffer[4096];
            ssize_t count;
            while ((count = read(pending, buffer, sizeof buffer)) > 0 || (count < 0 && errno == EINTR)) {
                if (count > 0) write_all(2, buffer, count);
            }
        }
    }
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        if (crash_signals[index] != signal) continue;
        struct sigaction previous = crash_previous[index];
        sigaction(signal, &previous, NULL);
        errno = saved_errno;
        if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
            previous.sa_sigaction(signal, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
            previous.sa_handler(signal);
        } else {
            // Blocked while this handler runs: delivered, with the default action, when it returns.
            raise(signal);
        }
        return;
    }
}

int webimage_crash_restores_stderr(int original, int pending) {
    crash_original = original;
    crash_pending = pending;
    if (crash_installed) return 0;
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = restore_on_crash;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(crash_signals[index], &action, &crash_previous[index]) != 0) return -1;
    }
    crash_installed = 1;
    return 0;
}

void webimage_crash_keeps_stderr(void) {
    crash_original = -1;
    crash_pending = -1;
}
