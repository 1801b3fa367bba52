import Foundation
import WebImage

/// Issue 13's encode speed: AVIFCoder and HEIFCoder at their default settings (quality 1, balanced effort)
/// beside libavif and libheif given the same settings (`RawModernEncoders.swift`), on one 1024×768 photo-like
/// raster. x265 runs a thread pool of its own, so both rows are charged the process's CPU time (all threads),
/// in alternating rounds; the wall-clock ratio is printed beside it. The issue sets no target for these rows.
enum ModernEncodeBenchmarks {
    static func run() throws {
        let raster = PhotoRaster.make(width: 1024, height: 768)
        let image = Image(pixels: raster, hasAlpha: false)
        let defaults = ImageEncodeOptions()
        // AVIFEncoder's mapping: quality 1 → quantizer 0; balanced effort → speed 6.
        let avifQuantizer = Int32(((1 - defaults.quality) * 63).rounded())
        let rawAVIF = RawAVIFEncoder(raster, quantizer: avifQuantizer, speed: 6)
        var avifSize = 0
        let avif = try Measure.interleavedBest(rounds: 5, clock: .process,
            { avifSize = try AVIFCoder().encode(image, as: .avif, options: defaults).count }, { try rawAVIF.encode() })
        row("encode 1024×768 AVIF, quantizer \(avifQuantizer), speed 6", avif, sizes: (avifSize, rawAVIF.outputSize))

        let rawHEIF = RawHEIFEncoder(raster, quality: Int32((defaults.quality * 100).rounded()))
        var heicSize = 0
        let heic = try Measure.interleavedBest(rounds: 5, clock: .process,
            { heicSize = try HEIFCoder().encode(image, as: .heic, options: defaults).count }, { try rawHEIF.encode() })
        row("encode 1024×768 HEIC, quality \(Int(defaults.quality * 100)), x265 slow", heic,
            sizes: (heicSize, rawHEIF.outputSize))
    }

    /// Each side's best time per encode, the median round's speed ratio with the rounds' range, and both sizes.
    private static func row(_ name: String, _ comparison: Measure.Comparison, sizes: (ours: Int, raw: Int)) {
        Measure.row(name, ours: comparison.ours.cpu * 1000, theirs: comparison.theirs.cpu * 1000, unit: "ms",
                    higherIsBetter: false)
        print(String(format: "  ours/raw speed, median of rounds %.3f× (range %@)   [best-of %.3f×, wall-clock %.3f×]   %d / %d bytes",
                     comparison.medianRatio, comparison.ratioRange, comparison.theirs.cpu / comparison.ours.cpu,
                     comparison.theirs.wall / comparison.ours.wall, sizes.ours, sizes.raw))
    }
}
