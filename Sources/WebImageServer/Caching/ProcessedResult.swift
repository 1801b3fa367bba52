import Crypto
import Foundation
import WebImage

/// One finished result: its bytes and what the HTTP answer says about them.
struct ProcessedResult: Sendable {
    let data: Data
    let format: ImageFormat
    /// A strong validator: the first 128 bits of the bytes' SHA-256, quoted.
    let etag: String
    /// When the result was made, to the second (HTTP dates have no more).
    let lastModified: Date
    /// The answer's header fields that depend on the result alone, made once with it: a result kept in memory
    /// is answered many times.
    let fields: ResultFields

    init(data: Data, format: ImageFormat, lastModified: Date = Date()) {
        let etag = "\"" + SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        self.init(data: data, metadata: Metadata(
            format: format, etag: etag,
            lastModified: Date(timeIntervalSince1970: lastModified.timeIntervalSince1970.rounded(.down))))
    }

    /// What is stored beside the bytes on disk.
    struct Metadata: Codable {
        var format: ImageFormat
        var etag: String
        var lastModified: Date
    }

    var metadata: Metadata { Metadata(format: format, etag: etag, lastModified: lastModified) }

    init(data: Data, metadata: Metadata) {
        self.data = data
        format = metadata.format
        etag = metadata.etag
        lastModified = metadata.lastModified
        fields = ResultFields(format: format, etag: etag, lastModified: lastModified, byteCount: data.count)
    }
}
