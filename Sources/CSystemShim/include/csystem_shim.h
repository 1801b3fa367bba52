#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

#include <spawn.h>

/// glibc declares the calls below only under _GNU_SOURCE, which Swift's Glibc module doesn't define.

/// The CPU the calling thread runs on, or -1 where the system can't tell.
int webimage_current_cpu(void);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC on Linux; pipe, then FD_CLOEXEC
/// on each end, elsewhere). 0 or -1 with errno, as pipe.
int webimage_pipe_cloexec(int fds[2]);

/// Adds "close every descriptor from `low` up" to `actions` (posix_spawn_file_actions_addclosefrom_np on Linux);
/// elsewhere nothing is added and 0 is returned. 0 or an error number, as the posix_spawn_file_actions calls.
int webimage_spawn_close_from(posix_spawn_file_actions_t *actions, int low);

#endif
