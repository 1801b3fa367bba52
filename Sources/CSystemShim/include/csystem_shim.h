#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

/// The CPU the calling thread runs on, or -1 where the system can't tell. glibc declares sched_getcpu only
/// under _GNU_SOURCE, which Swift's Glibc module doesn't define.
int webimage_current_cpu(void);

#endif
