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
    /// The option segments, in order (not yet parsed).
    public var optionSegments: [Substring]
    /// The source URL, decoded.
    public var source: String
    /// The output format the path's extension names; nil when it has none.
    public var extensionFormat: ImageFormat?

    /// Splits `path` (starting with `/`, without a query); throws ``ProxyError/badRequest(_:)`` when it has no
    /// source or the source does not decode.
    public init(_ path: Substring) throws(ProxyError) {
        guard path.hasPrefix("/") else { throw .badRequest("the path must start with /") }
        let body = path.dropFirst()
        guard let slash = body.firstIndex(of: "/") else { throw .badRequest("the path has no source URL") }
        signature = body[..<slash]
        signedPart = body[slash...]
        var segments = signedPart.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        var options: [Substring] = []
        while let segment = segments.first, segment != "plain", segment.contains(":") {
            options.append(segment)
            segments = segments.dropFirst()
        }
        optionSegments = options
        if segments.first == "plain" {
            (source, extensionFormat) = try Self.plainSource(segments.dropFirst().joined(separator: "/"))
        } else {
            (source, extensionFormat) = try Self.encodedSource(segments.joined())
        }
        guard !source.isEmpty else { throw .badRequest("the path has no source URL") }
    }

    /// A percent-encoded source with an optional `@ext`.
    private static func plainSource(_ text: String) throws(ProxyError) -> (String, ImageFormat?) {
        var encoded = Substring(text), format: ImageFormat?
        if let at = encoded.lastIndex(of: "@") {
            format = try OptionArguments.outputFormat(encoded[encoded.index(after: at)...])
            encoded = encoded[..<at]
        }
        guard let decoded = encoded.removingPercentEncoding else {
            throw .badRequest("the plain source URL is not valid percent-encoding")
        }
        return (decoded, format)
    }

    /// A base64url source (padding optional) with an optional `.ext`.
    private static func encodedSource(_ text: String) throws(ProxyError) -> (String, ImageFormat?) {
        var encoded = Substring(text), format: ImageFormat?
        if let dot = encoded.lastIndex(of: ".") {
            format = try OptionArguments.outputFormat(encoded[encoded.index(after: dot)...])
            encoded = encoded[..<dot]
        }
        guard let data = Base64URL.decode(encoded), let decoded = String(data: data, encoding: .utf8) else {
            throw .badRequest("the source URL is not valid base64url")
        }
        return (decoded, format)
    }
}

/// Base64 with the URL-safe alphabet (`-`, `_`), padding optional on input and left out on output.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "=") })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.replacingOccurrences(of: "=", with: "")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
