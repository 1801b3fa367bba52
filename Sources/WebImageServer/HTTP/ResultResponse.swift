import Foundation
import WebImage

extension ProxyResponse {
    /// The 200 (or 304 when the client's copy is current) for a result of `job`; `status` other than 200 (a
    /// fallback image) is sent as it is, never as 304.
    static func result(_ result: ProcessedResult, for request: ProxyRequest, job: ProxyJob, ttl: Int,
                       status: Int = 200) -> ProxyResponse {
        var headers = hardening
        headers.append(("Cache-Control", "public, max-age=\(max(0, ttl)), immutable"))
        // imgproxy sends Expires beside max-age, for caches that read only Expires.
        headers.append(("Expires", HTTPDate.format(Date(timeIntervalSinceNow: TimeInterval(max(0, ttl))))))
        headers.append(("ETag", result.etag))
        headers.append(("Last-Modified", HTTPDate.format(result.lastModified)))
        if job.format.dependsOnAccept { headers.append(("Vary", "Accept")) }
        headers.append(("Content-Disposition", contentDisposition(job, format: result.format)))
        if status == 200, isCurrent(result, for: request) { return ProxyResponse(status: 304, headers: headers) }
        headers.append(("Content-Type", contentType(of: result.format)))
        headers.append(("Content-Length", String(result.data.count)))
        return ProxyResponse(status: status, headers: headers, body: request.isHead ? Data() : result.data)
    }

    /// The media type imgproxy answers with: its table's, which names HEIC `image/heif` where ``ImageFormat/mimeType``
    /// has IANA's `image/heic`.
    static func contentType(of format: ImageFormat) -> String {
        format == .heic ? "image/heif" : format.mimeType ?? "application/octet-stream"
    }

    /// imgproxy's `inline; filename="NAME.EXT"` (`attachment` with `return_attachment`): NAME is the `filename`
    /// option, else the source's file name without its extension, else `image`; EXT the result's format. Quotes,
    /// control characters, `%` and non-ASCII bytes are percent-encoded, so no name can break the header.
    static func contentDisposition(_ job: ProxyJob, format: ImageFormat) -> String {
        let name = job.options.filename ?? sourceStem(job.source) ?? "image"
        var escaped: [UInt8] = []
        escaped.reserveCapacity(name.utf8.count + 8)
        for byte in (name + "." + (format.fileExtension ?? "bin")).utf8 {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "%")
                || byte == UInt8(ascii: "\\") {
                escaped += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            } else {
                escaped.append(byte)
            }
        }
        let disposition = job.options.returnAttachment ? "attachment" : "inline"
        return "\(disposition); filename=\"\(String(decoding: escaped, as: UTF8.self))\""
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The source's file name without its extension (Foundation's `deletingPathExtension`: a leading dot is
    /// part of the name), or nil when it has none.
    static func sourceStem(_ source: URL) -> String? {
        let last = source.lastPathComponent
        guard last != "/", !last.isEmpty else { return nil }
        let bytes = last.utf8
        guard last != "..", let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else {
            return last
        }
        return String(last[..<dot])
    }

    /// `If-None-Match` wins when present (any listed tag, or `*`); else `If-Modified-Since` at or after the result.
    private static func isCurrent(_ result: ProcessedResult, for request: ProxyRequest) -> Bool {
        if let tags = request.ifNoneMatch {
            return tags.split(separator: ",").contains { tag in
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                let opaque = trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
                return opaque == "*" || opaque == result.etag
            }
        }
        if let since = request.ifModifiedSince.flatMap(HTTPDate.parse) {
            return result.lastModified <= since
        }
        return false
    }
}
