import WebImage
import WebImageCLISupport

/// Encodes one ``DemoCase``, writes the file, decodes it back (at once and progressively), checks the result and
/// decodes a thumbnail.
enum RoundTripStep {
    /// The record, and the thumbnail's first frame for the contact sheet (nil when the step failed early).
    struct Outcome {
        var record: DemoRecord
        var thumbnail: PixelBuffer?
    }

    static func run(_ demoCase: DemoCase, in directory: String) -> Outcome {
        var record = DemoRecord(step: demoCase.name, file: demoCase.fileName, format: demoCase.format.rawValue)
        var thumbnail: PixelBuffer?
        do {
            let (data, encodeMs) = try Stopwatch.time {
                try CodersManager.shared.encode(demoCase.source, as: demoCase.format, options: demoCase.options)
            }
            record.bytes = data.count
            record.encodeMs = encodeMs
            try FileIO.write(data, to: directory + "/" + demoCase.fileName)
            let (decoded, decodeMs) = try Stopwatch.time { try CodersManager.shared.decode(data, options: ImageDecodeOptions()) }
            record.decodeMs = decodeMs
            record.width = decoded.pixelWidth
            record.height = decoded.pixelHeight
            record.frames = decoded.frameCount
            record.fidelity = try RoundTripChecks.verify(decoded, bytes: data.count, against: demoCase)
            record.progressiveUpdates = try ProgressiveCheck.run(data, decoded: decoded)
            let options = ImageDecodeOptions(thumbnailPixelSize: ContactSheet.box)
            let (small, thumbnailMs) = try Stopwatch.time { try CodersManager.shared.decode(data, options: options) }
            record.thumbnailMs = thumbnailMs
            try RoundTripChecks.verifyThumbnail(small, of: decoded)
            thumbnail = small.pixels
            record.ok = true
        } catch {
            record.failure = CLIFailure(subject: demoCase.fileName, error: error).reason
        }
        return Outcome(record: record, thumbnail: thumbnail)
    }
}

/// What a round trip must preserve: format, size, frames, timing, alpha and pixels within the case's fidelity.
enum RoundTripChecks {
    /// Throws the first broken expectation; returns the fidelity reached (`lossless` or `NN.N dB`).
    static func verify(_ decoded: Image, bytes: Int, against demoCase: DemoCase) throws -> String {
        let source = demoCase.source
        try expect(decoded.format == demoCase.format, "decoded as \(decoded.format.rawValue), not \(demoCase.format.rawValue)")
        try expect(decoded.pixelSize == source.pixelSize, "decoded \(decoded.pixelSize), expected \(source.pixelSize)")
        try expect(decoded.frameCount == source.frameCount, "decoded \(decoded.frameCount) frames, expected \(source.frameCount)")
        if source.isAnimated {
            try expect(decoded.loopCount == source.loopCount, "loop count \(decoded.loopCount), expected \(source.loopCount)")
            for (got, want) in zip(decoded.frameDurations, source.frameDurations) {
                try expect(abs(got - want) <= 0.011, "frame duration \(got) s, expected \(want) s")
            }
        }
        if source.hasAlpha, demoCase.format != .jpeg {
            try expect(decoded.hasAlpha, "alpha channel lost")
        }
        if let maxBytes = demoCase.maxBytes {
            try expect(bytes <= maxBytes, "\(bytes) bytes, over the \(maxBytes)-byte limit")
        }
        let pairs = zip(decoded.frames, source.frames)
        switch demoCase.fidelity {
        case .lossless:
            for (index, (got, want)) in pairs.enumerated() {
                try expect(PixelComparison.isLossless(got.pixels, want.pixels), "frame \(index) differs from the source")
            }
            return "lossless"
        case .psnr(let minimum):
            let worst = pairs.map { PixelComparison.psnr($0.pixels, $1.pixels) }.min() ?? .infinity
            try expect(worst >= minimum, "PSNR \(decibels(worst)) is under \(decibels(minimum))")
            return worst.isFinite ? decibels(worst) : "lossless"
        }
    }

    /// The thumbnail must fit ``ContactSheet/box`` exactly as SDWebImage sizes it, with every frame.
    static func verifyThumbnail(_ thumbnail: Image, of full: Image) throws {
        let expected = ImageGeometry.thumbnailSize(source: full.pixelSize, requested: ContactSheet.box,
                                                   preserveAspectRatio: true)
        try expect(thumbnail.pixelSize == expected, "thumbnail is \(thumbnail.pixelSize), expected \(expected)")
        try expect(thumbnail.frameCount == full.frameCount, "thumbnail has \(thumbnail.frameCount) frames, expected \(full.frameCount)")
    }

    private static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw DemoCheckFailure(description: message()) }
    }

    private static func decibels(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) dB"
    }
}
