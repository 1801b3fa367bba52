import Foundation
import Glibc

/// An entry's HTTP validators, kept as the entry's own metadata beside its extended data.
///
/// Like the extended data, they live in an extended attribute of the entry file (`user.swiftwebimage.validators`),
/// or, where the file system has none, in a hidden sidecar (`.<name>.validators`). So they are never an entry
/// of their own: they go when the entry is removed, expired or trimmed, and rewriting the entry drops them (new
/// bytes need new validators). Counting, listing and trimming see images only.
extension DiskCache {
    /// The extended attribute holding an entry's validators.
    static let validatorsAttributeName = "user.swiftwebimage.validators"
    /// The longest validator file of the old layout (two header lines): ``isLegacyValidatorFile(atPath:size:)``.
    static let legacyValidatorFileLimit = 1024

    /// The HTTP validators kept with the entry for `key`, or nil (no entry, or none kept).
    public func validators(forKey key: String) -> HTTPValidators? {
        let name = Self.fileName(forKey: key)
        let path = directoryPath + "/" + name
        guard DiskFileIO.isFile(path) else { return nil }
        let stored: Data?
        switch DiskFileIO.attribute(Self.validatorsAttributeName, path: path) {
        case .value(let data): stored = data
        case .absent, .unsupported: stored = DiskFileIO.read(validatorsSidecarPath(for: name), accessStamp: nil)
        }
        return stored.flatMap(HTTPValidators.init(storedForm:))
    }

    /// Keeps `validators` with the existing entry for `key`; false (nothing written) when there is no entry.
    ///
    /// Leaves the entry's bytes and dates alone. Throws ``WebImageError/cacheFailure(path:reason:)`` when the
    /// entry exists but its metadata cannot be written.
    @discardableResult
    public func setValidators(_ validators: HTTPValidators, forKey key: String) throws -> Bool {
        let name = Self.fileName(forKey: key)
        let path = directoryPath + "/" + name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return false }
            throw WebImageError.cacheFailure(path: path, reason: DiskFileIO.Failure("open", path).message)
        }
        defer { close(fd) }
        let stored = validators.storedForm
        do {
            if configuration.useExtendedAttributes,
               try DiskFileIO.setAttribute(Self.validatorsAttributeName, stored, fd: fd, path: path) {
                unlink(validatorsSidecarPath(for: name))
                return true
            }
            try DiskFileIO.atomicWrite(stored, to: validatorsSidecarPath(for: name), directory: directoryPath,
                                       stamp: DiskFileIO.uniqueStamp(), durable: false) { _ in }
        } catch let failure as DiskFileIO.Failure {
            throw WebImageError.cacheFailure(path: path, reason: failure.message)
        }
        return true
    }

    /// Whether `path` (a file of `size` bytes) holds validators in the old layout, where they were an entry of
    /// their own (under the key plus `#SwiftWebImage.validators`): at most 1 KB of `E:`/`L:` lines.
    ///
    /// No image format starts with `E:` or `L:`. Such files are never counted, listed or trimmed as entries,
    /// and ``removeExpiredData()`` deletes them. Looking leaves the file's access time (the cache's LRU date)
    /// as it was: the kernel's `relatime` would otherwise move it to now.
    public static func isLegacyValidatorFile(atPath path: String, size: Int) -> Bool {
        guard size >= 2, size <= legacyValidatorFileLimit else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        var prefix: (UInt8, UInt8) = (0, 0)
        let count = withUnsafeMutableBytes(of: &prefix) { Glibc.read(fd, $0.baseAddress, 2) }
        var times = [info.st_atim, timespec(tv_sec: 0, tv_nsec: DiskFileIO.utimeOmit)]
        _ = futimens(fd, &times)
        return count == 2 && (prefix.0 == UInt8(ascii: "E") || prefix.0 == UInt8(ascii: "L"))
            && prefix.1 == UInt8(ascii: ":")
    }

    func validatorsSidecarPath(for name: String) -> String {
        directoryPath + "/." + name + ".validators"
    }
}

extension HTTPValidators {
    /// Two lines: `E:<etag>` and `L:<last-modified>`, each only when present.
    var storedForm: Data {
        var lines: [String] = []
        if let etag { lines.append("E:" + etag) }
        if let lastModified { lines.append("L:" + lastModified) }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The validators of ``storedForm``; nil when it holds neither.
    init?(storedForm: Data) {
        self.init()
        for line in String(decoding: storedForm, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("E:") { etag = String(line.dropFirst(2)) }
            if line.hasPrefix("L:") { lastModified = String(line.dropFirst(2)) }
        }
        if etag == nil && lastModified == nil { return nil }
    }
}
