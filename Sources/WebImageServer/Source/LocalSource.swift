import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// imgproxy's `local://` sources (`IMGPROXY_LOCAL_FILESYSTEM_ROOT`): `local:///path` names a file under the
/// operator's root directory. Off unless a root is configured; nothing outside the root is ever opened.
struct LocalSource: Sendable {
    /// The root, resolved (symbolic links followed) once.
    let root: String
    let maxBytes: Int

    /// A root that must be an existing directory; nil when it is not.
    init?(root: URL, maxBytes: Int) {
        guard let resolved = Self.resolved(root.path), Self.isDirectory(resolved) else { return nil }
        self.root = resolved
        self.maxBytes = maxBytes
    }

    /// Checks a `local://` source URL as written: no host, no NUL (400), no `..` component (403); an allowlist of
    /// prefixes, when there is one, applies as to other sources.
    static func check(_ source: String, root: LocalSource?, policy: SourcePolicy) throws(ProxyError) -> URL {
        guard root != nil else {
            throw .sourceNotAllowed("local sources are off; start the server with --local-root DIR "
                                    + "(IMGPROXY_LOCAL_FILESYSTEM_ROOT)")
        }
        guard let url = URL(string: source), url.scheme?.lowercased() == "local", (url.host ?? "").isEmpty,
              url.path.hasPrefix("/") else {
            throw .badRequest("a local source is local:///PATH, with no host")
        }
        guard !url.path.contains("\0") else { throw .badRequest("the local source's path holds a NUL byte") }
        guard !url.path.split(separator: "/").contains("..") else {
            throw .sourceNotAllowed("the local source's path climbs out with '..'")
        }
        try policy.checkPrefix(source)
        return url
    }

    /// The bytes of the regular file `url` names under the root: a path whose links lead out of the root, a
    /// directory, a device or a FIFO is refused (403), a missing file is 404, a file over `maxBytes` 422.
    func read(_ url: URL) throws(ProxyError) -> Data {
        guard let path = Self.resolved(root + url.path) else {
            throw .notFound("no file \(url.path) under the local root")
        }
        guard path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw .sourceNotAllowed("\(url.path) leads out of the local root")
        }
        // Non-blocking, so a FIFO never waits for a writer; the type is checked on the open file itself.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .notFound("cannot open \(url.path) under the local root") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw .sourceNotAllowed("\(url.path) is not a regular file")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw .unprocessable("the source is \(status.st_size) bytes, over the limit of \(maxBytes) bytes")
        }
        guard status.st_size > 0 else { return Data() }
        var data = Data(count: Int(status.st_size))
        var filled = 0
        let failed = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < buffer.count {
                let count = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 { return count < 0 }
                filled += count
            }
            return false
        }
        guard !failed else { throw .badGateway("reading \(url.path) failed") }
        return data.prefix(filled)
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
