import ArgumentParser
import WebImage

/// `webimage info FILE [--json]`: decode every frame and describe the image.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Decode an image (all frames) and print its format, size, frames, alpha and orientation.",
        discussion: """
            With --json prints one object with the keys format, width, height, frameCount, loopCount, \
            frameDurations (seconds), hasAlpha, orientation (EXIF 1-8) and isAnimated.
            """)

    @Argument(help: "The image file.")
    var file: String

    @Flag(help: "Print one JSON object (sorted keys) instead of text.")
    var json = false

    @OptionGroup var limits: InputLimit

    func run() throws {
        try reportingFailures(subject: file) {
            let summary = ImageSummary(try ImageInput.decode(file, limit: limits, options: ImageDecodeOptions()))
            print(json ? try JSONOutput.text(summary) : summary.text(file: file))
        }
    }
}
