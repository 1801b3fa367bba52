#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "csystem_shim.h"

int webimage_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

int webimage_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int webimage_spawn_close_from(posix_spawn_file_actions_t *actions, int low) {
#if defined(__linux__)
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
#else
    (void)actions;
    (void)low;
    return 0;
#endif
}
