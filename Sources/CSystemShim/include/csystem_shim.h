#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

#include <spawn.h>
#include <sys/types.h>

/// glibc declares the calls below only under _GNU_SOURCE, which Swift's Glibc module doesn't define.

/// The CPU the calling thread runs on, or -1 where the system can't tell.
int webimage_current_cpu(void);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC on Linux; pipe, then FD_CLOEXEC
/// on each end, elsewhere). 0 or -1 with errno, as pipe.
int webimage_pipe_cloexec(int fds[2]);

/// Turns direct I/O on or off for `fd`'s later writes: O_DIRECT on Linux (the bytes go to the device without a copy
/// into the page cache; buffers, offsets and lengths must then be aligned to the device's block), F_NOCACHE on Apple
/// platforms. 0, or -1 with errno (EINVAL where the file system has no direct I/O, as tmpfs before Linux 6.6).
int webimage_set_direct_io(int fd, int on);

/// Adds "close every descriptor from `low` up" to `actions` (posix_spawn_file_actions_addclosefrom_np on Linux);
/// elsewhere nothing is added and 0 is returned. 0 or an error number, as the posix_spawn_file_actions calls.
int webimage_spawn_close_from(posix_spawn_file_actions_t *actions, int low);

/// Starts `path` with `argv` (NULL-terminated; `argv[0]` is the name `ps` shows) and `envp` (NULL: this process's
/// environment) in `directory` (NULL: this process's), its standard input, output and error being `in`, `out` and
/// `err` (-1: /dev/null). Not Foundation's Process: on Linux its run() over-reads /proc/self/fd entries and crashes
/// now and then (swift-corelibs-foundation#5472, Swift 6.3.1). The child has no other descriptor (on Linux), an
/// empty signal mask (the parent's threads may block signals), SIGPIPE and SIGXCPU at their defaults (a parent
/// may ignore SIGPIPE), and with `new_group` its own process group, so killing the group ends what it starts.
/// 0 with `*pid` set, or an error number, as posix_spawn.
int webimage_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                   int in, int out, int err, int new_group);

/// While standard error is captured (descriptor 2 a pipe whose read end is `pending`, non-blocking, and the
/// stream it replaced kept as `original`): on SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGTRAP, puts
/// `original` back as descriptor 2, writes there the last 4 KiB the capture read (``webimage_crash_remember``)
/// and what `pending` still holds (a runtime's error message, a panic's), then runs the handler the signal had
/// before (Swift's backtracer, which then writes to `original`) or its default action. Installed once; a later
/// call changes the two descriptors. 0, or -1 with errno.
int webimage_crash_restores_stderr(int original, int pending);

/// Keeps `count` bytes the capture read among the last 4 KiB a crash writes out (from the capture's thread only).
void webimage_crash_remember(const void *bytes, size_t count);

/// Stops the handlers above from touching any descriptor (the capture ended); they still pass signals on.
void webimage_crash_keeps_stderr(void);

#endif
