import ArgumentParser
import WebImage
import WebImageCLISupport

/// `webimage-demo [library] [--out DIR]`: an offline tour of the whole pipeline, writing files, a contact sheet
/// and a report.
struct LibraryDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Show every capability offline: codecs, then the real pipeline against an in-process server.",
        discussion: """
            Needs no network. Encodes a synthetic photo and animation to every format and decodes them back, \
            then serves them (and a large and a slow progressive JPEG, a 404, a corrupt file) from 127.0.0.1 \
            and loads them through ImageManager: cold, warm and disk passes, a coalescing burst, progressive \
            partial images, a thumbnail, a transformer pipeline, the failed-URL list and a 304 revalidation. \
            Writes each file, contact-sheet.png (every result, labelled) and report.json into DIR, and prints a \
            table. Exits 1 naming each step that did not behave as expected.
            """)

    @Option(help: ArgumentHelp("Directory for the demo's files.", valueName: "DIR"))
    var out = "webimage-demo"

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        do {
            try FileIO.makeDirectory(out)
        } catch {
            Console.error(CLIFailure(subject: out, error: error).description)
            throw ExitCode.failure
        }
        var demo = DemoRun(directory: out)
        demo.runRoundTrips()
        await demo.runNetworkPasses()
        demo.writeContactSheet()
        do {
            try demo.writeReport()
        } catch {
            Console.error(CLIFailure(subject: out, error: error).description)
            throw ExitCode.failure
        }
        print(DemoTable.render(demo.records))
        print("report: \(out)/report.json")
        let failed = demo.records.filter { !$0.ok }
        for record in failed {
            Console.error("webimage: demo: step '\(record.step)' failed: \(record.failure ?? "unknown reason")")
        }
        if !failed.isEmpty { throw ExitCode.failure }
    }
}
