import ArgumentParser
import WebImage

/// The `webimage` tool: inspect, decode, convert images and run an offline demo of the pipeline.
///
/// Every subcommand reports a failure as one line on stderr (`webimage: FILE: reason`) and exits with status 1;
/// only malformed command lines get ArgumentParser's usage text.
@main
struct WebImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Fetch, cache, decode, thumbnail and re-encode images (SwiftWebImage).",
        subcommands: [InfoCommand.self, DecodeCommand.self, ConvertCommand.self, DemoCommand.self])
}
