import Logging
import MetricsTestKit
import Testing
import TestSupport
@testable import WebImage

/// The parts of ``LibraryLogs`` that decide what a C library's output becomes: lines cut from the captured
/// stream, the library each is named after, the rate and the length kept. (The capture of descriptor 2 itself
/// is the process's: `webimage` installs it, and `LibraryOutputTests` run it there.)
@Suite struct LibraryLogsTests {
    @Test func linesAreCutAtLineBreaksWithinTheLimitAndALastPartialLineKept() {
        var splitter = LineSplitter(maxBytes: 8)
        var lines: [String] = []
        splitter.append(Array("one\r\n\ntw".utf8)) { lines.append($0) }
        splitter.append(Array("o\n0123456789abc\nlast".utf8)) { lines.append($0) }
        #expect(lines == ["one", "two", "01234567"])
        splitter.finish { lines.append($0) }
        #expect(lines == ["one", "two", "01234567", "last"])
    }

    @Test func aLineIsNamedAfterTheLibraryItsShapeIsKnownFor() {
        let samples: [(String, String, String)] = [
            ("./lib/jxl/modular/encoding/dec_ma.cc:90: JXL_FAILURE: Invalid multiplier logarithm", "libjxl",
             "./lib/jxl/modular/encoding/dec_ma.cc:90: JXL_FAILURE: Invalid multiplier logarithm"),
            ("Unknown OBU type 0 of size 38", "dav1d", "Unknown OBU type 0 of size 38"),
            ("Error parsing frame header", "dav1d", "Error parsing frame header"),
            ("Corrupt JPEG data: premature end of data segment", "libjpeg", "Corrupt JPEG data: premature end of data segment"),
            ("(webimage:4609): Pango-CRITICAL **: 06:21:12.557: pango_font_description_set_size: assertion 'size >= 0' failed",
             "pango", "pango_font_description_set_size: assertion 'size >= 0' failed"),
            ("Poppler-INFO: 06:18:32.160: Syntax error at position -1: Invalid XRef entry 2", "poppler",
             "Syntax error at position -1: Invalid XRef entry 2"),
            ("(webimage:12): GLib-GObject-WARNING **: 06:18:32.160: invalid cast", "glib-gobject", "invalid cast"),
            ("** (webimage:12): WARNING **: 06:18:32.160: no domain", "glib", "no domain"),
            ("WARNING: a line in no known shape", LibraryLogMessage.unidentified, "WARNING: a line in no known shape"),
        ]
        for (line, library, text) in samples {
            #expect(CapturedLineOrigin.message(line) == LibraryLogMessage(library: library, text: text), "\(line)")
        }
    }

    @Test func theBucketGivesItsBurstThenItsRate() {
        let start = ContinuousClock.now
        var bucket = TokenBucket(capacity: 3, rate: 2, now: start)
        #expect((0..<4).map { _ in bucket.take(now: start) } == [true, true, true, false])
        #expect(bucket.take(now: start + .milliseconds(400)) == false)
        #expect(bucket.take(now: start + .milliseconds(500)) == true)
        #expect(bucket.take(now: start + .seconds(10)) == true)
        #expect((0..<3).map { _ in bucket.take(now: start + .seconds(10)) } == [true, true, false])
    }

    @Test func recordsAreDebugWithTheirLibraryCutAndRateLimitedTheRestCounted() throws {
        let logs = LogStore(), metrics = TestMetrics()
        let recorder = LibraryLogRecorder(logger: logs.logger("libraries", level: .debug),
                                          limits: LibraryLogLimits(linesPerSecond: 0.001, burst: 4, maxLineBytes: 10),
                                          metricsFactory: metrics)
        recorder.record(LibraryLogMessage(library: "libjxl", text: "0123456789é and more"))
        for index in 0..<5 { recorder.record(LibraryLogMessage(library: "dav1d", text: "line \(index)")) }
        let entries = logs.all
        #expect(entries.map(\.message) == ["0123456789…", "line 0", "line 1", "line 2"])
        #expect(entries.map(\.level) == [.debug, .debug, .debug, .debug])
        #expect(entries.map { $0.metadata["library"] } == ["libjxl", "dav1d", "dav1d", "dav1d"])
        let library = WebImageMetrics.Dimension.library
        #expect(try metrics.expectCounter(WebImageMetrics.libraryLogLines, [(library, "libjxl")]).totalValue == 1)
        #expect(try metrics.expectCounter(WebImageMetrics.libraryLogLines, [(library, "dav1d")]).totalValue == 5)
        #expect(try metrics.expectCounter(WebImageMetrics.libraryLogLinesDropped, [(library, "dav1d")]).totalValue == 2)
        #expect(metrics.counters(label: WebImageMetrics.libraryLogLinesDropped, dimensions: [(library, "libjxl")]).isEmpty)
    }

    @Test func aCutNeverSplitsACharacter() {
        #expect(LibraryLogRecorder.cut("abcdé", to: 5) == "abcd…")
        #expect(LibraryLogRecorder.cut("abcdé", to: 6) == "abcdé")
    }
}
