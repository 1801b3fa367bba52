import WebImage

/// Parses `--transform`: `;`-separated steps applied in order, as one transformer (and one cache-key suffix).
///
/// Steps: `resize:WxH[:fill|fit|cover]`, `crop:X,Y,W,H`, `round:RADIUS`, `flip:h|v|hv`,
/// `rotate:DEGREES` (counter-clockwise), `tint:#RRGGBB[AA]`, `blur:RADIUS`. Sizes are in points, like the transformers themselves.
package enum TransformSpec {
    /// The transformer for `spec`; throws a one-line reason naming the bad step.
    package static func parse(_ spec: String) throws -> any ImageTransforming {
        let steps = try spec.split(separator: ";").map { try step(String($0).trimmingCharacters(in: .whitespaces)) }
        guard !steps.isEmpty else { throw failure(spec, "no steps") }
        return steps.count == 1 ? steps[0] : ImageTransformers.Pipeline(steps)
    }

    private static func step(_ text: String) throws -> any ImageTransforming {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0].lowercased()
        let arguments = Array(parts.dropFirst())
        switch (name, arguments.count) {
        case ("resize", 1), ("resize", 2):
            guard let size = PixelSize(parsing: arguments[0]) else {
                throw failure(text, "give resize:WxH[:fill|fit|cover]")
            }
            let mode: ImageTransformers.Resize.Mode
            switch arguments.count == 2 ? arguments[1].lowercased() : "fill" {
            case "fill": mode = .fill
            case "fit", "aspectfit": mode = .aspectFit
            case "cover", "aspectfill": mode = .aspectFill
            default: throw failure(text, "resize mode must be fill, fit or cover")
            }
            return ImageTransformers.Resize(width: Double(size.width), height: Double(size.height), mode: mode)
        case ("crop", 1):
            let numbers = arguments[0].split(separator: ",").compactMap { Double($0) }
            guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else { throw failure(text, "give crop:X,Y,W,H") }
            return ImageTransformers.Crop(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        case ("round", 1):
            return ImageTransformers.RoundCorner(radius: try number(arguments[0], in: text, minimum: 0))
        case ("flip", 1):
            let axes = arguments[0].lowercased()
            guard ["h", "v", "hv", "vh"].contains(axes) else { throw failure(text, "give flip:h, flip:v or flip:hv") }
            return ImageTransformers.Flip(horizontal: axes.contains("h"), vertical: axes.contains("v"))
        case ("rotate", 1):
            let degrees = try number(arguments[0], in: text, minimum: -.greatestFiniteMagnitude)
            return ImageTransformers.Rotate(angle: degrees * .pi / 180)
        case ("tint", 1):
            guard let color = RGBAColor(hex: arguments[0]) else {
                throw failure(text, "give tint:#RRGGBB or #RRGGBBAA")
            }
            return ImageTransformers.Tint(color: color)
        case ("blur", 1):
            return ImageTransformers.Blur(radius: try number(arguments[0], in: text, minimum: 0))
        default:
            throw failure(text, "unknown step; use resize, crop, round, flip, rotate, tint or blur")
        }
    }

    private static func number(_ text: String, in step: String, minimum: Double) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= minimum else {
            throw failure(step, "'\(text)' is not a valid number here")
        }
        return value
    }

    private static func failure(_ step: String, _ reason: String) -> CLIFailure {
        CLIFailure(subject: "--transform", reason: "bad step '\(step)': \(reason)")
    }
}
