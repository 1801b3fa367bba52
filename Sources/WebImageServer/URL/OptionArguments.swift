import Foundation
import WebImage

/// One option's name and raw arguments, with the typed readers every option uses.
struct OptionArguments {
    let name: String
    let values: [Substring]
    let maxDimension: Int

    /// Applies this option; unknown names and bad arguments throw ``ProxyError/badRequest(_:)``.
    func apply(to options: inout ProcessingOptions) throws(ProxyError) {
        switch name {
        case "resize", "rs":
            try count(1...5)
            try set(0, &options.resizingType, resizingType)
            try set(1, &options.width, dimension)
            try set(2, &options.height, dimension)
            try set(3, &options.enlarge, boolean)
        case "size", "s":
            try count(1...4)
            try set(0, &options.width, dimension)
            try set(1, &options.height, dimension)
            try set(2, &options.enlarge, boolean)
        case "resizing_type", "rt": try single(&options.resizingType, resizingType)
        case "width", "w": try single(&options.width, dimension)
        case "height", "h": try single(&options.height, dimension)
        case "enlarge", "el": try single(&options.enlarge, boolean)
        case "dpr":
            try single(&options.dpr) { text throws(ProxyError) in
                let value = try number(text)
                guard value > 0, value <= 8 else { throw .badRequest("dpr must be above 0 and at most 8, not \(text)") }
                return value
            }
        case "gravity", "g": options.gravity = try gravity(values)
        case "crop", "c":
            try count(1...5)
            options.crop = ProcessingOptions.Crop(width: try cropSide(values[0]),
                                                  height: values.count > 1 ? try cropSide(values[1]) : 0,
                                                  gravity: values.count > 2 ? try gravity(Array(values[2...])) : nil)
        case "quality", "q":
            try single(&options.quality) { text throws(ProxyError) in try integer(text, in: 0...100) }
        case "format", "f", "ext": try single(&options.format, format)
        case "blur", "bl": try single(&options.blur) { text throws(ProxyError) in try number(text, in: 0...100) }
        case "sharpen", "sh": try single(&options.sharpen) { text throws(ProxyError) in try number(text, in: 0...100) }
        case "rotate", "rot":
            try single(&options.rotate) { text throws(ProxyError) in
                let angle = try integer(text, in: -3600...3600)
                guard angle % 90 == 0 else { throw .badRequest("rotate takes a multiple of 90, not \(text)") }
                return (angle % 360 + 360) % 360
            }
        case "background", "bg": options.background = try background(values)
        case "strip_metadata", "sm": try single(&options.stripMetadata, boolean)
        case "max_bytes", "mb": try single(&options.maxBytes) { text throws(ProxyError) in try integer(text, in: 0...Int(Int32.max)) }
        case "cachebuster", "cb": try single(&options.cacheBuster) { String($0) }
        case "expires", "exp": try single(&options.expires) { text throws(ProxyError) in try integer(text, in: 0...Int.max) }
        default: throw .badRequest("unknown processing option '\(name)'")
        }
    }

    // MARK: - Argument shapes

    private func count(_ range: ClosedRange<Int>) throws(ProxyError) {
        guard range.contains(values.count) else {
            throw .badRequest("\(name) takes \(range.lowerBound)–\(range.upperBound) arguments, not \(values.count)")
        }
    }

    /// Sets `target` from argument `index` when it is present and not empty (empty keeps the current value).
    private func set<T>(_ index: Int, _ target: inout T, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        guard index < values.count, !values[index].isEmpty else { return }
        target = try read(values[index])
    }

    private func single<T>(_ target: inout T, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        try count(1...1)
        try set(0, &target, read)
    }

    private func single<T>(_ target: inout T?, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        try count(1...1)
        guard !values[0].isEmpty else { return }
        target = try read(values[0])
    }

    // MARK: - Value readers

    private func integer(_ text: Substring, in range: ClosedRange<Int>) throws(ProxyError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    private func number(_ text: Substring, in range: ClosedRange<Double> = -1e9...1e9) throws(ProxyError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .badRequest("\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    private func dimension(_ text: Substring) throws(ProxyError) -> Int {
        try integer(text, in: 0...maxDimension)
    }

    private func cropSide(_ text: Substring) throws(ProxyError) -> Double {
        try number(text, in: 0...Double(maxDimension))
    }

    private func boolean(_ text: Substring) throws(ProxyError) -> Bool {
        switch text.lowercased() {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .badRequest("\(name) takes 1/t/true or 0/f/false, not '\(text)'")
        }
    }

    private func resizingType(_ text: Substring) throws(ProxyError) -> ProcessingOptions.ResizingType {
        guard let type = ProcessingOptions.ResizingType(rawValue: String(text)) else {
            throw .badRequest("unknown resizing type '\(text)' (fit, fill, fill-down, force, auto)")
        }
        return type
    }

    private func format(_ text: Substring) throws(ProxyError) -> ImageFormat {
        try Self.outputFormat(text)
    }

    /// The output formats a URL may name (extension or `format:`), by their file extension.
    static func outputFormat(_ text: Substring) throws(ProxyError) -> ImageFormat {
        switch text.lowercased() {
        case "jpg", "jpeg": .jpeg
        case "png": .png
        case "webp": .webp
        case "gif": .gif
        case "avif": .avif
        default: throw .badRequest("unsupported output format '\(text)' (jpg, png, webp, avif, gif)")
        }
    }

    private func gravity(_ arguments: [Substring]) throws(ProxyError) -> ProcessingOptions.Gravity {
        guard let type = arguments.first, !type.isEmpty else { throw .badRequest("\(name) needs a gravity type") }
        let named: [Substring: ProcessingOptions.Gravity] = [
            "no": .north, "so": .south, "ea": .east, "we": .west, "noea": .northEast, "nowe": .northWest,
            "soea": .southEast, "sowe": .southWest, "ce": .center, "sm": .smart,
        ]
        if type == "fp" {
            guard arguments.count == 3 else { throw .badRequest("gravity fp takes x and y (0…1)") }
            return .focusPoint(x: try number(arguments[1], in: 0...1), y: try number(arguments[2], in: 0...1))
        }
        guard let gravity = named[type] else {
            throw .badRequest("unknown gravity '\(type)' (no so ea we noea nowe soea sowe ce sm fp:x:y)")
        }
        // Offsets (imgproxy's x_offset, y_offset) are accepted and must be numbers; processing ignores them.
        for offset in arguments.dropFirst() where !offset.isEmpty { _ = try number(offset) }
        return gravity
    }

    private func background(_ arguments: [Substring]) throws(ProxyError) -> RGBAColor? {
        switch arguments.count {
        case 1:
            if arguments[0].isEmpty { return nil }
            guard arguments[0].count == 6, let color = RGBAColor(hex: String(arguments[0])) else {
                throw .badRequest("background takes RRGGBB in hex or R:G:B, not '\(arguments[0])'")
            }
            return color
        case 3:
            let rgb = try arguments.map { component throws(ProxyError) in UInt8(try integer(component, in: 0...255)) }
            return RGBAColor(red: rgb[0], green: rgb[1], blue: rgb[2])
        default:
            throw .badRequest("background takes RRGGBB in hex or R:G:B")
        }
    }
}
