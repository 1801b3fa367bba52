import Foundation
import WebImage

/// One `fetch --json` line: what happened to one URL. The keys are the tool's documented contract.
struct FetchRecord: Encodable, Sendable {
    /// Why a URL failed: SDWebImage's error code (the transport's for network failures) and a one-line message.
    struct Failure: Encodable, Equatable, Sendable {
        var code: Int
        var message: String

        /// The output file could not be written (not an SDWebImage code: the tool's own).
        static let writeFailedCode = 1
    }

    var url: String
    var ok: Bool
    /// `none` (downloaded), `memory` or `disk`.
    var cacheType: String
    var width: Int?
    var height: Int?
    var frameCount: Int?
    var format: String?
    /// Size of the original (downloaded or cached) bytes.
    var bytes: Int?
    /// The file written with `-o`, else nil.
    var file: String?
    var millis: Double
    /// Set only on failure.
    var error: Failure?

    /// A successful load.
    init(url: String, result: ImageLoadResult, millis: Double) {
        self.url = url
        ok = true
        cacheType = result.cacheType.name
        let image = result.image
        width = image.pixelWidth
        height = image.pixelHeight
        frameCount = result.animatedImage?.frameCount ?? image.frameCount
        format = image.format.rawValue
        bytes = result.data?.count
        self.millis = millis
    }

    /// A failed load.
    init(url: String, error: Failure, millis: Double) {
        self.url = url
        ok = false
        cacheType = "none"
        self.error = error
        self.millis = millis
    }

    /// Every key, with `null` for the ones that have no value (only `error` is left out on success).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(ok, forKey: .ok)
        try container.encode(cacheType, forKey: .cacheType)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(frameCount, forKey: .frameCount)
        try container.encode(format, forKey: .format)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(file, forKey: .file)
        try container.encode((millis * 10).rounded() / 10, forKey: .millis)
        try container.encodeIfPresent(error, forKey: .error)
    }

    private enum CodingKeys: String, CodingKey {
        case url, ok, cacheType, width, height, frameCount, format, bytes, file, millis, error
    }

    /// The human-readable line: `ok   URL  WxH format, N frames, from cache, bytes, ms  -> file`.
    var text: String {
        guard ok else { return "FAIL \(url)  \(error?.message ?? "failed")" }
        var parts = ["\(width ?? 0)x\(height ?? 0) \(format ?? "?")"]
        if let frameCount, frameCount > 1 { parts.append("\(frameCount) frames") }
        parts.append(cacheType == "none" ? "downloaded" : "from \(cacheType)")
        if let bytes { parts.append("\(bytes) bytes") }
        parts.append(String(format: "%.1f ms", millis))
        return "ok   \(url)  " + parts.joined(separator: ", ") + (file.map { "  -> \($0)" } ?? "")
    }
}
