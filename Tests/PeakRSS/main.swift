// peak-rss REPORT LIMIT_KB TIMEOUT_S COMMAND [ARGUMENT…]
//
// Runs COMMAND in a forked child under an address-space limit of LIMIT_KB, kills it after TIMEOUT_S seconds,
// and writes "<exit status> <signal> <peak RSS in KB> <seconds>" to REPORT (signal 0 when it exited).
// COMMAND's standard streams are this process's.
//
// Why a separate process: `ru_maxrss` of a child is at least the resident set of whatever process it was
// exec'd from (the kernel folds the old address space's peak into it at exec, and a fork copies the
// parent's resident pages). Spawned from a test runner holding hundreds of megabytes, a child would report
// the runner's peak; forked from this small process, it reports its own.
import Glibc

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Writes `message` to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, let limitKB = Int(arguments[2]), let timeout = Double(arguments[3]) else {
    fail("usage: peak-rss REPORT LIMIT_KB TIMEOUT_S COMMAND [ARGUMENT…]", status: 64)
}
var argv: [UnsafeMutablePointer<CChar>?] = arguments[4...].map { strdup($0) } + [nil]
let command = argv[0]!
var limit = rlimit(rlim_cur: rlim_t(limitKB) * 1024, rlim_max: rlim_t(limitKB) * 1024)
let start = now()

let child = fork()
if child == 0 {
    // Only async-signal-safe calls between fork and exec.
    setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    execv(command, &argv)
    _exit(127)
}
guard child > 0 else { fail("peak-rss: fork failed", status: 70) }


var status: Int32 = 0
var usage = rusage()
while wait4(child, &status, WNOHANG, &usage) == 0 {
    if now() - start > timeout {
        kill(child, SIGKILL)
        _ = wait4(child, &status, 0, &usage)
        break
    }
    usleep(2_000)
}
let seconds = now() - start
let signal = status & 0x7F
let exitStatus = signal == 0 ? (status >> 8) & 0xFF : -1
let report = "\(exitStatus) \(signal) \(usage.ru_maxrss) \(seconds)\n"
guard let file = fopen(arguments[1], "w") else { exit(73) }
fputs(report, file)
fclose(file)
