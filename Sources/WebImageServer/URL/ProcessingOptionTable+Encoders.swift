import WebImage

extension ProcessingOptionTable {
    /// imgproxy Pro's encoder options: each argument may be empty, keeping the service's setting.
    static let encoders: [ProcessingOptionSpec] = [
        spec(["jpeg_options", "jpgo"], key: .fields(\.jpegOptions)) { arguments, options throws(ProxyError) in
            try arguments.count(1...6)
            try arguments.set(0, &options.jpegOptions.progressive, arguments.boolean)
            try arguments.set(1, &options.jpegOptions.noSubsample, arguments.boolean)
            // trellis_quant, overshoot_deringing and optimize_scans are mozjpeg's: checked, without effect.
            for text in arguments.values.dropFirst(2).prefix(3) where !text.isEmpty { _ = try arguments.boolean(text) }
            var table = 0
            try arguments.set(5, &table) { text throws(ProxyError) in try arguments.integer(text, in: 0...8) }
            guard table == 0 else {
                throw .badRequest("jpeg_options: quantization table \(table) needs mozjpeg; only 0 (JPEG Annex K) is "
                                  + "written here")
            }
        },
        spec(["png_options", "pngo"], key: .fields(\.pngOptions)) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            try arguments.set(0, &options.pngOptions.interlaced, arguments.boolean)
            try arguments.set(1, &options.pngOptions.quantize, arguments.boolean)
            try arguments.set(2, &options.pngOptions.quantizationColors) { text throws(ProxyError) in
                try arguments.integer(text, in: 2...256)
            }
        },
        spec(["webp_options", "webpo"], key: .fields(\.webpOptions)) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            try arguments.set(0, &options.webpOptions.compression, arguments.choice)
            try arguments.set(1, &options.webpOptions.smartSubsample, arguments.boolean)
            try arguments.set(2, &options.webpOptions.preset, arguments.choice)
        },
        spec(["avif_options", "avifo"], key: .fields(\.avifOptions)) { arguments, options throws(ProxyError) in
            try arguments.single(&options.avifOptions.subsample, arguments.choice)
        },
    ]
}
