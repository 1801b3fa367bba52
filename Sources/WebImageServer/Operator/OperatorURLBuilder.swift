import Foundation

/// The URL builder behind `POST /operator/sign`: a few common options and a source, made into a service path,
/// signed as the service checks it (or unsigned where it accepts that), then checked by the service's own
/// parser and source policy so the page never shows a URL the service would refuse.
struct OperatorURLBuilder {
    /// The page's form.
    struct Form: Decodable, Sendable {
        var source: String
        /// imgproxy's resizing type: `fit`, `fill`, `fill-down`, `force`, `auto`. Default `fit`.
        var resize: String?
        var width: Int?
        var height: Int?
        /// imgproxy's gravity (`ce`, `sm`, `no`, …); nil: the service's default.
        var gravity: String?
        /// An output extension (`webp`, `png`, …); nil or empty: negotiated.
        var format: String?
        var quality: Int?
    }

    /// The answer: the result's path and the source's as it came (`raw`), both signed; the original is nil
    /// when the service refuses `raw` (presets-only mode).
    struct Built: Encodable, Sendable {
        var path: String
        var originalPath: String?
        var signed: Bool
    }

    let proxy: ImageProxy
    let page: OperatorPage

    func build(_ form: Form) throws(ProxyError) -> Built {
        let source = form.source.trimmingCharacters(in: .whitespaces)
        guard !source.isEmpty else { throw .badRequest("give a source URL") }
        var options: [String] = []
        if form.resize != nil || form.width != nil || form.height != nil {
            options.append("rs:\(form.resize ?? "fit"):\(form.width ?? 0):\(form.height ?? 0)")
        }
        if let gravity = form.gravity, !gravity.isEmpty { options.append("g:\(gravity)") }
        if let quality = form.quality { options.append("q:\(quality)") }
        let format = form.format.flatMap { $0.isEmpty ? nil : $0 }
        let path = try sign(Self.unsignedPath(options: options, source: source, format: format))
        _ = try proxy.job(for: Substring(path.path), accept: nil)
        let original = try? sign(Self.unsignedPath(options: ["raw:1"], source: source, format: nil))
        let checked = original.flatMap { try? proxy.job(for: Substring($0.path), accept: nil) }
        return Built(path: path.path, originalPath: checked == nil ? nil : original?.path, signed: path.signed)
    }

    /// `/<options>/plain/<percent-encoded source>[@<format>]`: the part a signature covers.
    static func unsignedPath(options: [String], source: String, format: String?) -> String {
        let encoded = source.addingPercentEncoding(withAllowedCharacters: unreserved) ?? source
        return options.map { "/" + $0 }.joined() + "/plain/" + encoded + (format.map { "@" + $0 } ?? "")
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `path` signed with the first key pair when the page may sign, else `/unsafe` when the service takes
    /// unsigned URLs; refused otherwise.
    private func sign(_ path: String) throws(ProxyError) -> (path: String, signed: Bool) {
        if page.signsURLs, !proxy.configuration.signing.keyPairs.isEmpty {
            return (proxy.signer.sign(path), true)
        }
        if proxy.configuration.signing.allowsUnsigned { return ("/unsafe" + path, false) }
        if proxy.configuration.signing.keyPairs.isEmpty { throw .forbidden("the service has no key to sign with") }
        throw .forbidden("signing is off on this listener: start webimage serve with --operator-signing")
    }
}
