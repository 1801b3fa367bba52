import Foundation
import TestSupport
import Testing
@testable import WebImageCodecs
import WebImage

/// Issue 12, defect 5: still PNGs and GIFs are scaled while their rows are decoded. The result is exactly
/// the full-size decode resampled, except for a large interlaced PNG, which is thumbnailed from its last
/// Adam7 pass (its odd rows).
@Suite struct ScaledStillTests {
    static let options: [ImageDecodeOptions] = [
        ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16)),
        ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 7, height: 20), preserveAspectRatio: false),
        ImageDecodeOptions(scaleDownLimitBytes: 1_000),
    ]

    /// `coder`'s thumbnail of `data` against its full decode resampled to the same size.
    private func expectResampledFullDecode(_ coder: any ImageDecoding, _ data: Data, _ name: String,
                                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try coder.decode(data, options: .init())
        for options in Self.options {
            let scaled = try coder.decode(data, options: options)
            guard let target = options.targetSize(forSource: full.pixelSize) else { continue }
            #expect(scaled.pixels == Resampler.resample(full.pixels, to: target), "\(name) \(options)",
                    sourceLocation: sourceLocation)
            #expect(scaled.isThumbnail && scaled.hasAlpha == full.hasAlpha, sourceLocation: sourceLocation)
        }
    }

    /// Every colour type and bit depth of PngSuite, plain and interlaced (small interlaced images are decoded
    /// whole, then resampled).
    @Test func pngSuiteMatchesTheFullDecode() throws {
        let names = ["basn0g01", "basn0g02", "basn0g04", "basn0g08", "basn0g16", "basn2c08", "basn2c16", "basn3p01",
                     "basn3p08", "basn4a08", "basn4a16", "basn6a08", "basn6a16", "basi0g08", "basi2c16", "basi3p04",
                     "basi6a08", "basi6a16", "tbrn2c08", "s01n3p01", "s09n3p02"]
        for name in names {
            let data = try TestCorpus.data("pngsuite/png/\(name).png")
            try expectResampledFullDecode(PNGCoder(), data, name)
        }
    }

    /// Above the full-decode bound (forced to 0 here), an interlaced PNG's thumbnail is its last pass, every
    /// odd row at full width, resampled.
    @Test(arguments: ["basi6a08.png", "basi0g16.png", "basi3p02.png"])
    func largeInterlacedPNGUsesItsLastPass(name: String) throws {
        let data = try TestCorpus.data("pngsuite/png/\(name)")
        let full = try PNGCoder().decode(data, options: .init()).pixels
        let oddRows = PixelBuffer(width: full.width, height: full.height / 2, format: full.format) { out in
            full.withUnsafeBytes { source in
                for row in 0..<full.height / 2 {
                    let from = (2 * row + 1) * full.bytesPerRow
                    UnsafeMutableRawBufferPointer(rebasing: out[row * full.bytesPerRow ..< (row + 1) * full.bytesPerRow])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from ..< from + full.bytesPerRow]))
                }
            }
        }
        let target = PixelSize(width: 10, height: 7)
        let scaled = try data.withUnsafeBytes { bytes in
            try PNGScaledDecoder.decode(bytes, expected: try PNGHeader.parse(bytes), target: target, kernel: .area, fullDecodeLimit: 0)
        }
        #expect(scaled.pixels == Resampler.resample(oddRows, to: target))
        // A target taller than the pass falls back to the full decode.
        let tall = PixelSize(width: 10, height: 20)
        let fallback = try data.withUnsafeBytes { bytes in
            try PNGScaledDecoder.decode(bytes, expected: try PNGHeader.parse(bytes), target: tall, kernel: .area, fullDecodeLimit: 0)
        }
        #expect(fallback.pixels == Resampler.resample(full, to: tall))
    }

    @Test func lastPassOfTinyImages() {
        #expect(PNGScaledDecoder.lastPass(of: PixelSize(width: 9, height: 5)).size == PixelSize(width: 9, height: 2))
        #expect(PNGScaledDecoder.lastPass(of: PixelSize(width: 9, height: 1)).size == PixelSize(width: 4, height: 1))
        #expect(PNGScaledDecoder.lastPass(of: PixelSize(width: 1, height: 1)).size == PixelSize(width: 1, height: 1))
    }

    @Test(arguments: ["2x2.gif", "alpha_gif_a.gif", "interlaced.gif", "sample_1.gif", "set_hsts.gif"])
    func corpusGIFStillsMatchTheFullDecode(name: String) throws {
        try expectResampledFullDecode(GIFCoder(), try GIFTestSupport.corpus("samples", name), name)
    }

    /// Frames clipped by the screen, transparent indices and every interlaced height up to 17: each row lands
    /// where the canvas would have it.
    @Test(arguments: [false, true])
    func builtGIFsMatchTheFullDecode(interlaced: Bool) throws {
        let palette: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [20, 40, 250]]
        for height in 1...17 {
            let width = 11
            let indices = (0..<width * height).map { UInt8(($0 * 7 + $0 / width) % 4) }
            let shapes = [(screen: (width, height), frame: (0, 0, width, height), transparent: UInt8?.none),
                          (screen: (20, height + 6), frame: (3, 2, width, height), transparent: UInt8(1)),
                          (screen: (8, max(1, height - 2)), frame: (2, 1, width, height), transparent: UInt8(2))]
            for shape in shapes {
                let data = GIFTestBytes.still(screen: shape.screen, frame: shape.frame, palette: palette,
                                              transparent: shape.transparent, interlaced: interlaced, indices: indices)
                try expectResampledFullDecode(GIFCoder(), data, "\(height) rows, \(shape)")
            }
        }
    }

    /// The frame-by-frame decoders give a still's thumbnail exactly as the one-shot decode does.
    @Test func lazyDecodersOfStillsMatchTheOneShotDecode() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40))
        let stills: [(any AnimatedImageCoding, Data)] = [
            (GIFCoder(), try GIFTestSupport.corpus("samples", "interlaced.gif")),
            (PNGCoder(), try TestCorpus.data("pngsuite/png/basn6a16.png")),
            (WebPCoder(), try TestCorpus.data("webp/test.webp")),
        ]
        for (coder, data) in stills {
            let oneShot = try coder.decode(data, options: options)
            let lazy = try coder.makeAnimatedDecoder(data, options: options)
            #expect(lazy.frameCount == 1 && lazy.pixelSize == oneShot.pixelSize)
            #expect(try lazy.frame(at: 0) == oneShot.pixels)
        }
    }
}
