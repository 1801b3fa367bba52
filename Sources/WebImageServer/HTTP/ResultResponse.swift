import Foundation
import HTTPTypes
import WebImage

extension ProxyResponse {
    /// The 200 (or 304 when the client's copy is current) for a result of `job`; `status` other than 200 (a
    /// fallback image) is sent as it is, never as 304.
    /// `expiry` keeps the last `Cache-Control` and `Expires` made.
    static func result(_ result: ProcessedResult, for request: ProxyRequest, job: ProxyJob, ttl: Int,
                       expiry: ResultExpiryFields, status: Int = 200) -> ProxyResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(10)
        fields.append(contentsOf: hardeningFields)
        // imgproxy sends Expires beside max-age, for caches that read only Expires.
        let (cacheControl, expires) = expiry.fields(ttl: max(0, ttl))
        fields.append(cacheControl)
        fields.append(expires)
        fields.append(result.fields.etag)
        fields.append(result.fields.lastModified)
        if job.format.dependsOnAccept { fields.append(varyAccept) }
        fields.append(HTTPField(name: ResponseFieldName.contentDisposition, value: job.contentDisposition(format: result.format)))
        if status == 200, isCurrent(result, for: request) { return ProxyResponse(status: 304, fields: fields) }
        fields.append(result.fields.contentType)
        fields.append(result.fields.contentLength)
        return ProxyResponse(status: status, fields: fields, body: request.isHead ? Data() : result.data)
    }

    private static let varyAccept = HTTPField(name: ResponseFieldName.vary, value: "Accept")

    /// The media type imgproxy answers with: its table's, which names HEIC `image/heif` where ``ImageFormat/mimeType``
    /// has IANA's `image/heic`.
    static func contentType(of format: ImageFormat) -> String {
        format == .heic ? "image/heif" : format.mimeType ?? "application/octet-stream"
    }

    /// The start of imgproxy's `inline; filename="NAME.EXT"` (`attachment` with `return_attachment`), up to NAME
    /// (``ProxyJob/contentDisposition(format:)`` adds the rest): NAME is the `filename` option, else the source's
    /// file name without its extension, else `image`. Quotes, control characters, `%` and non-ASCII bytes are
    /// percent-encoded, so no name can break the header.
    static func dispositionPrefix(options: ProcessingOptions, source: URL) -> String {
        let disposition = options.returnAttachment ? "attachment" : "inline"
        return disposition + "; filename=\"" + escapedFileName(options.filename ?? sourceStem(source) ?? "image")
    }

    /// `name` with quotes, control characters, `%`, `\\` and non-ASCII bytes percent-encoded.
    static func escapedFileName(_ name: String) -> String {
        func plain(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "\\")
        }
        if name.utf8.allSatisfy(plain) { return name }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(name.utf8.count + 8)
        for byte in name.utf8 {
            if plain(byte) {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
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
