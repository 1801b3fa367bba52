import Foundation

/// One request `webimage-demo serve` makes against itself, and the answer it expects.
struct ServeDemoStep: Sendable {
    /// What the step shows.
    var name: String
    /// The path, signed (or deliberately not).
    var path: String
    var expectedStatus: Int
    /// Expected `Content-Type`; nil: not checked.
    var expectedType: String?
    /// Send the `ETag` the step at this index got as `If-None-Match`.
    var revalidates: Int?

    /// The tour: resize, format conversion, an animation kept animated, `/info`, a 304, a missing source, a
    /// refused SSRF source and a bad signature. `sign` turns `/<options>/plain/<source>` into a signed path.
    static func tour(origin: (String) -> String, sign: (String) -> String) -> [ServeDemoStep] {
        func plain(_ options: String, _ source: String, ext: String? = nil) -> String {
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            return (options.isEmpty ? "" : "/" + options) + "/plain/" + encoded + (ext.map { "@" + $0 } ?? "")
        }
        let photo = origin(ServeDemoOrigin.photoPath)
        let resize = sign(plain("rs:fit:320:240", photo))
        let forged = "/" + String(repeating: "A", count: 43) + plain("rs:fit:320:240", photo)
        return [
            ServeDemoStep(name: "resize: JPEG 640x480 to fit 320x240", path: resize, expectedStatus: 200,
                          expectedType: "image/jpeg"),
            ServeDemoStep(name: "convert: PNG with alpha to WebP, fill 200x200",
                          path: sign(plain("rs:fill:200:200", origin(ServeDemoOrigin.alphaPath), ext: "webp")),
                          expectedStatus: 200, expectedType: "image/webp"),
            ServeDemoStep(name: "animation: GIF 100 px wide, every frame kept",
                          path: sign(plain("w:100", origin(ServeDemoOrigin.animationPath))), expectedStatus: 200,
                          expectedType: "image/gif"),
            ServeDemoStep(name: "info: the source's format, size and frames",
                          path: "/info" + sign(plain("", photo)), expectedStatus: 200,
                          expectedType: "application/json"),
            ServeDemoStep(name: "revalidate: the resize again with its ETag", path: resize, expectedStatus: 304,
                          revalidates: 0),
            ServeDemoStep(name: "missing source: the origin answers 404",
                          path: sign(plain("w:100", origin(ServeDemoOrigin.missingPath))), expectedStatus: 404),
            ServeDemoStep(name: "SSRF refused: the cloud metadata address",
                          path: sign(plain("w:100", "http://169.254.169.254/latest/meta-data/")), expectedStatus: 404),
            ServeDemoStep(name: "bad signature: refused before any fetch", path: forged, expectedStatus: 403),
        ]
    }
}
