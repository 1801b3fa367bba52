import WebImage

/// Every processing option the service takes, and those it refuses by name. Each declaration says how the
/// option enters the result key: the fields it owns (`key: .fields(...)`, or the field `single` and `flag` set),
/// or nil where other options own its fields (`resize`, `size`) or its effect is `.request`.
enum ProcessingOptionTable {
    static let all: [ProcessingOptionSpec] = geometry + output + encoders + filters + watermarks + tone + source
        + request + headers + security

    /// Each name and alias to its option.
    static let byName: [String: ProcessingOptionSpec] = Dictionary(
        uniqueKeysWithValues: all.flatMap { spec in spec.names.map { ($0, spec) } })

    static let geometry: [ProcessingOptionSpec] = [
        // Shorthands: `resizing_type`, `width`, `height`, `enlarge` and `extend` own their fields in the key.
        spec(["resize", "rs"], key: nil) { arguments, options throws(ProxyError) in
            try arguments.count(1...8)
            try arguments.set(0, &options.resizingType, arguments.resizingType)
            try arguments.set(1, &options.width, arguments.dimension)
            try arguments.set(2, &options.height, arguments.dimension)
            try arguments.set(3, &options.enlarge, arguments.boolean)
            try extensionRule(arguments, from: 4, into: &options.extend)
        },
        spec(["size", "s"], key: nil) { arguments, options throws(ProxyError) in
            try arguments.count(1...7)
            try arguments.set(0, &options.width, arguments.dimension)
            try arguments.set(1, &options.height, arguments.dimension)
            try arguments.set(2, &options.enlarge, arguments.boolean)
            try extensionRule(arguments, from: 3, into: &options.extend)
        },
        single(["resizing_type", "rt"], \.resizingType) { arguments, text throws(ProxyError) in
            try arguments.resizingType(text)
        },
        single(["resizing_algorithm", "ra"], \.resizingAlgorithm) { arguments, text throws(ProxyError) in
            guard let kernel = Resampler.Kernel(rawValue: text.lowercased()), kernel != .area else {
                throw .badRequest("resizing_algorithm takes nearest, linear, cubic, lanczos2 or lanczos3, not '\(text)'")
            }
            return kernel
        },
        single(["width", "w"], \.width) { arguments, text throws(ProxyError) in try arguments.dimension(text) },
        single(["height", "h"], \.height) { arguments, text throws(ProxyError) in try arguments.dimension(text) },
        flag(["enlarge", "el"], \.enlarge),
        spec(["extend", "ex"], key: .fields(\.extend)) { arguments, options throws(ProxyError) in
            try arguments.count(1...4)
            try extensionRule(arguments, from: 0, into: &options.extend)
        },
        spec(["extend_aspect_ratio", "extend_ar", "exar"], key: .fields(\.extendAspectRatio))
        { arguments, options throws(ProxyError) in
            try arguments.count(1...4)
            try extensionRule(arguments, from: 0, into: &options.extendAspectRatio)
        },
        single(["min-width", "mw"], \.minWidth) { arguments, text throws(ProxyError) in try arguments.dimension(text) },
        single(["min-height", "mh"], \.minHeight) { arguments, text throws(ProxyError) in try arguments.dimension(text) },
        spec(["zoom", "z"], key: .fields(\.zoomX, \.zoomY)) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            func zoom(_ text: Substring) throws(ProxyError) -> Double {
                let value = try arguments.number(text, in: 0...100)
                guard value > 0 else { throw .badRequest("zoom must be above 0, not \(text)") }
                return value
            }
            try arguments.set(0, &options.zoomX, zoom)
            options.zoomY = options.zoomX
            try arguments.set(1, &options.zoomY, zoom)
        },
        spec(["padding", "pd"], key: .fields(\.padding)) { arguments, options throws(ProxyError) in
            try arguments.count(1...4)
            func side(_ index: Int) throws(ProxyError) -> Int? {
                index < arguments.values.count && !arguments.values[index].isEmpty
                    ? try arguments.integer(arguments.values[index], in: 0...arguments.maxDimension) : nil
            }
            // CSS's shorthand: top, then right (else top), bottom (else top), left (else right).
            let top = try side(0) ?? 0
            let right = try side(1) ?? top
            options.padding = ProcessingOptions.Padding(top: top, right: right, bottom: try side(2) ?? top,
                                                        left: try side(3) ?? right)
        },
        single(["dpr"], \.dpr) { arguments, text throws(ProxyError) in
            let value = try arguments.number(text)
            guard value > 0, value <= 8 else { throw .badRequest("dpr must be above 0 and at most 8, not \(text)") }
            return value
        },
        spec(["gravity", "g"], key: .fields(\.gravity, \.gravityOffsetX, \.gravityOffsetY))
        { arguments, options throws(ProxyError) in
            (options.gravity, options.gravityOffsetX, options.gravityOffsetY) = try arguments.gravity(arguments.values)
        },
        spec(["crop", "c"], key: .fields(\.crop)) { arguments, options throws(ProxyError) in
            try arguments.count(1...5)
            var crop = ProcessingOptions.Crop(width: try arguments.cropSide(arguments.values[0]),
                                              height: arguments.values.count > 1
                                                  ? try arguments.cropSide(arguments.values[1]) : 0)
            if arguments.values.count > 2 {
                let (gravity, x, y) = try arguments.gravity(Array(arguments.values[2...]))
                (crop.gravity, crop.offsetX, crop.offsetY) = (gravity, x, y)
            }
            options.crop = crop
        },
        // Only `crop`'s area is corrected (without a crop it changes nothing).
        spec(["crop_aspect_ratio", "crop_ar", "car"], key: .fields(\.cropAspectRatio))
        { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            let ratio = try arguments.number(arguments.values[0], in: 0...10_000)
            var enlarges = false
            try arguments.set(1, &enlarges, arguments.boolean)
            options.cropAspectRatio = ratio > 0 ? ProcessingOptions.CropAspectRatio(ratio: ratio, enlarges: enlarges) : nil
        },
        spec(["trim", "t"], key: .fields(\.trim)) { arguments, options throws(ProxyError) in
            try arguments.count(1...4)
            var trim = ProcessingOptions.Trim(threshold: try arguments.number(arguments.values[0], in: 0...255))
            try arguments.set(1, &trim.color, arguments.hexColor)
            try arguments.set(2, &trim.equalHorizontal, arguments.boolean)
            try arguments.set(3, &trim.equalVertical, arguments.boolean)
            options.trim = trim
        },
        single(["rotate", "rot"], \.rotate) { arguments, text throws(ProxyError) in
            let angle = try arguments.integer(text, in: -3600...3600)
            guard angle % 90 == 0 else { throw .badRequest("rotate takes a multiple of 90, not \(text)") }
            return (angle % 360 + 360) % 360
        },
        spec(["flip", "fl"], key: .fields(\.flipHorizontally, \.flipVertically)) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.flipHorizontally, arguments.boolean)
            try arguments.set(1, &options.flipVertically, arguments.boolean)
        },
        flag(["auto_rotate", "ar"], \.autoRotate),
    ]

    static let output: [ProcessingOptionSpec] = [
        // With none, ResultKey writes the service's qualities (EncodingDefaults) in its place.
        single(["quality", "q"], \.quality) { arguments, text throws(ProxyError) in try arguments.integer(text, in: 0...100) },
        // Read only when the URL gives no quality.
        spec(["format_quality", "fq"], key: .fields(\.formatQuality, when: { $0.quality == 0 }))
        { arguments, options throws(ProxyError) in
            guard !arguments.values.isEmpty, arguments.values.count.isMultiple(of: 2) else {
                throw .badRequest("format_quality takes pairs of format and quality")
            }
            for index in stride(from: 0, to: arguments.values.count, by: 2) {
                let format = try arguments.format(arguments.values[index])
                options.formatQuality[format] = try arguments.integer(arguments.values[index + 1], in: 0...100)
            }
        },
        // The key's format bucket (FormatChoice) stands for it, with the URL's extension and Accept.
        spec(["format", "f", "ext"], key: nil) { arguments, options throws(ProxyError) in
            try arguments.count(1...1)
            options.bestFormat = arguments.values[0].lowercased() == "best"
            if options.bestFormat {
                options.format = nil
            } else {
                try arguments.single(&options.format, arguments.format)
            }
        },
        spec(["autoquality", "aq"], key: .fields(\.autoQuality)) { arguments, options throws(ProxyError) in
            try arguments.count(1...5)
            var auto = ProcessingOptions.AutoQuality()
            if arguments.values[0] == "ml" {
                throw .badRequest("autoquality:ml needs a neural network model, which this service does not have; "
                                  + "dssim chooses by the same measure")
            }
            try arguments.set(0, &auto.method, arguments.choice)
            try arguments.set(1, &auto.target) { text throws(ProxyError) in
                try arguments.number(text, in: 0...Double(Int32.max))
            }
            try arguments.set(2, &auto.minQuality) { text throws(ProxyError) in try arguments.integer(text, in: 1...100) }
            try arguments.set(3, &auto.maxQuality) { text throws(ProxyError) in try arguments.integer(text, in: 1...100) }
            try arguments.set(4, &auto.allowedError) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
            if let low = auto.minQuality, let high = auto.maxQuality, low > high {
                throw .badRequest("autoquality's minimum quality \(low) is above its maximum \(high)")
            }
            options.autoQuality = auto
        },
        single(["max_bytes", "mb"], \.maxBytes) { arguments, text throws(ProxyError) in
            try arguments.integer(text, in: 0...Int(Int32.max))
        },
        spec(["background", "bg"], key: .fields(\.background)) { arguments, options throws(ProxyError) in
            options.background = try arguments.background(arguments.values)
        },
        spec(["skip_processing", "skp"], key: .fields(\.skipProcessing)) { arguments, options throws(ProxyError) in
            guard !arguments.values.isEmpty else { throw .badRequest("skip_processing needs at least one format") }
            options.skipProcessing = try Set(arguments.values.map { text throws(ProxyError) in
                guard let format = ImageFormat(fileExtension: String(text)), format != .undefined else {
                    throw .badRequest("skip_processing: unknown format '\(text)'")
                }
                return format
            })
        },
        single(["dpi"], \.dpi) { arguments, text throws(ProxyError) in try arguments.number(text, in: 0...65535) },
        flag(["strip_metadata", "sm"], \.stripMetadata),
        flag(["strip_color_profile", "scp"], \.stripColorProfile),
        // The copyright is kept or not only from stripped metadata.
        spec(["keep_copyright", "kcr"], key: .fields(\.keepCopyright, when: { $0.stripMetadata }))
        { arguments, options throws(ProxyError) in
            try arguments.single(&options.keepCopyright, arguments.boolean)
        },
        flag(["enforce_thumbnail", "eth"], \.enforceThumbnail),
        flag(["raw"], \.raw),
    ]

    static let filters: [ProcessingOptionSpec] = [
        spec(["watermark", "wm"], key: .fields(\.watermark)) { arguments, options throws(ProxyError) in
            try arguments.count(1...5)
            var watermark = ProcessingOptions.Watermark(opacity: try arguments.number(arguments.values[0], in: 0...1))
            if arguments.values.count > 1, !arguments.values[1].isEmpty {
                if arguments.values[1] == "re" {
                    watermark.replicates = true
                } else {
                    (watermark.gravity, _, _) = try arguments.gravity([arguments.values[1]])
                    guard watermark.gravity != .smart else { throw .badRequest("watermark cannot use smart gravity (sm)") }
                }
            }
            try arguments.set(2, &watermark.offsetX) { text throws(ProxyError) in try arguments.number(text) }
            try arguments.set(3, &watermark.offsetY) { text throws(ProxyError) in try arguments.number(text) }
            // Above 1 the watermark would outgrow the result: refused rather than resampled to any size.
            try arguments.set(4, &watermark.scale) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
            options.watermark = watermark.opacity > 0 ? watermark : nil
        },
        single(["pixelate", "pix"], \.pixelate) { arguments, text throws(ProxyError) in
            try arguments.integer(text, in: 0...1000)
        },
        single(["blur", "bl"], \.blur) { arguments, text throws(ProxyError) in try arguments.number(text, in: 0...100) },
        single(["sharpen", "sh"], \.sharpen) { arguments, text throws(ProxyError) in try arguments.number(text, in: 0...100) },
    ]

    static let request: [ProcessingOptionSpec] = [
        single(["cachebuster", "cb"], \.cacheBuster, effect: .keyOnly) { _, text in String(text) },
        single(["expires", "exp"], \.expires,
               effect: .request("an expired URL answers 404 before any work; a live one is the same image"))
        { arguments, text throws(ProxyError) in try arguments.integer(text, in: 0...Int.max) },
    ]

    /// The answer's headers: `filename` (plain, or base64url when its second argument is true) and
    /// `return_attachment`.
    static let headers: [ProcessingOptionSpec] = [
        spec(["filename", "fn"], effect: .request("only the Content-Disposition header, written per answer"), key: nil)
        { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            var encoded = false
            try arguments.set(1, &encoded, arguments.boolean)
            let text = arguments.values[0]
            guard !text.isEmpty else {
                options.filename = nil
                return
            }
            guard encoded else {
                options.filename = String(text)
                return
            }
            options.filename = try arguments.base64Text(text, refusal: "filename's base64url text does not decode")
        },
        single(["return_attachment", "att"], \.returnAttachment,
               effect: .request("only the Content-Disposition header, written per answer"))
        { arguments, text throws(ProxyError) in try arguments.boolean(text) },
    ]

    /// imgproxy's per-URL security options: only where the operator allows them, and only lowering its limits.
    static let security: [ProcessingOptionSpec] = [
        securitySpec(["max_src_resolution", "msr"], \.security.maxSourcePixels) { arguments, text throws(ProxyError) in
            let megapixels = try arguments.number(text, in: 0...1_000_000)
            guard megapixels > 0 else { throw .badRequest("max_src_resolution must be above 0") }
            return Int(megapixels * 1_000_000)
        },
        securitySpec(["max_src_file_size", "msfs"], \.security.maxSourceBytes) { arguments, text throws(ProxyError) in
            try arguments.integer(text, in: 1...Int(Int32.max))
        },
        securitySpec(["max_animation_frames", "maf"], \.security.maxAnimationFrames) { arguments, text throws(ProxyError) in
            try arguments.integer(text, in: 1...100_000)
        },
        securitySpec(["max_animation_frame_resolution", "mafr"], \.security.maxAnimationFramePixels)
        { arguments, text throws(ProxyError) in
            let megapixels = try arguments.number(text, in: 0...1_000_000)
            guard megapixels > 0 else { throw .badRequest("max_animation_frame_resolution must be above 0") }
            return Int(megapixels * 1_000_000)
        },
        securitySpec(["max_result_dimension", "mrd"], \.security.maxResultDimension) { arguments, text throws(ProxyError) in
            try arguments.integer(text, in: 1...arguments.maxDimension)
        },
    ]

    /// imgproxy Pro's options not carried out yet, each with its aliases: refused by name (400).
    static let proOnly: [String: [String]] = [
        "background_alpha": ["bga"], "blur_areas": ["ba"], "progressive_blur": ["pbl"],
        "color_profile": ["cp", "icc"], "bypass_cache": ["bc"], "cache_tags": ["ct"],
    ]

    /// imgproxy Pro's options that act on detected objects, each with its aliases: refused (400) with the
    /// reason, since detecting objects needs a neural network model this service does not have. (imgproxy's
    /// docs give `crop_objects` the alias `co`, which is `contrast`'s.)
    static let needingDetection: [String: [String]] = [
        "objects_position": ["obj_pos", "op"], "blur_detections": ["bd"], "draw_detections": ["dd"],
        "crop_objects": [],
    ]

    /// Why an option that needs object detection is refused.
    static let detectionRefusal = "needs object detection, which takes a neural network model this service does not have"

    private static let refusedPro = Set(proOnly.flatMap { [$0.key] + $0.value })
    private static let refusedDetection = Set(needingDetection.flatMap { [$0.key] + $0.value })

    /// The option named `name`, or the 400 that names why there is none.
    static func spec(named name: String) throws(ProxyError) -> ProcessingOptionSpec {
        if let spec = byName[name] { return spec }
        if refusedPro.contains(name) { throw .badRequest("processing option '\(name)' is an imgproxy Pro option") }
        if refusedDetection.contains(name) { throw .badRequest("processing option '\(name)' \(detectionRefusal)") }
        throw .badRequest("unknown processing option '\(name)'")
    }

    /// An extension (`extend`, `extend_aspect_ratio`, and `resize`'s and `size`'s last arguments): on or off,
    /// then its gravity (no smart gravity: imgproxy has none for extending).
    private static func extensionRule(_ arguments: OptionArguments, from index: Int,
                                  into target: inout ProcessingOptions.Extension?) throws(ProxyError) {
        guard index < arguments.values.count, !arguments.values[index].isEmpty else { return }
        guard try arguments.boolean(arguments.values[index]) else {
            target = nil
            return
        }
        var rule = ProcessingOptions.Extension()
        if arguments.values.count > index + 1 {
            (rule.gravity, rule.offsetX, rule.offsetY) = try arguments.gravity(Array(arguments.values[(index + 1)...]))
            guard rule.gravity != .smart else { throw .badRequest("\(arguments.name) cannot use smart gravity (sm)") }
        }
        target = rule
    }
}
