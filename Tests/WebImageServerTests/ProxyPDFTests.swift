import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// PDF sources: off unless the operator turns them on, then drawn in `webimage pdf-page` children at the size
/// the result needs; a page that draws forever is stopped at the processing timeout or the child's CPU limit,
/// and the service goes on. Serialized: the tests count this process's PDF children.
@Suite(.serialized) struct ProxyPDFTests {
    /// The harness's configuration with PDF sources on, drawn by the built `webimage`.
    static func configuration(_ adjust: (inout ImageProxyConfiguration) -> Void = { _ in }) throws -> ImageProxyConfiguration {
        let executable = try BuiltExecutable.url("webimage")
        return ProxyHarness.configuration {
            $0.processing.rendersPDF = true
            $0.processing.pdfRendering.executable = executable
            adjust(&$0)
        }
    }

    /// This process's children drawing PDF pages now (`webimage pdf-page` itself, not a measuring wrapper
    /// running one: the CLI tests' `PeakRSS`).
    static func pdfChildren() -> Int {
        guard let webimage = try? BuiltExecutable.url("webimage").path else { return 0 }
        return childCount(of: webimage, ["pdf-page"])
    }

    @Test func pdfSourcesAreRefusedUnlessTurnedOn() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/doc.pdf", try TestCorpus.data("pdf/gradientfill.pdf"), contentType: "application/pdf")
            let answer = try await harness.get(harness.signedPath("w:50", source: "/doc.pdf", ext: "png"))
            #expect(answer.status == 422)
            #expect(answer.text.contains("PDF sources are off"), "\(answer.text)")
            #expect(harness.proxy.statistics.snapshot.encodes == 0)
        }
    }

    @Test func aPDFPageIsRenderedAtTheResultSize() async throws {
        let pdf = try TestCorpus.data("pdf/gradientfill.pdf")
        let header = try PDFCoder().header(pdf)
        let width = header.pixelSize.width * 2
        let height = Int((Double(header.pixelSize.height) * 2).rounded())
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/doc.pdf", pdf, contentType: "application/pdf")
            // Twice the page's size, enlarged although enlarge is off, and the same pixels as the page drawn
            // at that size in this process.
            let answer = try await harness.get(harness.signedPath("rs:fit:\(width):\(height)", source: "/doc.pdf",
                                                                  ext: "png"))
            #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
            let result = try answer.image()
            #expect(result.pixelSize == PixelSize(width: width, height: height))
            let direct = try PDFCoder().decode(pdf, options: ImageDecodeOptions(
                thumbnailPixelSize: PixelSize(width: width, height: height)))
            #expect(result.pixels.converted(to: .rgba8) == direct.pixels.converted(to: .rgba8))
            let asSVG = try await harness.get(harness.signedPath("w:10", source: "/doc.pdf", ext: "svg"))
            #expect(asSVG.status == 422)
            #expect(Self.pdfChildren() == 0)
        }
    }

    /// pdf.js's `function_based_shading.pdf` (3.9 KB) keeps poppler drawing for minutes: at the processing
    /// timeout the request is a 503, the child is killed, and the next PDF is drawn at once.
    @Test func aPageThatDrawsForeverIsStoppedAtTheProcessingTimeout() async throws {
        let configuration = try Self.configuration { $0.timeouts.processing = .seconds(2) }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/forever.pdf", try TestCorpus.data("pdf/function_based_shading.pdf"),
                          contentType: "application/pdf")
            harness.serve("/doc.pdf", try TestCorpus.data("pdf/gradientfill.pdf"), contentType: "application/pdf")
            let started = ContinuousClock.now
            let answer = try await harness.get(harness.signedPath("w:300", source: "/forever.pdf", ext: "png"))
            #expect(answer.status == 503, "\(answer.text)")
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(await eventually(timeout: 10) { Self.pdfChildren() == 0 })
            #expect(await eventually { harness.proxy.limiter.load == (0, 0) })
            let next = try await harness.get(harness.signedPath("w:50", source: "/doc.pdf", ext: "png"))
            #expect(next.status == 200, "\(next.text)")
        }
    }

    /// Without a processing timeout to stop it first, the child's own CPU limit ends the page: a 422 naming it.
    @Test func theChildsCPULimitEndsAPageThatDrawsForever() async throws {
        let configuration = try Self.configuration { $0.processing.pdfRendering.cpuSeconds = 1 }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/forever.pdf", try TestCorpus.data("pdf/function_based_shading.pdf"),
                          contentType: "application/pdf")
            let started = ContinuousClock.now
            let answer = try await harness.get(harness.signedPath("w:300", source: "/forever.pdf", ext: "png"))
            #expect(answer.status == 422)
            #expect(answer.text == "cannot process: the PDF page was not drawn within the renderer's 1 s of CPU\n",
                    "\(answer.text)")
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(Self.pdfChildren() == 0)
        }
    }

    @Test func anEncryptedPDFIsUnprocessable() async throws {
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/locked.pdf", try TestCorpus.data("pdf/issue6010_1.pdf"), contentType: "application/pdf")
            let answer = try await harness.get(harness.signedPath("w:50", source: "/locked.pdf", ext: "png"))
            #expect(answer.status == 422)
            #expect(answer.text.contains("the PDF is encrypted and needs a password"), "\(answer.text)")
        }
    }

    /// A renderer that cannot start, does not speak the protocol (`cat` echoes the request back) or closes its
    /// output and goes on running is the operator's problem: 503, with what went wrong, within the processing
    /// timeout, and no child left.
    @Test(arguments: [("/nonexistent/webimage", [], "cannot start"), ("/bin/cat", [], "answered wrongly"),
                      ("/bin/sh", ["-c", "exec 1>&-; sleep 60"], "processing timed out")])
    func aBrokenRendererIsUnavailable(executable: String, arguments: [String], reason: String) async throws {
        let configuration = try Self.configuration {
            $0.processing.pdfRendering.executable = URL(fileURLWithPath: executable)
            $0.processing.pdfRendering.arguments = arguments
            $0.timeouts.processing = .seconds(2)
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/doc.pdf", try TestCorpus.data("pdf/gradientfill.pdf"), contentType: "application/pdf")
            let started = ContinuousClock.now
            let answer = try await harness.get(harness.signedPath("w:50", source: "/doc.pdf", ext: "png"))
            #expect(answer.status == 503)
            #expect(answer.text.contains(reason), "\(answer.text)")
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(await eventually { Self.childCount(of: executable, arguments) == 0 })
        }
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// This process's children running `executable arguments…` (named by the file a link stands for).
    static func childCount(of executable: String, _ arguments: [String]) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }.filter { pid in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let running = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return running.first.map(Self.resolved) == Self.resolved(executable) && Array(running.dropFirst()) == arguments
        }.count
    }
}
