import Foundation
import WebImage
import WebImageCLISupport

/// The demo's steps in order, collecting a record for each; later passes (network, cache) add their own steps.
struct DemoRun {
    /// Where every file goes.
    let directory: String
    private(set) var records: [DemoRecord] = []
    private(set) var cells: [ContactSheet.Cell] = []

    init(directory: String) {
        self.directory = directory
    }

    var succeeded: Bool { records.allSatisfy(\.ok) }

    /// Draws the scene, then encodes it to every format, decodes each back, checks it and thumbnails it.
    mutating func runRoundTrips() {
        let cases = DemoCase.all(photo: DemoScene.photo(), photoWithAlpha: DemoScene.photoWithAlpha(),
                                 animation: DemoScene.animation())
        for demoCase in cases {
            let outcome = RoundTripStep.run(demoCase, in: directory)
            records.append(outcome.record)
            if let thumbnail = outcome.thumbnail {
                cells.append(ContactSheet.Cell(thumbnail: thumbnail, label: label(outcome.record)))
            }
        }
    }

    /// Serves the round trips' files (and generated ones) from 127.0.0.1 and runs the real pipeline over
    /// them: cold, warm and disk passes, coalescing, progressive loading, thumbnails, transforms, failures, 304.
    mutating func runNetworkPasses() async {
        do {
            let server = try await DemoServer.start(directory: directory)
            var pass = NetworkPass(server: server,
                                   cacheDirectory: URL(fileURLWithPath: directory).appendingPathComponent("cache"))
            await pass.run()
            records += pass.records
            cells += pass.cells
            try? await server.server.shutdown()
        } catch {
            var record = DemoRecord(step: "network: start the image server", file: nil, format: "-")
            record.failure = CLIFailure(subject: "server", error: error).reason
            records.append(record)
        }
    }

    /// Renders every thumbnail into `contact-sheet.png`.
    mutating func writeContactSheet() {
        let file = "contact-sheet.png"
        var record = DemoRecord(step: "contact sheet", file: file, format: ImageFormat.png.rawValue)
        do {
            let sheet = ContactSheet.render(cells)
            record.width = sheet.width
            record.height = sheet.height
            record.frames = 1
            let (data, encodeMs) = try Stopwatch.time {
                try CodersManager.shared.encode(Image(pixels: sheet, hasAlpha: false), as: .png, options: ImageEncodeOptions())
            }
            record.encodeMs = encodeMs
            record.bytes = data.count
            try FileIO.write(data, to: directory + "/" + file)
            record.ok = true
        } catch {
            record.failure = CLIFailure(subject: file, error: error).reason
        }
        records.append(record)
    }

    /// Writes `report.json` with every record so far.
    func writeReport() throws {
        let report = DemoReport(directory: directory, ok: succeeded, steps: records)
        try FileIO.write(try JSONOutput.data(report, pretty: true), to: directory + "/report.json")
    }

    /// Two label lines: the step, then size, frames and bytes.
    private func label(_ record: DemoRecord) -> [String] {
        let size = "\(record.width ?? 0)x\(record.height ?? 0)"
        let frames = (record.frames ?? 1) > 1 ? " \(record.frames ?? 1)F" : ""
        let kilobytes = Double(record.bytes ?? 0) / 1000
        return [record.step, "\(size)\(frames) \((kilobytes * 10).rounded() / 10)KB"]
    }
}
