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

#endif
