import Foundation
import WebImage

extension ProcessingOptionTable {
    /// imgproxy Pro's watermark options; each changes only what `watermark` draws.
    static let watermarks: [ProcessingOptionSpec] = [
        single(["watermark_url", "wmu"], \.watermarkImage.url) { arguments, text throws(ProxyError) in
            let url = try arguments.base64Text(text, refusal: "\(arguments.name) takes base64url-encoded UTF-8 text")
            guard let parsed = URL(string: url), parsed.scheme != nil else {
                throw .badRequest("watermark_url's URL '\(url)' has no scheme")
            }
            return url
        },
        single(["watermark_text", "wmt"], \.watermarkImage.text) { arguments, text throws(ProxyError) in
            try arguments.base64Text(text, refusal: "\(arguments.name) takes base64url-encoded UTF-8 text")
        },
        spec(["watermark_size", "wms"], key: .fields(\.watermarkImage.width, \.watermarkImage.height))
        { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.watermarkImage.width, arguments.dimension)
            try arguments.set(1, &options.watermarkImage.height, arguments.dimension)
        },
        single(["watermark_rotate", "wm_rot", "wmr"], \.watermarkImage.rotation) { arguments, text throws(ProxyError) in
            try arguments.number(text, in: -3600...3600)
        },
        single(["watermark_shadow", "wmsh"], \.watermarkImage.shadow) { arguments, text throws(ProxyError) in
            try arguments.number(text, in: 0...WatermarkEffects.maxShadowSigma)
        },
    ]
}
