#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif
#include "csystem_shim.h"

int webimage_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}
