import Logging
import Metrics

extension DiskCache {
    /// Counts and logs (at `error`) a write that failed; returns the error to throw.
    func reportWriteFailure(_ error: WebImageError, key: String) -> WebImageError {
        instruments.writeFailures.increment()
        instruments.logger.error("disk cache write failed",
                                 metadata: ["key": "\(key)", "code": "\(error.code)", "error": "\(error)"])
        return error
    }

    /// Counts the entries a size trim deleted, logs it (at `info`: it means the limit was reached) and
    /// records the bytes left.
    func reportTrim(removed: Int, freed: Int, remaining: Int, target: Int) {
        instruments.bytes.record(remaining)
        guard removed > 0 else { return }
        instruments.limitEvictions.increment(by: removed)
        instruments.logger.info("disk cache trimmed to its size limit",
                                metadata: ["removed": "\(removed)", "freedBytes": "\(freed)",
                                           "remainingBytes": "\(remaining)", "targetBytes": "\(target)",
                                           "limitBytes": "\(configuration.maxDiskSize)"])
    }

    /// Counts and logs an expiry run's deletions: `info` when entries went, `debug` when none had expired.
    func reportExpiry(removed: [EntryInfo], remaining: [EntryInfo]) {
        guard !removed.isEmpty else {
            instruments.logger.debug("disk cache expiry removed nothing",
                                     metadata: ["remaining": "\(remaining.count)",
                                                "maxAgeSeconds": "\(configuration.maxDiskAge)"])
            return
        }
        instruments.expiredEvictions.increment(by: removed.count)
        instruments.logger.info("disk cache removed expired entries",
                                metadata: ["removed": "\(removed.count)",
                                           "freedBytes": "\(removed.reduce(0) { $0 + $1.size })",
                                           "remaining": "\(remaining.count)",
                                           "maxAgeSeconds": "\(configuration.maxDiskAge)"])
    }

    /// Logs (at `debug`) that every entry was deleted on request, and records the empty size.
    func reportCleared(files: Int) {
        instruments.bytes.record(0)
        instruments.logger.debug("disk cache cleared", metadata: ["files": "\(files)", "directory": "\(directoryPath)"])
    }
}
