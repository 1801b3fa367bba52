import WebImage

/// Every info option `/info` takes (imgproxy Pro's names and short names), and those it refuses by name.
enum InfoOptionTable {
    static let all: [InfoOptionSpec] = header + metadata + pixels + hashes + request

    /// Each name and alias to its option.
    static let byName: [String: InfoOptionSpec] = Dictionary(
        uniqueKeysWithValues: all.flatMap { spec in spec.names.map { ($0, spec) } })

    static let header: [InfoOptionSpec] = [
        flag(["size", "s"], \.size),
        flag(["format", "f"], \.format),
        flag(["dimensions", "d"], \.dimensions),
        flag(["video_meta", "vm"], \.videoMeta),
        flag(["colorspace", "cs"], \.colorspace),
        flag(["bands", "b"], \.bands),
        flag(["sample_format", "sf"], \.sampleFormat),
        flag(["pages_number", "pn"], \.pagesNumber),
        InfoOptionSpec(["page", "pg"], owns: \.page) { arguments, options throws(ProxyError) in
            try arguments.single(&options.page) { text throws(ProxyError) in try arguments.integer(text, in: 0...100_000) }
        },
        InfoOptionSpec(["video_thumbnail_second", "vts"], owns: \.videoThumbnailSecond)
        { arguments, options throws(ProxyError) in
            try arguments.single(&options.videoThumbnailSecond) { text throws(ProxyError) in
                try arguments.number(text, in: 0...1e9)
            }
        },
        InfoOptionSpec(["video_thumbnail_keyframes", "vtk"], owns: \.videoThumbnailKeyframes)
        { arguments, options throws(ProxyError) in
            try arguments.single(&options.videoThumbnailKeyframes, arguments.boolean)
        },
    ]

    static let metadata: [InfoOptionSpec] = [
        InfoOptionSpec(["exif"], owns: \.exif, \.exifCanonicalNames) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.exif, arguments.boolean)
            try arguments.set(1, &options.exifCanonicalNames, arguments.boolean)
        },
        flag(["iptc"], \.iptc),
        flag(["xmp"], \.xmp),
    ]

    static let pixels: [InfoOptionSpec] = [
        InfoOptionSpec(["alpha", "a"], owns: \.alpha, \.checkTransparency) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.alpha, arguments.boolean)
            try arguments.set(1, &options.checkTransparency, arguments.boolean)
        },
        // Processing's crop, read by its own declaration; its gravity defaults to the centre (info has no
        // `gravity` option).
        InfoOptionSpec(["crop", "c"], owns: \.crop) { arguments, options throws(ProxyError) in
            var processing = ProcessingOptions()
            try ProcessingOptionTable.spec(named: "crop").apply(arguments, &processing)
            options.crop = processing.crop.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        },
        InfoOptionSpec(["palette", "p"], owns: \.palette) { arguments, options throws(ProxyError) in
            try arguments.single(&options.palette) { text throws(ProxyError) in
                let colors = try arguments.integer(text, in: 0...256)
                guard colors == 0 || colors >= 2 else { throw .badRequest("\(arguments.name) takes 0, or 2 to 256 colours, not \(text)") }
                return colors
            }
        },
        InfoOptionSpec(["average", "avg"], owns: \.average, \.averageIgnoresTransparent)
        { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.average, arguments.boolean)
            try arguments.set(1, &options.averageIgnoresTransparent, arguments.boolean)
        },
        InfoOptionSpec(["dominant_colors", "dc"], owns: \.dominantColors, \.buildMissedColors)
        { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            try arguments.set(0, &options.dominantColors, arguments.boolean)
            try arguments.set(1, &options.buildMissedColors, arguments.boolean)
        },
    ]

    static let hashes: [InfoOptionSpec] = [
        InfoOptionSpec(["blurhash", "bh"], owns: \.blurHashX, \.blurHashY) { arguments, options throws(ProxyError) in
            try arguments.count(2...2)
            let x = try arguments.integer(arguments.values[0], in: 0...BlurHash.maxComponents)
            let y = try arguments.integer(arguments.values[1], in: 0...BlurHash.maxComponents)
            (options.blurHashX, options.blurHashY) = x > 0 && y > 0 ? (x, y) : (0, 0)
        },
        flag(["thumb_hash", "th"], \.thumbHash),
        flag(["perceptual_hash", "phash", "ph"], \.perceptualHash),
        InfoOptionSpec(["calc_hashsums", "chs"], owns: \.hashsums) { arguments, options throws(ProxyError) in
            var chosen: [ProcessingOptions.Hashsum.Algorithm] = []
            for text in arguments.values where !text.isEmpty {
                let algorithm: ProcessingOptions.Hashsum.Algorithm = try arguments.choice(text)
                if !chosen.contains(algorithm) { chosen.append(algorithm) }
            }
            options.hashsums = chosen
        },
        InfoOptionSpec(["hashsum", "hs"], owns: \.hashsum) { arguments, options throws(ProxyError) in
            var processing = ProcessingOptions()
            try ProcessingOptionTable.spec(named: "hashsum").apply(arguments, &processing)
            options.hashsum = processing.hashsum
        },
    ]

    static let request: [InfoOptionSpec] = [
        InfoOptionSpec(["cachebuster", "cb"], owns: \.cacheBuster) { arguments, options throws(ProxyError) in
            try arguments.single(&options.cacheBuster) { text in String(text) }
        },
        // Checked before any work: an expired URL answers 404, a live one the same info.
        InfoOptionSpec(["expires", "exp"]) { arguments, options throws(ProxyError) in
            try arguments.single(&options.expires) { text throws(ProxyError) in try arguments.integer(text, in: 0...Int.max) }
        },
    ]

    /// imgproxy Pro's info options not carried out, each with its aliases: refused by name (400).
    static let notCarriedOut: [String: [String]] = [
        "bypass_cache": ["bc"], "cache_tags": ["ct"], "max_src_resolution": ["msr"], "max_src_file_size": ["msfs"],
    ]

    /// Those that need object detection or classification: refused with the reason.
    static let needingModel: [String: [String]] = [
        "detect_objects": ["do"], "classify": ["cl"], "objects_position": ["obj_pos", "op"],
    ]

    private static let refused = Set(notCarriedOut.flatMap { [$0.key] + $0.value })
    private static let refusedModel = Set(needingModel.flatMap { [$0.key] + $0.value })

    /// The option named `name`, or the 400 that names why there is none.
    static func spec(named name: String) throws(ProxyError) -> InfoOptionSpec {
        if let spec = byName[name] { return spec }
        if refused.contains(name) { throw .badRequest("info option '\(name)' is not supported by this service") }
        if refusedModel.contains(name) {
            throw .badRequest("info option '\(name)' \(ProcessingOptionTable.detectionRefusal)")
        }
        throw .badRequest("unknown info option '\(name)'")
    }

    /// The answer's cache key: the source, then each option's part in declaration order.
    static func key(source: String, options: InfoOptions) -> String {
        let parts = all.compactMap { spec in spec.key?(options).map { spec.keyName + ":" + $0 } }
        return "info|" + source + "|" + parts.joined(separator: "/")
    }

    /// A switch: one boolean argument setting `field`.
    private static func flag(_ names: [String], _ field: WritableKeyPath<InfoOptions, Bool> & Sendable) -> InfoOptionSpec {
        InfoOptionSpec(names, owns: field) { arguments, options throws(ProxyError) in
            try arguments.single(&options[keyPath: field], arguments.boolean)
        }
    }
}
