import Foundation
import WebImage

/// The key a result is cached and made under: the source, every field of the options that reaches the image
/// (normalised), and the format bucket — never the signature, so rotating keys keeps the cache.
enum ResultKey {
    /// `quality` is the service's default quality and per-format table, which decide a result's quality when
    /// the URL gives none.
    static func make(source: String, options: ProcessingOptions, format: FormatChoice, quality: QualityDefaults) -> String {
        var parts = [
            "rs:\(options.resizingType.rawValue):\(options.width):\(options.height):\(options.enlarge ? 1 : 0)",
            "dpr:\(options.dpr)", "g:\(gravity(options.gravity)):\(options.gravityOffsetX):\(options.gravityOffsetY)",
            "q:\(options.quality > 0 ? String(options.quality) : quality.keyComponent)",
            "bl:\(options.blur)", "sh:\(options.sharpen)", "rot:\(options.rotate)",
            "fl:\(options.flipHorizontally ? 1 : 0):\(options.flipVertically ? 1 : 0)", "mb:\(options.maxBytes)",
            "sm:\(ResultMetadata.Kept(options).rawValue)", "f:\(format.keyComponent)",
        ]
        if options.minWidth > 0 || options.minHeight > 0 { parts.append("min:\(options.minWidth):\(options.minHeight)") }
        if options.zoomX != 1 || options.zoomY != 1 { parts.append("z:\(options.zoomX):\(options.zoomY)") }
        if let rule = options.extend { parts.append("ex:\(extensionKey(rule))") }
        if let rule = options.extendAspectRatio { parts.append("exar:\(extensionKey(rule))") }
        let padding = options.padding
        if padding != ProcessingOptions.Padding() {
            parts.append("pd:\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)")
        }
        if options.pixelate > 1 { parts.append("pix:\(options.pixelate)") }
        if let mark = options.watermark {
            let place = mark.replicates ? "re" : gravity(mark.gravity)
            parts.append("wm:\(mark.opacity):\(place):\(mark.offsetX):\(mark.offsetY):\(mark.scale)")
        }
        if let trim = options.trim {
            let color = trim.color.map { "\($0.red).\($0.green).\($0.blue)" } ?? "auto"
            parts.append("t:\(trim.threshold):\(color):\(trim.equalHorizontal ? 1 : 0):\(trim.equalVertical ? 1 : 0)")
        }
        let security = options.security
        if security != ProcessingOptions.SecurityLimits() {
            let values = [security.maxSourcePixels, security.maxSourceBytes, security.maxAnimationFrames,
                          security.maxAnimationFramePixels, security.maxResultDimension]
            parts.append("sec:" + values.map { $0.map(String.init) ?? "-" }.joined(separator: ":"))
        }
        if !options.skipProcessing.isEmpty {
            parts.append("skp:" + options.skipProcessing.map(\.rawValue).sorted().joined(separator: ":"))
        }
        if options.quality == 0, !options.formatQuality.isEmpty {
            parts.append("fq:" + options.formatQuality.map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: ","))
        }
        if let crop = options.crop {
            parts.append("c:\(crop.width):\(crop.height):\(crop.gravity.map(gravity) ?? "-"):\(crop.offsetX):\(crop.offsetY)")
        }
        if let background = options.background {
            parts.append("bg:\(background.red):\(background.green):\(background.blue)")
        }
        if !options.stripColorProfile { parts.append("scp:0") }
        if !options.autoRotate { parts.append("ar:0") }
        if options.enforceThumbnail { parts.append("eth:1") }
        if options.raw { parts.append("raw:1") }
        if !options.cacheBuster.isEmpty { parts.append("cb:\(options.cacheBuster)") }
        return source + "|" + parts.joined(separator: "/")
    }

    /// The fields of ``ProcessingOptions`` the key leaves out, and why (a test checks every other one is in it).
    static let leftOut: [String: String] = [
        "format": "the format bucket (`f:`) stands for it, resolved with Accept",
        "expires": "checked before any work; a live URL is the same image",
        "filename": "only the Content-Disposition header, written per answer",
        "returnAttachment": "only the Content-Disposition header, written per answer",
    ]

    private static func extensionKey(_ rule: ProcessingOptions.Extension) -> String {
        "\(gravity(rule.gravity)):\(rule.offsetX):\(rule.offsetY)"
    }

    private static func gravity(_ gravity: ProcessingOptions.Gravity) -> String {
        switch gravity {
        case .focusPoint(let x, let y): "fp:\(x):\(y)"
        default: String(describing: gravity)
        }
    }
}

/// The quality a result gets when its URL gives none: per output format (imgproxy's `IMGPROXY_FORMAT_QUALITY`),
/// else the default (`IMGPROXY_QUALITY`).
struct QualityDefaults: Sendable, Hashable {
    var quality: Int
    var byFormat: [ImageFormat: Int]

    /// The quality of a result in `format`: the URL's, its per-format table's, the configured one's, else the default.
    func quality(for format: ImageFormat, options: ProcessingOptions) -> Int {
        if options.quality > 0 { return options.quality }
        return options.formatQuality[format] ?? byFormat[format] ?? quality
    }

    var keyComponent: String {
        "d\(quality)" + byFormat.map { ",\($0.key.rawValue)=\($0.value)" }.sorted().joined()
    }
}
