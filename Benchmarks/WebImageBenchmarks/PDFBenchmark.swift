// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import Foundation
import TestSupport
import WebImage

/// PDF page rendering: page 1 of each corpus PDF (`Tests/Corpus/pdf`) at 72 DPI by `PDFCoder` beside poppler's
/// raw C calls in the same process (open from memory, render onto a cairo surface: the limit, without the
/// conversion to straight RGBA), both charged thread CPU time in interleaved rounds; and beside `pdftocairo
/// -png -singlefile -r 72 -transp` run as a process per file (wall time, which includes its start-up and PNG
/// encoding), with our decode's wall time on the same scale.
enum PDFBenchmark {
    static let files = ["alphatrans", "asciihexdecode", "Embedded_font", "gradientfill", "hello_world_rotated",
                        "knockout_blend_multiply", "radial_gradients", "rotation", "sizes", "smask_alpha_bc",
                        "tiling_patterns_variations"]

    static func run() throws {
        let coder = PDFCoder()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        print("file                              ours ms  raw ms  raw/ours median (range)   ours wall ms  pdftocairo wall ms  pdftocairo/ours")
        var cpuRatios: [Double] = [], processRatios: [Double] = []
        for name in files {
            let data = try TestCorpus.data("pdf/\(name).pdf")
            let comparison = try Measure.interleavedBest(rounds: 9,
                { _ = try coder.decode(data, options: ImageDecodeOptions()) },
                { try renderRaw(data) })
            let oursWall = try Measure.best(repeats: 5) { _ = try coder.decode(data, options: ImageDecodeOptions()) }
            let tool = try pdftocairoMedianWall(TestCorpus.path("pdf/\(name).pdf"), output: scratch.path + "/out", runs: 5)
            let median = comparison.medianRatio
            cpuRatios.append(median)
            processRatios.append(tool / oursWall)
            print(String(format: "%@ %8.2f %7.2f   %.3f× (%@)   %10.2f   %12.2f   %10.1f×",
                         name.padding(toLength: 32, withPad: " ", startingAt: 0),
                         comparison.ours.cpu * 1000, comparison.theirs.cpu * 1000, median, comparison.ratioRange,
                         oursWall * 1000, tool * 1000, tool / oursWall))
        }
        let sortedCPU = cpuRatios.sorted(), sortedProcess = processRatios.sorted()
        print(String(format: "raw/ours over the files: median %.3f× (%.3f–%.3f); pdftocairo/ours wall: median %.1f× (%.1f–%.1f)",
                     sortedCPU[sortedCPU.count / 2], sortedCPU.first!, sortedCPU.last!,
                     sortedProcess[sortedProcess.count / 2], sortedProcess.first!, sortedProcess.last!))
    }

    /// Page 1 rendered by poppler onto a fresh ARGB32 surface of its size at 72 DPI, as the coder does.
    static func renderRaw(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            let bytes = g_bytes_new_static(raw.baseAddress, gsize(raw.count))
            defer { g_bytes_unref(bytes) }
            guard let document = poppler_document_new_from_bytes(bytes, nil, nil) else {
                throw WebImageError.badImageData(.corrupt("poppler cannot open the PDF"))
            }
            defer { g_object_unref(UnsafeMutableRawPointer(document)) }
            guard let page = poppler_document_get_page(document, 0) else {
                throw WebImageError.badImageData(.corrupt("no page 1"))
            }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width.rounded()), Int32(height.rounded()))
            defer { cairo_surface_destroy(surface) }
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            poppler_page_render(page, context)
            cairo_surface_flush(surface)
        }
    }

    /// The median wall seconds of `runs` runs of `pdftocairo` on `path` (after one warm-up run).
    static func pdftocairoMedianWall(_ path: String, output: String, runs: Int) throws -> Double {
        var times: [Double] = []
        for run in 0...runs {
            let start = ContinuousClock.now
            let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/pdftocairo"),
                                             ["-png", "-singlefile", "-r", "72", "-transp", path, output])
            process.waitUntilExit()
            let elapsed = ContinuousClock.now - start
            guard process.termination == .exited(0) else {
                throw WebImageError.badImageData(.corrupt("pdftocairo failed on \(path)"))
            }
            if run > 0 {
                times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
        return times.sorted()[times.count / 2]
    }
}
