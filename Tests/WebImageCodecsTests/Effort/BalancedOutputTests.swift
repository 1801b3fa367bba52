import Foundation
import Testing
import WebImage

/// The explicit-encode default is today's output: ``ImageEncodeEffort/balanced`` and an unset effort give bytes
/// identical to what the encoders wrote before the effort knob existed (MD5s recorded from that code on this
/// Debian's libpng 1.6.39, libwebp 1.2.4, giflib 5.2.1 and libjpeg-turbo 2.1.5).
@Suite struct BalancedOutputTests {
    /// What each case encodes, and the MD5 of the bytes the encoders wrote before the effort knob.
    private static let cases: [(name: String, image: Image, format: ImageFormat, options: ImageEncodeOptions,
                                md5: String)] = [
        ("PNG", EffortTestImages.opaque, .png, ImageEncodeOptions(),
         "60d72e64733c8fe4ac522f3f48a27420"),
        ("PNG with alpha", EffortTestImages.translucent, .png, ImageEncodeOptions(),
         "31c5652c342c9430726ea5d7de29bdd4"),
        ("APNG", EffortTestImages.animation, .png, ImageEncodeOptions(),
         "75913f1122a7aa81b2eeb109c73bd89f"),
        ("WebP lossy", EffortTestImages.opaque, .webp, ImageEncodeOptions(quality: 0.8),
         "8851e97abd8248bd20b68602ed69a911"),
        ("WebP lossy with alpha", EffortTestImages.translucent, .webp, ImageEncodeOptions(),
         "a1ae900b7cff85fc93239345d5a3eae1"),
        ("WebP lossless", EffortTestImages.translucent, .webp, ImageEncodeOptions(quality: 0.5, lossless: true),
         "2f8f0fc3615bd5185374f64ac8c2dadf"),
        ("WebP animated", EffortTestImages.animation, .webp, ImageEncodeOptions(),
         "5c77e1ea2b4f5e1fb8524d9f16c8e92e"),
        ("GIF", EffortTestImages.opaque, .gif, ImageEncodeOptions(),
         "c0bf6f9157bd2243d7fdfd249b023ee4"),
        ("GIF animated", EffortTestImages.animation, .gif, ImageEncodeOptions(),
         "8bcc7b1c46e4e528f868070419be53cf"),
        // 4:2:0 asked for: from quality 0.9 the default keeps full-resolution chroma now (libvips' rule); the
        // accurate DCT since JPEG encodes use it (libvips' choice).
        ("JPEG", EffortTestImages.opaque, .jpeg,
         ImageEncodeOptions(quality: 0.9, tuning: ImageEncodeTuning(jpegSubsampling: .on)),
         "dda2a56cbc68aea0a4feef78fb9a87cd"),
    ]

    @Test(arguments: cases.indices)
    func balancedAndUnsetEffortWriteTodaysBytes(index: Int) throws {
        let (name, image, format, options, md5) = Self.cases[index]
        var balanced = options
        balanced.effort = .balanced
        let unset = try CodersManager.shared.encode(image, as: format, options: options)
        let explicit = try CodersManager.shared.encode(image, as: format, options: balanced)
        #expect(unset == explicit, "\(name)")
        #expect(MD5.hex(unset) == md5, "\(name)")
    }
}
