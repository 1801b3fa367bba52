import ArgumentParser
import WebImage

/// `webimage convert IN OUT`: re-encode an image, keeping its animation where the target format can hold one.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Re-encode an image as JPEG, PNG (APNG), GIF, WebP, AVIF or HEIC.",
        discussion: """
            The format comes from --format or OUT's extension. GIF, PNG (as APNG), WebP and AVIF (as a \
            sequence) keep every frame of an animation; JPEG and HEIC get the first frame. An image larger than \
            the format holds (an icon's 256 pixels a side, WebP's 16,383) is scaled down to fit, with a note.
            """)

    @Argument(help: ArgumentHelp("The image to read.", valueName: "IN"))
    var input: String

    @Argument(help: ArgumentHelp("The file to write.", valueName: "OUT"))
    var output: String

    @Option(help: ArgumentHelp("Output format: jpeg, png, gif, webp, avif, heic or jxl (default: from OUT's extension).",
                               valueName: "FORMAT"))
    var format: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Lossy quality from 0 to 1 (JPEG, lossy WebP, AVIF, HEIC). Default 1.", valueName: "Q"))
    var quality: OptionValue<Double>?

    @Flag(help: "Encode WebP, AVIF or HEIC losslessly.")
    var lossless = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Shrink (keeping the aspect ratio) to fit this size.", valueName: "WxH"))
    var maxPixelSize: OptionValue<PixelSize>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Pick the highest quality whose output fits in this many bytes.", valueName: "BYTES"))
    var maxFileSize: OptionValue<Int>?

    @OptionGroup var limits: InputLimit

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        try reportingFailures(subject: input) {
            let target = try OutputFormat.resolve(format, path: output)
            let options = try encodeOptions(animated: target.holdsAnimation)
            let data = try limits.read(input)
            // Decoded straight at the output size: an animation then keeps only scaled frames.
            let decodeOptions = ImageDecodeOptions(firstFrameOnly: options.firstFrameOnly,
                                                   thumbnailPixelSize: options.maxPixelSize)
            let image = OutputFormat.fitted(try ImageInput.decode(data, from: input, options: decodeOptions),
                                            to: target, path: output)
            let bytes = try OutputFormat.encode(image, as: target, options: options, path: output)
            try FileIO.write(bytes, to: output)
            let frames = options.firstFrameOnly ? 1 : image.frameCount
            print("\(output): \(target.rawValue), \(image.pixelSize), \(frames) frame\(frames == 1 ? "" : "s"), \(bytes.count) bytes")
        }
    }

    /// The encode options from the flags; bad values fail naming the output file.
    private func encodeOptions(animated: Bool) throws -> ImageEncodeOptions {
        let quality = try quality?.value("--quality", about: output, hint: OptionHint.quality) {
            (0...1).contains($0)
        }
        let maxPixelSize = try maxPixelSize?.value("--max-pixel-size", about: output, hint: OptionHint.size)
        let maxFileSize = try maxFileSize?.value("--max-file-size", about: output, hint: OptionHint.byteCount) { $0 > 0 }
        return ImageEncodeOptions(quality: quality ?? 1, lossless: lossless, maxPixelSize: maxPixelSize,
                                  maxFileSize: maxFileSize, firstFrameOnly: !animated)
    }
}
