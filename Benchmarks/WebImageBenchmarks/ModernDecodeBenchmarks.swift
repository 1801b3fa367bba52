import Foundation
import WebImage

/// Issue 13's decode speed: AVIFCoder, HEIFCoder and JXLCoder beside their raw C libraries on the same 12 MP
/// photo-like file, both sides decoding to 8-bit RGBA into one reused buffer (ours through
/// `decode(_:reusing:options:)` with the default options, sRGB output included; the raw sides in
/// `RawModernDecoders.swift`). The files are made in memory by our encoders: AVIF 8-bit 4:2:0 and HEIC 8-bit
/// 4:2:0 at the fastest effort (libaom speed 10, x265 `ultrafast`, so that making them stays quick), JPEG XL
/// lossy VarDCT at the default effort 7. libheif's decoder and libjxl's pool may run threads of their own, so
/// every row is charged the process's CPU time (all threads), in alternating rounds, judged on the median
/// round's ratio.
enum ModernDecodeBenchmarks {
    static let size = PixelSize(width: 4000, height: 3000)

    static func run() throws {
        let photo = Image(pixels: PhotoRaster.make(width: size.width, height: size.height), hasAlpha: false)
        let fast = ImageEncodeOptions(quality: 0.8, effort: .fastest)
        let avif = try AVIFCoder().encode(photo, as: .avif, options: fast)
        try compare("AVIF 8-bit 4:2:0", avif, coder: AVIFCoder(), raw: RawAVIFDecoder(avif, size: size))
        let heic = try HEIFCoder().encode(photo, as: .heic, options: fast)
        try compare("HEIC 8-bit 4:2:0", heic, coder: HEIFCoder(), raw: RawHEIFDecoder(heic, size: size))
        let jxl = try JXLCoder().encode(photo, as: .jxl, options: ImageEncodeOptions(quality: 0.8))
        try compare("JPEG XL lossy", jxl, coder: JXLCoder(), raw: RawJXLDecoder(jxl, size: size))
    }

    private static func compare(_ name: String, _ data: Data, coder: some ImageDecoding,
                                raw: some RawRGBADecoding) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let reused = try Measure.interleavedBest(rounds: 9, clock: .process,
            { _ = try coder.decode(data, reusing: &buffer, options: .init()) }, { try raw.decode() })
        // The same pixels on both sides, or the comparison would not be like for like.
        guard buffer.bytes == raw.rgba else {
            throw WebImageError.badImageData(.corrupt("\(name): the library and the raw library decoded different pixels"))
        }
        Measure.decodeRow("decode 12 MP \(name) (\(data.count / 1024) KB), reused", megapixels: Double(size.pixelCount) / 1e6,
                          reused)
    }
}
