import WebImage

/// One encode-and-decode-back round trip the demo runs, and what counts as success for it.
struct DemoCase {
    /// How close the decoded pixels must be to the source.
    enum Fidelity {
        /// Identical (RGB ignored where alpha is 0, where encoders may store anything).
        case lossless
        /// At least this peak signal-to-noise ratio in dB, on premultiplied RGBA, for every frame.
        case psnr(atLeast: Double)
    }

    /// What the table shows (`photo jpeg q0.9`).
    var name: String
    /// The file written into the demo directory.
    var fileName: String
    var source: Image
    var format: ImageFormat
    var options: ImageEncodeOptions
    var fidelity: Fidelity
    /// The encoded size must not exceed this (for `maxFileSize` cases).
    var maxBytes: Int? = nil

    /// Every format the built-in coders write: baseline JPEG at two settings, PNG with alpha, APNG, animated
    /// GIF, lossy, lossless and animated WebP.
    static func all(photo: Image, photoWithAlpha: Image, animation: Image) -> [DemoCase] {
        [
            DemoCase(name: "photo jpeg q0.9", fileName: "photo-q90.jpg", source: photo, format: .jpeg,
                     options: ImageEncodeOptions(quality: 0.9), fidelity: .psnr(atLeast: 28)),
            DemoCase(name: "photo jpeg <=30KB", fileName: "photo-30k.jpg", source: photo, format: .jpeg,
                     options: ImageEncodeOptions(maxFileSize: 30_000), fidelity: .psnr(atLeast: 22),
                     maxBytes: 30_000),
            DemoCase(name: "photo png alpha", fileName: "photo-alpha.png", source: photoWithAlpha, format: .png,
                     options: ImageEncodeOptions(), fidelity: .lossless),
            DemoCase(name: "photo webp lossy", fileName: "photo-lossy.webp", source: photo, format: .webp,
                     options: ImageEncodeOptions(quality: 0.8), fidelity: .psnr(atLeast: 26)),
            DemoCase(name: "photo webp lossless", fileName: "photo-lossless.webp", source: photoWithAlpha,
                     format: .webp, options: ImageEncodeOptions(quality: 0.5, lossless: true), fidelity: .lossless),
            DemoCase(name: "animation apng", fileName: "animation.png", source: animation, format: .png,
                     options: ImageEncodeOptions(), fidelity: .lossless),
            DemoCase(name: "animation gif", fileName: "animation.gif", source: animation, format: .gif,
                     options: ImageEncodeOptions(), fidelity: .psnr(atLeast: 20)),
            DemoCase(name: "animation webp", fileName: "animation.webp", source: animation, format: .webp,
                     options: ImageEncodeOptions(quality: 0.9), fidelity: .psnr(atLeast: 25)),
        ]
    }
}
