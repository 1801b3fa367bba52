import Foundation
import Glibc

/// Sets a file's access and/or modification time to `secondsAgo` before now (nil leaves it unchanged).
func setFileDates(_ path: String, accessedSecondsAgo: Double? = nil, modifiedSecondsAgo: Double? = nil) {
    func spec(_ secondsAgo: Double?) -> timespec {
        guard let secondsAgo else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }
        let time = Date().timeIntervalSince1970 - secondsAgo
        return timespec(tv_sec: Int(time), tv_nsec: Int((time - time.rounded(.down)) * 1e9))
    }
    var times = [spec(accessedSecondsAgo), spec(modifiedSecondsAgo)]
    _ = utimensat(AT_FDCWD, path, &times, 0)
}
