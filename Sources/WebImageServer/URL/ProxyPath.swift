import Foundation
import WebImage

/// A request path in imgproxy's form, taken apart:
/// `/<signature>/<options>/plain/<percent-encoded source>[@<ext>]` or
/// `/<signature>/<options>/<base64url source, split by / anywhere>[.<ext>]`.
///
/// The signed part is everything after the signature, its leading `/` included, exactly as sent.
public struct ProxyPath: Sendable, Hashable {
    /// The signature segment (`_`, `unsafe` or an HMAC).
    public var signature: Substring
    /// The path the signature covers: from the `/` after the signature to the end.
    public var signedPart: Substring
    /// The option segments, in order (not yet parsed), `-` between chained pipelines.
    public var optionSegments: [Substring]
    /// The source URL, decoded.
    public var source: String
    /// The output format the path's extension names; nil when it has none.
    public var extensionFormat: ImageFormat?
    /// The extension is imgproxy Pro's `best`: the service picks the format (``FormatChoice/best``).
    public var extensionIsBest = false

    /// Splits `path` (starting with `/`, without a query); throws ``ProxyError/badRequest(_:)`` when it has no
    /// source or the source does not decode. In presets-only mode the first segment after the signature is the
    /// options (a list of preset names), whatever it holds, as in imgproxy.
    public init(_ path: Substring, onlyPresets: Bool = false) throws(ProxyError) {
        guard path.hasPrefix("/") else { throw .badRequest("the path must start with /") }
        let body = path.dropFirst()
        guard let slash = body.firstIndex(of: "/") else { throw .badRequest("the path has no source URL") }
        signature = body[..<slash]
        signedPart = body[slash...]
        var segments = signedPart.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        var options: [Substring] = []
        if onlyPresets {
            guard let first = segments.popFirst(), segments.first != nil else {
                throw .badRequest("the path has no source URL")
            }
            options.append(first)
        }
        // `-` starts a chained pipeline (imgproxy Pro).
        while !onlyPresets, let segment = segments.first, segment != "plain", segment.contains(":") || segment == "-" {
            options.append(segment)
            segments = segments.dropFirst()
        }
        optionSegments = options
        if segments.first == "plain" {
            (source, extensionFormat, extensionIsBest) = try Self.plainSource(segments.dropFirst().joined(separator: "/"))
        } else {
            (source, extensionFormat, extensionIsBest) = try Self.encodedSource(segments.joined())
        }
        guard !source.isEmpty else { throw .badRequest("the path has no source URL") }
    }

    /// A percent-encoded source with an optional `@ext`.
    private static func plainSource(_ text: String) throws(ProxyError) -> (String, ImageFormat?, Bool) {
        var encoded = Substring(text), format: ImageFormat?, best = false
        if let at = encoded.lastIndex(of: "@") {
            (format, best) = try extensionFormat(encoded[encoded.index(after: at)...])
            encoded = encoded[..<at]
        }
        guard let decoded = encoded.removingPercentEncoding else {
            throw .badRequest("the plain source URL is not valid percent-encoding")
        }
        return (decoded, format, best)
    }

    /// An extension's format, or none and imgproxy Pro's `best`.
    private static func extensionFormat(_ text: Substring) throws(ProxyError) -> (ImageFormat?, Bool) {
        text.lowercased() == "best" ? (nil, true) : (try OptionArguments.outputFormat(text), false)
    }

    /// A base64url source (padding optional) with an optional `.ext`.
    private static func encodedSource(_ text: String) throws(ProxyError) -> (String, ImageFormat?, Bool) {
        var encoded = Substring(text), format: ImageFormat?, best = false
        if let dot = encoded.lastIndex(of: ".") {
            (format, best) = try extensionFormat(encoded[encoded.index(after: dot)...])
            encoded = encoded[..<dot]
        }
        guard let data = Base64URL.decode(encoded), let decoded = String(data: data, encoding: .utf8) else {
            throw .badRequest("the source URL is not valid base64url")
        }
        return (decoded, format, best)
    }
}

/// Base64 with the URL-safe alphabet (`-`, `_`), padding optional on input and left out on output.
///
/// Done on bytes: every request's signature check and every base64 source go through it, and Foundation's
/// route (replacing characters to reach standard base64) cost several per cent of a cache hit's CPU.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let count = min(3, input.count - index)
            var group = UInt32(input[index]) << 16
            if count > 1 { group |= UInt32(input[index + 1]) << 8 }
            if count > 2 { group |= UInt32(input[index + 2]) }
            for position in 0...count { output.append(alphabet[Int(group >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes, or nil for a character outside the alphabet or a length no encoding has; `=` is ignored.
    static func decode(_ text: Substring) -> Data? {
        var output = Data()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var bits: UInt32 = 0, pending = 0
        for byte in text.utf8 where byte != UInt8(ascii: "=") {
            guard let value = value(of: byte) else { return nil }
            bits = bits << 6 | value
            pending += 6
            if pending >= 8 {
                pending -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> UInt32(pending)))
                bits &= (1 << UInt32(pending)) - 1
            }
        }
        return pending < 6 ? output : nil
    }

    private static func value(of byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
