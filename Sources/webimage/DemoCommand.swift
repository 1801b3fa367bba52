import ArgumentParser
import WebImage

/// `webimage demo [--out DIR]`: an offline tour of the codecs, writing files, a contact sheet and a report.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Encode a synthetic photo and animation to every format, decode them back and thumbnail them.",
        discussion: """
            Needs no network. Writes each encoded file, contact-sheet.png (every thumbnail, labelled) and \
            report.json into DIR, and prints a table. Exits 1 naming each step that did not behave as expected.
            """)

    @Option(help: ArgumentHelp("Directory for the demo's files.", valueName: "DIR"))
    var out = "webimage-demo"

    func run() throws {
        try reportingFailures(subject: out) {
            try FileIO.makeDirectory(out)
            var demo = DemoRun(directory: out)
            demo.runRoundTrips()
            demo.writeContactSheet()
            try demo.writeReport()
            print(DemoTable.render(demo.records))
            print("report: \(out)/report.json")
            let failed = demo.records.filter { !$0.ok }
            for record in failed {
                Console.error("webimage: demo: step '\(record.step)' failed: \(record.failure ?? "unknown reason")")
            }
            if !failed.isEmpty { throw ExitCode.failure }
        }
    }
}
