import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage

/// What the C libraries print about corrupt files (libjxl's failure traces, dav1d's messages, GLib's warnings
/// from pango under librsvg, poppler's errors, libjpeg's warnings in the service's PDF child, lcms2's) never reaches standard error as it is: `webimage serve
/// --log-format json` keeps every line JSON under a burst of such sources, the excess over the rate counted, and
/// the commands print their one-line failure alone unless asked for `--log-level debug`.
@Suite struct LibraryOutputTests {
    /// One sample per library, made from the corpus: the status the service answers it with.
    struct Sample {
        var name: String
        var bytes: Data
        var status: Int
    }

    static func samples() throws -> [Sample] {
        // libjxl: 16 bytes inverted mid-stream (6 trace lines).
        var jxl = try TestCorpus.data("jxl/delta_palette.jxl")
        inverting(&jxl, at: jxl.count / 2, count: 16)
        // dav1d: the first OBU header of the image data inverted ("Error parsing sequence header").
        var avif = try TestCorpus.data("avif/kimono.crop.avif")
        let mdat = try #require(avif.range(of: Data("mdat".utf8))).upperBound
        inverting(&avif, at: mdat + 1, count: 1)
        // libtiff: its per-handle handlers take the message; nothing is printed.
        var tiff = try TestCorpus.data("tiff/lzw-single-strip.tiff")
        inverting(&tiff, at: tiff.count / 2, count: 16)
        // pango, through GLib: a negative font size draws, with a critical.
        let svg = Data("<svg xmlns='http://www.w3.org/2000/svg' width='40' height='40'><text x='4' y='20' font-size='-5'>Hi</text></svg>".utf8)
        // poppler, through GLib: a cross-reference table that does not hold together.
        let pdf = Data("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\nxref\n0 1\ntrailer << /Root 1 0 R >>\n".utf8)
        // libjpeg inside poppler (in the service, in its PDF child): an image's JPEG data ended early, by an EOI
        // marker 4,000 bytes in; the page draws, with a warning.
        var jpegInPDF = try TestCorpus.data("pdf/alphatrans.pdf")
        let dct = try #require(jpegInPDF.range(of: Data("/DCTDecode".utf8)))
        let stream = try #require(jpegInPDF.range(of: Data("stream\n".utf8), in: dct.upperBound..<jpegInPDF.endIndex))
        jpegInPDF.replaceSubrange(stream.upperBound + 4000..<stream.upperBound + 4002, with: [0xFF, 0xD9])
        // lcms2, through its error handler: a JPEG whose ICC profile is not one (it decodes, without the profile).
        let grid = try CodersManager.shared.decode(try TestCorpus.data("webp/grid.png"), options: ImageDecodeOptions())
        var badProfile = try CodersManager.shared.encode(grid, as: .jpeg, options: ImageEncodeOptions())
        let profile = Data("ICC_PROFILE\0\u{1}\u{1}".utf8) + Data(repeating: 0x47, count: 300)
        badProfile.insert(contentsOf: [0xFF, 0xE2, UInt8((profile.count + 2) >> 8), UInt8((profile.count + 2) & 0xFF)] + profile,
                          at: 2)
        return [Sample(name: "broken.jxl", bytes: jxl, status: 422), Sample(name: "broken.avif", bytes: avif, status: 422),
                Sample(name: "broken.tiff", bytes: tiff, status: 422), Sample(name: "negative.svg", bytes: svg, status: 200),
                Sample(name: "broken.pdf", bytes: pdf, status: 422), Sample(name: "cut-jpeg.pdf", bytes: jpegInPDF, status: 200),
                Sample(name: "bad-profile.jpg", bytes: badProfile, status: 200)]
    }

    private static func inverting(_ data: inout Data, at offset: Int, count: Int) {
        for index in offset..<offset + count { data[index] ^= 0xFF }
    }

