import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Hostile PDFs through `webimage info` and `decode`, and through `webimage pdf-page` (the child the service draws
/// PDF pages in), in a child process: each ends (with its result, one typed error line, or its own limits)
/// within bounded time and peak memory, measured in the child.
@Suite struct PDFHostileRunTests {
    /// Writes `data` as `name` in `dir` and returns its path.
    private static func write(_ data: Data, _ name: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func tenThousandPagesReadAndRenderFastAndSmall() async throws {
        let dir = try TemporaryDirectory()
        let path = try Self.write(PDFSamples.manyPages(10_000), "pages.pdf", in: dir)
        let baseline = try await MeasuredRun.baselineMB()
        let info = try await MeasuredRun.run(["info", path], timeout: 60)
        #expect(info.status == 0)
        #expect(info.stdout.contains("  pages       10000\n"), "\(info.stdout)")
        #expect(info.stdout.contains("  size        100x50 px\n"))
        let json = try await MeasuredRun.run(["info", "--json", path], timeout: 60)
        #expect(json.stdout.contains("\"pageCount\":10000"), "\(json.stdout)")
        let decode = try await MeasuredRun.run(["decode", path, "-o", dir.path("page.pam")], timeout: 60)
        #expect(decode.status == 0, "\(decode.stderr)")
        for run in [info, decode] {
            #expect(run.peakMB < baseline + 48, "peak \(run.peakMB) MB over a \(baseline) MB baseline")
            #expect(run.seconds < 5, "took \(run.seconds) s")
        }
    }

    @Test func aHugeMediaBoxIsRefusedBeforeAllocating() async throws {
        let dir = try TemporaryDirectory()
        let path = try Self.write(PDFSamples.page(width: 14_400_000, height: 14_400_000), "huge.pdf", in: dir)
        let baseline = try await MeasuredRun.baselineMB()
        let line = "webimage: \(path): too many pixels: 14400000x14400000 is over the limit of 100000000 pixels per frame"
        for arguments in [["info", path], ["decode", path, "-o", dir.path("out.pam")]] {
            let run = try await MeasuredRun.run(arguments, timeout: 60)
            #expect(run.signal == nil, "\(arguments)")
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderrLines == [line], "\(arguments): \(run.stderr)")
            #expect(run.peakMB < baseline + 16, "\(arguments): peak \(run.peakMB) MB over a \(baseline) MB baseline")
            #expect(run.seconds < 5, "\(arguments) took \(run.seconds) s")
        }
    }

    @Test func aFormThatDrawsItselfEndsInBoundedTimeAndMemory() async throws {
        let dir = try TemporaryDirectory()
        let path = try Self.write(PDFSamples.recursiveForm(), "recursive.pdf", in: dir)
        let baseline = try await MeasuredRun.baselineMB()
        let run = try await MeasuredRun.run(["decode", path, "-o", dir.path("out.pam")], timeout: 60)
        #expect(run.signal == nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakMB < baseline + 32, "peak \(run.peakMB) MB over a \(baseline) MB baseline")
        #expect(run.seconds < 5, "took \(run.seconds) s")
    }

    /// pdf.js's `function_based_shading.pdf` (3.9 KB) keeps poppler drawing for minutes and takes 1.7 GB with
    /// `pdftocairo`. The service's child, asked for it with 64 MiB of data and 2 s of CPU, ends by its own CPU
    /// limit (SIGXCPU) and holds no more than its data limit over the baseline.
    @Test func theServicesPDFChildEndsAPageThatDrawsForeverWithinItsLimits() async throws {
        let dir = try TemporaryDirectory()
        let document = try TestCorpus.data("pdf/function_based_shading.pdf")
        let request = PDFPageWire.Request(page: 0, size: PixelSize(width: 400, height: 400), memoryLimit: 64 << 20,
                                          cpuSeconds: 2, documentLength: document.count)
        let input = dir.url.appendingPathComponent("request")
        try (Data(request.header) + document).write(to: input)
        let baseline = try await MeasuredRun.baselineMB()
        let run = try await MeasuredRun.run(["pdf-page"], input: input, timeout: 60)
        #expect(run.signal == SIGXCPU, "status \(run.status), signal \(String(describing: run.signal))")
        // Its CPU limit, not the run's 60 s timeout (SIGKILL), ended it; wall time is the machine's load.
        #expect(run.stdout.isEmpty)
        #expect(run.peakMB < baseline + 64, "peak \(run.peakMB) MB over a \(baseline) MB baseline")
    }

    /// What is not a request gets a failure reply and status 2, without reading further.
    @Test func thePDFChildRefusesWhatIsNotARequest() async throws {
        let dir = try TemporaryDirectory()
        let input = dir.url.appendingPathComponent("request")
        try Data(repeating: 0x41, count: 4096).write(to: input)
        let run = try await MeasuredRun.run(["pdf-page"], input: input, timeout: 60)
        #expect(run.signal == nil && run.status == 2)
        #expect(run.stdout.hasSuffix("not a PDF page request"), "\(run.stdout)")
    }
}
