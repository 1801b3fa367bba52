import Foundation
import WebImage

/// What `webimage info` reports about a decoded image; its JSON keys are the tool's documented contract.
struct ImageSummary: Codable, Equatable {
    /// The container format (`ImageFormat.rawValue`: `jpeg`, `png`, `gif`, `webp`, …).
    var format: String
    var width: Int
    var height: Int
    var frameCount: Int
    /// 0 means forever.
    var loopCount: Int
    /// Seconds per frame (0 for a still image).
    var frameDurations: [Double]
    var hasAlpha: Bool
    /// EXIF orientation 1…8.
    var orientation: Int
    var isAnimated: Bool
    /// A document's pages (PDF, which renders one of them); nil (no key) for image formats.
    var pageCount: Int?

    /// The human-readable form: one `name  value` line per property.
    func text(file: String) -> String {
        var lines = [file,
                     row("format", format),
                     row("size", "\(width)x\(height) px"),
                     row("frames", isAnimated ? "\(frameCount) (animated)" : "\(frameCount)")]
        if let pageCount { lines.append(row("pages", "\(pageCount)")) }
        if isAnimated {
            lines.append(row("loop count", loopCount == 0 ? "0 (forever)" : "\(loopCount)"))
            lines.append(row("durations", frameDurations.map { Self.seconds($0) }.joined(separator: " ") + " s"))
        }
        lines.append(row("alpha", hasAlpha ? "yes" : "no"))
        let name = ImageOrientation(exifValue: orientation)
        lines.append(row("orientation", "\(orientation) (\(name))"))
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ value: String) -> String {
        "  " + name.padding(toLength: 12, withPad: " ", startingAt: 0) + value
    }

    /// Seconds with up to three decimals and no trailing zeros (`0.1`, `0.033`).
    static func seconds(_ value: Double) -> String {
        var text = String((value * 1000).rounded() / 1000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

extension ImageSummary {
    /// The summary of a still image from its header alone (no pixel decoded).
    init(_ header: ImageHeader) {
        format = header.format.rawValue
        width = header.pixelSize.width
        height = header.pixelSize.height
        frameCount = header.frameCount
        loopCount = 0
        frameDurations = Array(repeating: 0, count: header.frameCount)
        hasAlpha = header.hasAlpha
        orientation = header.orientation.rawValue
        isAnimated = header.isAnimated
        pageCount = header.format == .pdf ? header.pageCount : nil
    }

    /// The summary of an image read by a frame-by-frame decoder (its headers; no frame decoded).
    init(_ decoder: any AnimatedImageDecoder) {
        format = decoder.format.rawValue
        width = decoder.pixelSize.width
        height = decoder.pixelSize.height
        frameCount = decoder.frameCount
        loopCount = decoder.loopCount
        frameDurations = (0..<decoder.frameCount).map { decoder.frameDuration(at: $0) }
        hasAlpha = decoder.hasAlpha
        orientation = decoder.orientation.rawValue
        isAnimated = decoder.frameCount > 1
    }
}
