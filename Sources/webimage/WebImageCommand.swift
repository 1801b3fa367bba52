import ArgumentParser
import WebImage

/// The `webimage` tool: fetch, prefetch, inspect, decode and convert images, manage the cache, serve images over
/// HTTP. The offline demo is its own executable, `webimage-demo`.
///
/// Every subcommand reports a failure as one line on stderr (`webimage: FILE: reason`) and exits with status 1;
/// only malformed command lines get ArgumentParser's usage text.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Fetch, cache, decode, thumbnail and re-encode images (SwiftWebImage).",
        subcommands: [InfoCommand.self, DecodeCommand.self, ConvertCommand.self, FetchCommand.self,
                      PrefetchCommand.self, CacheCommand.self, ServeCommand.self, PDFPageCommand.self,
                      VideoFrameCommand.self])

    /// PDFs are read like the other formats: the files and URLs a user names are theirs to trust, and
    /// `serve` reads only their headers in its own process (pages are drawn in `pdf-page` children).
    static func main() async {
        CodersManager.shared.addCoder(PDFCoder())
        await main(nil)
    }
}
