#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

int webimage_set_direct_io(int fd, int on) {
#if defined(__linux__)
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
#elif defined(F_NOCACHE)
    return fcntl(fd, F_NOCACHE, on ? 1 : 0) == -1 ? -1 : 0;
#else
    (void)fd;
    (void)on;
    errno = EINVAL;
    return -1;
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

extern char **environ;

static int webimage_spawn_stream(posix_spawn_file_actions_t *actions, int fd, int target, int flags) {
    if (fd < 0) return posix_spawn_file_actions_addopen(actions, target, "/dev/null", flags, 0);
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int webimage_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                   int in, int out, int err, int new_group) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int code = posix_spawn_file_actions_init(&actions);
    if (code != 0) return code;
    code = posix_spawnattr_init(&attributes);
    if (code != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return code;
    }
    code = webimage_spawn_stream(&actions, in, 0, O_RDONLY);
    if (code == 0) code = webimage_spawn_stream(&actions, out, 1, O_WRONLY);
    if (code == 0) code = webimage_spawn_stream(&actions, err, 2, O_WRONLY);
    if (code == 0 && directory != NULL) code = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (code == 0) code = webimage_spawn_close_from(&actions, 3);
    sigset_t none, defaulted;
    sigemptyset(&none);
    sigemptyset(&defaulted);
    sigaddset(&defaulted, SIGPIPE);
    sigaddset(&defaulted, SIGXCPU);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (new_group) {
        flags |= POSIX_SPAWN_SETPGROUP;
        if (code == 0) code = posix_spawnattr_setpgroup(&attributes, 0);
    }
    if (code == 0) code = posix_spawnattr_setsigmask(&attributes, &none);
    if (code == 0) code = posix_spawnattr_setsigdefault(&attributes, &defaulted);
    if (code == 0) code = posix_spawnattr_setflags(&attributes, flags);
    if (code == 0) code = posix_spawn(pid, path, &actions, &attributes, argv, envp != NULL ? envp : environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return code;
}
