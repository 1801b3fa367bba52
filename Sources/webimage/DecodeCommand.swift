import ArgumentParser
import WebImage

/// `webimage decode FILE -o OUT`: decode (optionally as a thumbnail) and write one frame as PAM or an image file.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an image and write one composited frame.",
        discussion: """
            OUT ending in .pam is written exactly as `dwebp -pam` writes it (P7, RGB_ALPHA, 8-bit); any other \
            extension (.png, .jpg, .gif, .webp, .avif, .heic, .jxl) is encoded in that format. An animation is composited on one \
            canvas up to the chosen frame; the other frames are not kept.
            """)

    @Argument(help: "The image file.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.pam, .png, .jpg, .gif, .webp, .avif, .heic or .jxl).", valueName: "OUT"))
    var output: String

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Decode to fit inside this size (keeping the aspect ratio unless --stretch).",
                               valueName: "WxH"))
    var thumbnail: OptionValue<PixelSize>?

    @Flag(help: "With --thumbnail, stretch to exactly WxH instead of keeping the aspect ratio.")
    var stretch = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The frame to write (0-based).", valueName: "N"))
    var frame = OptionValue<Int>(argument: "0")

    @Flag(help: "Turn the pixels upright by the EXIF orientation.")
    var applyOrientation = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Scale down so all frames fit in this many bytes of RGBA.", valueName: "BYTES"))
    var scaleDownLimit: OptionValue<Int>?

    @OptionGroup var limits: InputLimit

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        try reportingFailures(subject: file) {
            let kind = try OutputKind(path: output)
            let thumbnail = try thumbnail?.value("--thumbnail", about: file, hint: OptionHint.size)
            let frame = try frame.value("--frame", about: file, hint: "give 0 or more") { $0 >= 0 }
            let scaleDownLimit = try scaleDownLimit?.value("--scale-down-limit", about: file,
                                                           hint: OptionHint.byteCount) { $0 > 0 }
            let options = ImageDecodeOptions(thumbnailPixelSize: thumbnail, preserveAspectRatio: !stretch,
                                             scaleDownLimitBytes: scaleDownLimit, applyOrientation: applyOrientation)
            let (picked, frameCount) = try ImageInput.frame(frame, of: try limits.read(file), from: file, options: options)
            let written = kind.fitted(picked, path: output)
            let bytes = try kind.data(for: written, path: output)
            try FileIO.write(bytes, to: output)
            print("\(output): \(written.pixelSize) frame \(frame) of \(frameCount), \(bytes.count) bytes")
        }
    }
}