    @Test func theServiceKeepsEveryLineJSONUnderABurstAndCountsTheDroppedLines() async throws {
        let root = try TemporaryDirectory()
        let samples = try Self.samples()
        for sample in samples { try sample.bytes.write(to: root.url.appendingPathComponent(sample.name)) }
        let started = ContinuousClock.now
        let serve = try await ServeProcess.start(["--local-root", root.url.path, "--pdf-sources", "--log-format", "json",
                                                  "--log-level", "debug"])
        // 200 requests, the samples in turn, each a new result (its width), 8 at a time.
        let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            var statuses: [String: Set<Int>] = [:]
            for index in 0..<200 {
                if index >= 8, let (name, status) = try await group.next() { statuses[name, default: []].insert(status) }
                let sample = samples[index % samples.count]
                let url = try #require(URL(string: "http://127.0.0.1:\(serve.port)/_/w:\(10 + index)/plain/local:///\(sample.name)@png"))
                group.addTask {
                    let (_, response) = try await URLSession.shared.data(from: url)
                    return (sample.name, (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }
            for try await (name, status) in group { statuses[name, default: []].insert(status) }
            return statuses
        }
        for sample in samples { #expect(statuses[sample.name] == [sample.status], "\(sample.name)") }
        // The capture's thread logs what was written: read until the counts settle.
        var counts = try Self.libraryCounts(serve.metricsText())
        var settled = false
        for _ in 0..<60 where !settled {
            try await Task.sleep(for: .milliseconds(500))
            let next = try Self.libraryCounts(serve.metricsText())
            settled = next == counts
            counts = next
        }
        #expect(settled)
        #expect(serve.stop() == 0)
        let elapsed = ContinuousClock.now - started

        var libraryRecords = 0
        for line in serve.stderr.split(separator: "\n") {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            #expect(object != nil, "not JSON: \(line)")
            guard let object else { continue }
            #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            if object["logger"] as? String == "SwiftWebImage.libraries" {
                libraryRecords += 1
                #expect(object["level"] as? String == "debug" && object["library"] is String, "\(line)")
            }
        }
        // Every library that printed was captured and named; the rate (5 a second after a burst of 10) held.
        for library in ["libjxl", "dav1d", "pango", "poppler", "libjpeg", "lcms2"] { #expect(counts.lines[library, default: 0] > 0, "\(library)") }
        #expect(counts.lines.keys.contains("unidentified") == false)
        let total = counts.lines.values.reduce(0, +), dropped = counts.dropped.values.reduce(0, +)
        #expect(dropped > 0)
        #expect(libraryRecords == total - dropped)
        #expect(Double(libraryRecords) <= 10 + 5 * (Double(elapsed.components.seconds) + 1))
    }

    @Test func theCommandsPrintTheirOneLineAndTheLibrariesLinesOnlyAtDebug() async throws {
        let directory = try TemporaryDirectory()
        for sample in try Self.samples() {
            let path = directory.path(sample.name)
            try sample.bytes.write(to: URL(fileURLWithPath: path))
            let output = directory.path("out-\(sample.name).png")
            for (command, arguments) in [("decode", ["decode", path, "-o", output]), ("convert", ["convert", path, output])] {
                let result = try await CLIRunner.run(arguments)
                if sample.status == 200 {
                    #expect(result.status == 0 && result.stderr.isEmpty, "\(command) \(sample.name): \(result.stderr)")
                } else {
                    #expect(result.status == 1, "\(command) \(sample.name)")
                    #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("webimage: \(path): "),
                            "\(command) \(sample.name): \(result.stderr)")
                }
            }
        }
        let jxl = directory.path("broken.jxl")
        let debug = try await CLIRunner.run(["decode", jxl, "-o", directory.path("out.png"), "--log-level", "debug"])
        #expect(debug.status == 1)
        let traces = debug.stderrLines.filter { $0.contains("debug SwiftWebImage.libraries: library=libjxl ") }
        #expect(traces.count == 6 && traces.allSatisfy { $0.contains("./lib/jxl/") }, "\(debug.stderr)")
        #expect(debug.stderrLines.filter { $0.hasPrefix("webimage: \(jxl): ") }.count == 1)
        #expect(debug.stderrLines.count == traces.count + 1, "\(debug.stderr)")
    }

    /// Lines seen and dropped per library, from the Prometheus text.
    struct LibraryCounts: Equatable {
        var lines: [String: Int] = [:]
        var dropped: [String: Int] = [:]
    }

    static func libraryCounts(_ metrics: String) -> LibraryCounts {
        var counts = LibraryCounts()
        for line in metrics.split(separator: "\n") {
            guard line.hasPrefix("swiftwebimage_library_log_lines"), let open = line.range(of: "{library=\""),
                  let close = line.range(of: "\"}", range: open.upperBound..<line.endIndex),
                  let value = Int(line[close.upperBound...].trimmingCharacters(in: .whitespaces)) else { continue }
            let library = String(line[open.upperBound..<close.lowerBound])
            if line.hasPrefix("swiftwebimage_library_log_lines_dropped_total{") {
                counts.dropped[library] = value
            } else if line.hasPrefix("swiftwebimage_library_log_lines_total{") {
                counts.lines[library] = value
            }
        }
        return counts
    }
}
