import Foundation
import WebImage

// The texts of the values processing options hold (``ResultKeyValue``).

extension Int: ResultKeyValue {
    var keyText: String { String(self) }
}

extension Double: ResultKeyValue {
    /// Swift's shortest text that reads back as the same number.
    var keyText: String { description }
}

extension Bool: ResultKeyValue {
    var keyText: String { self ? "1" : "0" }
}

extension String: ResultKeyValue {
    /// Percent-encoded but for letters, digits and `._~`: no separator, and `-` stays the mark of nil.
    var keyText: String {
        addingPercentEncoding(withAllowedCharacters: Self.unescaped) ?? self
    }

    private static let unescaped = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._~"))
}

extension Optional: ResultKeyValue where Wrapped: ResultKeyValue {
    /// `-`, which no value's text is.
    var keyText: String { map(\.keyText) ?? "-" }
}

extension Set: ResultKeyValue where Element == ImageFormat {
    var keyText: String { map(\.rawValue).sorted().joined(separator: ",") }
}

extension Dictionary: ResultKeyValue where Key == ImageFormat, Value == Int {
    var keyText: String { map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: ",") }
}

extension RGBAColor: ResultKeyValue {
    var keyText: String { "\(red).\(green).\(blue).\(alpha)" }
}

/// Named settings: their names (none holds `/`, `|` or `:`).
extension ResultKeyValue where Self: RawRepresentable, RawValue == String {
    var keyText: String { rawValue }
}

extension ProcessingOptions.ResizingType: ResultKeyValue {}

extension ProcessingOptions.Gravity: ResultKeyValue {
    /// The case's name; a focus point `fp:x:y`.
    var keyText: String {
        switch self {
        case .focusPoint(let x, let y): "fp:\(x.keyText):\(y.keyText)"
        default: String(describing: self)
        }
    }
}

extension ProcessingOptions.Crop: ResultKeyValue {
    var keyText: String { "\(width.keyText):\(height.keyText):\(gravity.keyText):\(offsetX.keyText):\(offsetY.keyText)" }
}

extension ProcessingOptions.Extension: ResultKeyValue {
    var keyText: String { "\(gravity.keyText):\(offsetX.keyText):\(offsetY.keyText)" }
}

extension ProcessingOptions.Padding: ResultKeyValue {
    var keyText: String { "\(top):\(right):\(bottom):\(left)" }
}

extension ProcessingOptions.Watermark: ResultKeyValue {
    var keyText: String {
        "\(opacity.keyText):\(replicates.keyText):\(gravity.keyText):\(offsetX.keyText):\(offsetY.keyText):\(scale.keyText)"
    }
}

extension ProcessingOptions.Trim: ResultKeyValue {
    var keyText: String {
        "\(threshold.keyText):\(color.keyText):\(equalHorizontal.keyText):\(equalVertical.keyText)"
    }
}

extension ProcessingOptions.VideoFrameLayout: ResultKeyValue {
    var keyText: String {
        [width.keyText, height.keyText, extend.keyText, trim.keyText, fill.keyText, focusX.keyText, focusY.keyText]
            .joined(separator: ":")
    }
}

extension ProcessingOptions.VideoTile: ResultKeyValue {
    var keyText: String { "\(step.keyText):\(columns.keyText):\(rows.keyText):\(layout.keyText)" }
}

extension ProcessingOptions.VideoAnimation: ResultKeyValue {
    var keyText: String { "\(step.keyText):\(delay.keyText):\(frames.keyText):\(layout.keyText)" }
}

extension ImageEncodeTuning.ChromaSubsampling: ResultKeyValue {}

extension ImageEncodeTuning.WebPCompression: ResultKeyValue {}

extension ImageEncodeTuning.WebPPreset: ResultKeyValue {}

extension ProcessingOptions.JPEGOptions: ResultKeyValue {
    var keyText: String { "\(progressive.keyText):\(noSubsample.keyText)" }
}

extension ProcessingOptions.PNGOptions: ResultKeyValue {
    var keyText: String { "\(interlaced.keyText):\(quantize.keyText):\(quantizationColors.keyText)" }
}

extension ProcessingOptions.WebPOptions: ResultKeyValue {
    var keyText: String { "\(compression.keyText):\(smartSubsample.keyText):\(preset.keyText)" }
}

extension ProcessingOptions.AVIFOptions: ResultKeyValue {
    var keyText: String { subsample.keyText }
}

extension ProcessingOptions.Monochrome: ResultKeyValue {
    var keyText: String { "\(intensity.keyText):\(color.keyText)" }
}

extension ProcessingOptions.Duotone: ResultKeyValue {
    var keyText: String { "\(intensity.keyText):\(dark.keyText):\(light.keyText)" }
}

extension ProcessingOptions.Colorize: ResultKeyValue {
    var keyText: String { "\(opacity.keyText):\(color.keyText):\(keepsAlpha.keyText)" }
}

extension ProcessingOptions.Gradient: ResultKeyValue {
    var keyText: String { "\(opacity.keyText):\(color.keyText):\(angle.keyText):\(start.keyText):\(stop.keyText)" }
}

extension ProcessingOptions.Hashsum: ResultKeyValue {
    var keyText: String { "\(algorithm.rawValue):\(hex)" }
}

extension ProcessingOptions.CropAspectRatio: ResultKeyValue {
    var keyText: String { "\(ratio.keyText):\(enlarges.keyText)" }
}

extension ImageProxyConfiguration.AutoQuality.Method: ResultKeyValue {}

extension ProcessingOptions.AutoQuality: ResultKeyValue {
    var keyText: String {
        "\(method.keyText):\(target.keyText):\(minQuality.keyText):\(maxQuality.keyText):\(allowedError.keyText)"
    }
}

extension Resampler.Kernel: ResultKeyValue {}

extension ImageProxyConfiguration.UnsharpMasking.Mode: ResultKeyValue {}

extension ProcessingOptions.UnsharpMaskingOverride: ResultKeyValue {
    var keyText: String { "\(mode.keyText):\(weight.keyText):\(divider.keyText)" }
}
