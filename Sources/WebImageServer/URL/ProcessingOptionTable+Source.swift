import Foundation
import WebImage

extension ProcessingOptionTable {
    /// imgproxy Pro's options about the source: its pages and animation, a video's frame, an SVG's style sheet and
    /// its digest.
    static let source: [ProcessingOptionSpec] = [
        single(["page", "pg"], \.page) { arguments, text throws(ProxyError) in try arguments.integer(text, in: 0...100_000) },
        single(["pages", "pgs"], \.pages) { arguments, text throws(ProxyError) in try arguments.integer(text, in: 1...1000) },
        flag(["disable_animation", "da"], \.disableAnimation),
        single(["video_thumbnail_second", "vts"], \.videoThumbnailSecond) { arguments, text throws(ProxyError) in
            try arguments.number(text, in: 0...1e7)
        },
        flag(["video_thumbnail_keyframes", "vtk"], \.videoThumbnailKeyframes),
        spec(["video_thumbnail_tile", "vtt"], key: .fields(\.videoTile)) { arguments, options throws(ProxyError) in
            try arguments.count(5...10)
            let step = try arguments.number(arguments.values[0], in: -1e7...1e7)
            let columns = try arguments.integer(arguments.values[1], in: 1...100)
            let rows = try arguments.integer(arguments.values[2], in: 1...100)
            options.videoTile = step == 0 ? nil
                : ProcessingOptions.VideoTile(step: step, columns: columns, rows: rows,
                                              layout: try ProcessingOptions.VideoFrameLayout(arguments, from: 3))
        },
        spec(["video_thumbnail_animation", "vta"], key: .fields(\.videoAnimation)) { arguments, options throws(ProxyError) in
            try arguments.count(5...10)
            let step = try arguments.number(arguments.values[0], in: -1e7...1e7)
            let delay = try arguments.integer(arguments.values[1], in: 0...65_535)
            let frames = try arguments.integer(arguments.values[2], in: 1...1000)
            options.videoAnimation = step == 0 ? nil
                : ProcessingOptions.VideoAnimation(step: step, delay: delay, frames: frames,
                                                   layout: try ProcessingOptions.VideoFrameLayout(arguments, from: 3))
        },
        single(["style", "st"], \.style) { arguments, text throws(ProxyError) in
            try arguments.base64Text(text, refusal: "style takes base64url-encoded UTF-8 CSS")
        },
        single(["fallback_image_url", "fiu"], \.fallbackImageURL,
               effect: .request("only when the source fails; a fallback answer is never cached"))
        { arguments, text throws(ProxyError) in
            let refusal = "fallback_image_url takes a base64url-encoded URL"
            let url = try arguments.base64Text(text, refusal: refusal)
            guard URL(string: url)?.scheme != nil else { throw .badRequest(refusal) }
            return url
        },
        spec(["hashsum", "hs"], key: .fields(\.hashsum)) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            guard arguments.values[0] != "none" else {
                options.hashsum = nil
                return
            }
            let algorithm: ProcessingOptions.Hashsum.Algorithm = try arguments.choice(arguments.values[0])
            let text = arguments.values.count > 1 ? arguments.values[1] : ""
            let hex = Array(text.utf8)
            let isHexDigit = { (byte: UInt8) in Character(UnicodeScalar(byte)).isHexDigit }
            guard hex.count == algorithm.byteCount * 2, hex.allSatisfy(isHexDigit) else {
                throw .badRequest("hashsum's \(algorithm.rawValue) digest is \(algorithm.byteCount * 2) hex digits, "
                                  + "not '\(text)'")
            }
            // Every digit checked above: each pair reads.
            let bytes = stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
            }
            options.hashsum = ProcessingOptions.Hashsum(algorithm: algorithm, digest: bytes)
        },
    ]
}
