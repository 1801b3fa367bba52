import Foundation
import FoundationNetworking
import Testing
import TestSupport
import WebImage

/// `webimage serve --pdf-sources` as an operator runs it: pages drawn by its own executable's `pdf-page` child
/// (found through `/proc/self/exe`), a page that draws forever cut at the processing timeout, the peak memory
/// of the server and its children measured.
@Suite struct ServePDFRunTests {
    @Test func theServiceDrawsPDFPagesInItsOwnChildAndStopsOnesThatNeverEnd() async throws {
        let origin = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown() } }
        for name in ["gradientfill", "function_based_shading"] {
            origin.route("/\(name).pdf", TestResponse(headers: [("Content-Type", "application/pdf")],
                                                      body: try TestCorpus.data("pdf/\(name).pdf")))
        }
        let baseline = try await MeasuredRun.baselineMB()
        let run = try await MeasuredRun.serving(["--allow-unsigned", "--allow-private-sources", "--pdf-sources",
                                                 "--pdf-memory-bytes", "67108864", "--processing-timeout", "2"]) { port in
            func get(_ name: String) async throws -> (Int, Data, Duration) {
                let source = origin.url("/\(name).pdf").absoluteString
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let url = try #require(URL(string: "http://127.0.0.1:\(port)/_/w:120/plain/\(source)@png"))
                let started = ContinuousClock.now
                let (body, response) = try await URLSession.shared.data(from: url)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, body, ContinuousClock.now - started)
            }
            let (status, body, _) = try await get("gradientfill")
            #expect(status == 200)
            #expect(try CodersManager.shared.decode(body, options: ImageDecodeOptions()).pixelSize.width == 120)
            let (endless, text, took) = try await get("function_based_shading")
            #expect(endless == 503, "\(String(decoding: text, as: UTF8.self))")
            #expect(took < .seconds(15))
            #expect(try await get("gradientfill").0 == 200)
        }
        // The peak of the server and its children (1.7 GB for that page unbounded): the child's 64 MiB of data.
        #expect(run.peakMB < baseline + 64, "peak \(run.peakMB) MB over a \(baseline) MB baseline")
    }
}
