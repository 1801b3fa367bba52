import ArgumentParser
import WebImage

/// `webimage info FILE [--json]`: describe the image; an animation from its headers, without decoding frames.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size, frames, alpha and orientation (animations from their headers).",
        discussion: """
            With --json prints one object with the keys format, width, height, frameCount, loopCount, \
            frameDurations (seconds), hasAlpha, orientation (EXIF 1-8) and isAnimated, \
            plus pageCount for a PDF (whose size is its first page's at 72 DPI).
            """)

    @Argument(help: "The image file.")
    var file: String

    @Flag(help: "Print one JSON object (sorted keys) instead of text.")
    var json = false

    @OptionGroup var limits: InputLimit

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        try reportingFailures(subject: file) {
            let summary = try ImageInput.summary(of: try limits.read(file), from: file)
            print(json ? try JSONOutput.text(summary) : summary.text(file: file))
        }
    }
}
