import Crypto
import Foundation

extension DiskCache {
    /// The longest path extension kept in a file name: 255 (the name limit) − 32 (MD5 hex) − 1 (the dot).
    static let maxFileExtensionLength = 222

    /// SDWebImage's file name for a key: lowercase hex MD5 of its UTF-8 bytes, plus "." and the URL's path
    /// extension.
    ///
    /// The extension is the URL path's (a query or fragment never contributes, even with dots in it), or the
    /// key's own when it is not a URL; `:` and NUL are removed from it, and it is dropped when empty or longer
    /// than 222 characters. `https://placehold.co/50x50.jpg` → `e9936aba8d7f7fcca7813d72290de957.jpg`.
    public static func fileName(forKey key: String) -> String {
        let hash = hashedName(forKey: key)
        let ext = fileExtension(forKey: key)
        return ext.isEmpty ? hash : hash + "." + ext
    }

    /// The name without extension: lowercase hex MD5 of the key's UTF-8 bytes (where reads fall back to).
    static func hashedName(forKey key: String) -> String {
        let digest = key.utf8.withContiguousStorageIfAvailable { Insecure.MD5.hash(data: UnsafeRawBufferPointer($0)) }
            ?? Insecure.MD5.hash(data: Array(key.utf8))
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 2 * Insecure.MD5.byteCount) { characters in
            var next = 0
            for byte in digest {
                characters[next] = hex.utf8Start[Int(byte >> 4)]
                characters[next + 1] = hex.utf8Start[Int(byte & 0x0F)]
                next += 2
            }
            return next
        }
    }

    static func fileExtension(forKey key: String) -> String {
        let raw = plainURLPathExtension(of: key) ?? URL(string: key)?.pathExtension ?? lastPathExtension(of: key)
        let cleaned = raw.filter { $0 != ":" && $0 != "\0" }
        return cleaned.utf16.count > maxFileExtensionLength ? "" : cleaned
    }

    /// The path extension of an `http`/`https` URL that needs no decoding, read straight off its bytes, or nil
    /// for any other key.
    ///
    /// Parsing with `URL` costs more than the rest of a disk read's bookkeeping together, and almost every key is
    /// such a URL. Anything unusual — a `%`, `#`, space or non-ASCII byte, a trailing `/`, a name starting or
    /// ending with `.` — is left to `URL`, so the answer always equals `URL(string:)?.pathExtension`.
    static func plainURLPathExtension(of key: String) -> String? {
        key.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            let schemeLength: Int
            if bytes.starts(with: "https://".utf8) {
                schemeLength = 8
            } else if bytes.starts(with: "http://".utf8) {
                schemeLength = 7
            } else {
                return nil
            }
            guard bytes.allSatisfy(isPlainURLByte) else { return nil }
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            guard let pathStart = bytes[schemeLength..<end].firstIndex(of: UInt8(ascii: "/")), pathStart > schemeLength,
                  let nameStart = bytes[pathStart..<end].lastIndex(of: UInt8(ascii: "/")).map({ $0 + 1 }),
                  nameStart < end, bytes[nameStart] != UInt8(ascii: "."), bytes[end - 1] != UInt8(ascii: ".") else {
                return nil
            }
            guard let dot = bytes[nameStart..<end].lastIndex(of: UInt8(ascii: ".")) else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)..<end]), as: UTF8.self)
        } ?? nil
    }

    /// Letters, digits and the URL punctuation that `URL` takes literally (RFC 3986 unreserved, sub-delims,
    /// `:`, `/`, `@`, `?`).
    private static func isPlainURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "&")...UInt8(ascii: ";"), // & ' ( ) * + , - . / 0-9 : ;
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "@"),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The extension of the last path component of a non-URL key (`NSString.pathExtension`).
    private static func lastPathExtension(of key: String) -> String {
        let component = key.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        guard let dot = component.lastIndex(of: "."), dot != component.startIndex else { return "" }
        return String(component[component.index(after: dot)...])
    }
}
