import ArgumentParser

/// The `webimage-demo` tool: SwiftWebImage shown offline, apart from `webimage` so the tool links only the
/// libraries (the demo needs TurboJPEG directly and the loopback server as its origin).
///
/// Without a subcommand it runs the library's tour (`library`); `serve` runs the image service's.
@main
struct WebImageDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage-demo",
        abstract: "Show SwiftWebImage offline: the library's pipeline, or the image service.",
        subcommands: [LibraryDemoCommand.self, ServeDemoCommand.self],
        defaultSubcommand: LibraryDemoCommand.self)
}
