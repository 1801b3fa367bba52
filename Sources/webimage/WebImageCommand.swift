import ArgumentParser
import WebImage

@main
struct WebImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Fetch, cache, decode, thumbnail and re-encode images (SwiftWebImage).")
}
