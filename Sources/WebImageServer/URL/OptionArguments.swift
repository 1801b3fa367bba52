import Foundation
import WebImage

/// One option's name (as written in the URL) and raw arguments, with the typed readers every option's
/// declaration (``ProcessingOptionTable``) uses.
struct OptionArguments {
    let name: String
    let values: [Substring]
    let maxDimension: Int
    /// Whether the per-URL security options may be used (imgproxy's `IMGPROXY_ALLOW_SECURITY_OPTIONS`).
    var allowsSecurityOptions = false

    // MARK: - Argument shapes

    func count(_ range: ClosedRange<Int>) throws(ProxyError) {
        guard range.contains(values.count) else {
            throw .badRequest("\(name) takes \(range.lowerBound)–\(range.upperBound) arguments, not \(values.count)")
        }
    }

    /// Sets `target` from argument `index` when it is present and not empty (empty keeps the current value).
    func set<T>(_ index: Int, _ target: inout T, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        guard index < values.count, !values[index].isEmpty else { return }
        target = try read(values[index])
    }

    func single<T>(_ target: inout T, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        try count(1...1)
        try set(0, &target, read)
    }

    func single<T>(_ target: inout T?, _ read: (Substring) throws(ProxyError) -> T) throws(ProxyError) {
        try count(1...1)
        guard !values[0].isEmpty else { return }
        target = try read(values[0])
    }

    // MARK: - Value readers

    func integer(_ text: Substring, in range: ClosedRange<Int>) throws(ProxyError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    func number(_ text: Substring, in range: ClosedRange<Double> = -1e9...1e9) throws(ProxyError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .badRequest("\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    func dimension(_ text: Substring) throws(ProxyError) -> Int {
        try integer(text, in: 0...maxDimension)
    }

    func cropSide(_ text: Substring) throws(ProxyError) -> Double {
        try number(text, in: 0...Double(maxDimension))
    }

    func boolean(_ text: Substring) throws(ProxyError) -> Bool {
        switch text.lowercased() {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .badRequest("\(name) takes 1/t/true or 0/f/false, not '\(text)'")
        }
    }

    /// One of a setting's names (its raw values), in any case.
    func choice<Choice: RawRepresentable & CaseIterable>(_ text: Substring) throws(ProxyError) -> Choice
        where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("\(name) takes one of \(names), not '\(text)'")
        }
        return choice
    }

    func resizingType(_ text: Substring) throws(ProxyError) -> ProcessingOptions.ResizingType {
        guard let type = ProcessingOptions.ResizingType(rawValue: String(text)) else {
            throw .badRequest("unknown resizing type '\(text)' (fit, fill, fill-down, force, auto)")
        }
        return type
    }

    func format(_ text: Substring) throws(ProxyError) -> ImageFormat {
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
        case "jxl": .jxl
        case "heic": .heic
        case "tiff", "tif": .tiff
        case "bmp": .bmp
        case "ico": .ico
        case "svg": .svg
        default: throw .badRequest("unsupported output format '\(text)' (jpg, png, webp, avif, gif, jxl, heic, tiff, bmp, ico, svg)")
        }
    }

    /// A gravity and its offsets (`type:x:y`; `fp:x:y` is a focus point, each 0…1; `sm`, smart gravity, takes
    /// none).
    func gravity(_ arguments: [Substring]) throws(ProxyError) -> (ProcessingOptions.Gravity, x: Double, y: Double) {
        guard let type = arguments.first, !type.isEmpty else { throw .badRequest("\(name) needs a gravity type") }
        guard arguments.count <= 3 else { throw .badRequest("\(name) takes a type and at most two offsets") }
        let named: [Substring: ProcessingOptions.Gravity] = [
            "no": .north, "so": .south, "ea": .east, "we": .west, "noea": .northEast, "nowe": .northWest,
            "soea": .southEast, "sowe": .southWest, "ce": .center,
        ]
        if type == "fp" {
            guard arguments.count == 3 else { throw .badRequest("gravity fp takes x and y (0…1)") }
            return (.focusPoint(x: try number(arguments[1], in: 0...1), y: try number(arguments[2], in: 0...1)), 0, 0)
        }
        if type == "sm" {
            guard arguments.count == 1 else { throw .badRequest("smart gravity (sm) takes no offsets") }
            return (.smart, 0, 0)
        }
        if type == "obj" || type == "objw" {
            throw .badRequest("gravity '\(type)' \(ProcessingOptionTable.detectionRefusal)")
        }
        guard let gravity = named[type] else {
            throw .badRequest("unknown gravity '\(type)' (no so ea we noea nowe soea sowe ce sm fp:x:y)")
        }
        func offset(_ index: Int) throws(ProxyError) -> Double {
            index < arguments.count && !arguments[index].isEmpty ? try number(arguments[index]) : 0
        }
        return (gravity, try offset(1), try offset(2))
    }

    /// A base64url argument (URL-safe, padding optional) as UTF-8 text; `refusal` is the 400's message otherwise.
    func base64Text(_ text: Substring, refusal: @autoclosure () -> String) throws(ProxyError) -> String {
        guard let bytes = Base64URL.decode(text), let decoded = String(bytes: bytes, encoding: .utf8) else {
            throw .badRequest(refusal())
        }
        return decoded
    }

    /// An opaque colour in hex, `RRGGBB` or `RGB` (each digit doubled), as imgproxy reads colours.
    func hexColor(_ text: Substring) throws(ProxyError) -> RGBAColor {
        let digits = text.count == 3 ? String(text.flatMap { [$0, $0] }) : String(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let color = RGBAColor(hex: digits) else {
            throw .badRequest("\(name) takes a colour as RRGGBB or RGB in hex, not '\(text)'")
        }
        return color
    }

    func background(_ arguments: [Substring]) throws(ProxyError) -> RGBAColor? {
        switch arguments.count {
        case 1:
            if arguments[0].isEmpty { return nil }
            return try hexColor(arguments[0])
        case 3:
            let rgb = try arguments.map { component throws(ProxyError) in UInt8(try integer(component, in: 0...255)) }
            return RGBAColor(red: rgb[0], green: rgb[1], blue: rgb[2])
        default:
            throw .badRequest("background takes RRGGBB or RGB in hex, or R:G:B")
        }
    }
}
