import Foundation
import TestSupport
import WebImage

/// Video poster frames (`webimage-benchmarks video`): `VideoThumbnailCoder` beside `ffmpeg -ss 5 -i FILE -frames:v 1`,
/// on a 1080p and a 4K H.264 MP4 (``videos``: `testsrc2`, 10 s at 30 fps, one key frame at 0 s before second 5),
/// the frame at second 5 exactly (151 frames decoded from the key frame) and the key frame at or before it.
///
/// Four ways per file and frame, each a fresh process per run, in ``rounds`` rounds after one warm-up run of each,
/// their order rotating from round to round so load from other processes falls on all alike:
/// - ours in-process: this executable as `--video-frame in-process` (``VideoBenchmarkChild``), the decode call's
///   wall and CPU time and the process's peak resident set (also printed as growth over the process before the
///   decode);
/// - ours in a child: `--video-frame child`, the coder with a `VideoChildProcess` starting this executable as
///   `--video-child` (what `webimage video-frame` runs): the call's wall time (child started, video piped, frame
///   piped back), the CPU of both processes, the child's peak resident set;
/// - `ffmpeg -threads 1 -filter_threads 1` (the single-threaded peer of our single-threaded decoder) and ffmpeg with
///   its default threads (what users run), writing RGBA to a file: run under Tests/PeakRSS, so its peak is its
///   own; its wall time is the process's life as PeakRSS sees it (polled every 2 ms), its CPU `wait4`'s user +
///   system time (PeakRSS's own included). The key-frame row adds `-noaccurate_seek` and `-fps_mode passthrough`
///   (the same frame as ours: the key frame at 0 s).
enum VideoBenchmark {
    static let rounds = 7
    static let second = 5.0
    static let folder = URL(fileURLWithPath: ".build-bench/videos", isDirectory: true)

    /// The videos: name, size, and the ffmpeg arguments that make them (x264's default preset, `-g 250`).
    static let videos = [("1080p", "1920x1080"), ("4K", "3840x2160")]

    enum Way: Int, CaseIterable {
        case inProcess, child, ffmpegOneThread, ffmpegThreads

        var label: String {
            ["ours in-process", "ours child (video-frame)", "ffmpeg -threads 1", "ffmpeg default threads"][rawValue]
        }
    }

    /// One run's figures.
    struct Sample {
        var wall: Double
        var cpu: Double
        var peakMB: Double
        /// The process's peak before the decode (ours only): the in-process figure's idle floor.
        var floorMB = 0.0
    }

    static func run() throws {
        let files = try videos.map { try make($0.0, size: $0.1) }
        let peakRSS = sibling("PeakRSS")
        guard FileManager.default.isExecutableFile(atPath: peakRSS.path) else {
            throw WebImageError.invalidOption("\(peakRSS.path) is missing: swift build -c release --product PeakRSS")
        }
        print("frame at \(second) s, \(rounds) rounds after a warm-up, a fresh process per run; load average before: "
              + AutoQualityBenchmark.loadAverage())
        print("median (range) per run: wall s · CPU s · peak RSS MB; ratio ours ÷ ffmpeg of the medians")
        for (index, file) in files.enumerated() {
            for keyframes in [false, true] {
                let samples = try measure(file, keyframes: keyframes, peakRSS: peakRSS)
                printGroup("\(videos[index].0) \(keyframes ? "key frame ≤ \(Int(second)) s" : "exact \(Int(second)) s")",
                           samples)
            }
        }
        print("load average after: \(AutoQualityBenchmark.loadAverage())")
    }

    /// Every way's samples, the ways' order rotating from round to round.
    private static func measure(_ file: URL, keyframes: Bool, peakRSS: URL) throws -> [Way: [Sample]] {
        var samples: [Way: [Sample]] = [:]
        for way in Way.allCases { _ = try sample(way, file, keyframes: keyframes, peakRSS: peakRSS) }
        for round in 0..<rounds {
            for offset in 0..<Way.allCases.count {
                let way = Way(rawValue: (round + offset) % Way.allCases.count)!
                samples[way, default: []].append(try sample(way, file, keyframes: keyframes, peakRSS: peakRSS))
            }
        }
        return samples
    }

    private static func sample(_ way: Way, _ file: URL, keyframes: Bool, peakRSS: URL) throws -> Sample {
        switch way {
        case .inProcess: return try ours("in-process", file, keyframes: keyframes)
        case .child: return try ours("child", file, keyframes: keyframes)
        case .ffmpegOneThread: return try ffmpeg(file, keyframes: keyframes, threads: ["-threads", "1", "-filter_threads", "1"], peakRSS: peakRSS)
        case .ffmpegThreads: return try ffmpeg(file, keyframes: keyframes, threads: [], peakRSS: peakRSS)
        }
    }

    private static func ours(_ mode: String, _ file: URL, keyframes: Bool) throws -> Sample {
        let process = try SpawnedProcess(URL(fileURLWithPath: CommandLine.arguments[0]),
                                         ["--video-frame", mode, file.path, "\(second)", "\(keyframes)"], stdout: .pipe)
        let output = process.standardOutput?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        let figures = String(decoding: output, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.termination == .exited(0), figures.count == 4 else {
            throw WebImageError.invalidOption("the \(mode) video child failed (status \(process.terminationStatus))")
        }
        return Sample(wall: figures[0], cpu: figures[1], peakMB: figures[2], floorMB: figures[3])
    }

    private static func ffmpeg(_ file: URL, keyframes: Bool, threads: [String], peakRSS: URL) throws -> Sample {
        let report = folder.appendingPathComponent("peak-rss-report")
        // Key frame: no accurate seek, and the frame passed through though its time is before the seek point
        // (without `-fps_mode passthrough` ffmpeg drops it and decodes on to second 5 anyway).
        let arguments = ["-nostdin", "-loglevel", "error"] + threads + ["-ss", "\(Int(second))"]
            + (keyframes ? ["-noaccurate_seek"] : []) + ["-i", file.path] + (keyframes ? ["-fps_mode", "passthrough"] : [])
            + ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-y", folder.appendingPathComponent("frame.rgba").path]
        let run = try ChildRun.run([peakRSS.path, report.path, "\(64 << 20)", "120", "/usr/bin/ffmpeg"] + arguments)
        let fields = try String(contentsOf: report, encoding: .utf8).split(separator: " ")
            .compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard run.status == 0, fields.count == 4, fields[0] == 0 else {
            throw WebImageError.invalidOption("ffmpeg \(arguments.joined(separator: " ")) failed (report \(fields))")
        }
        return Sample(wall: fields[3], cpu: run.cpuSeconds, peakMB: fields[2] / 1024)
    }

    /// `.build-bench/videos/NAME.mp4`, made by Debian's ffmpeg on first use.
    private static func make(_ name: String, size: String) throws -> URL {
        let file = folder.appendingPathComponent("testsrc2-\(name)-30fps-10s.mp4")
        if FileManager.default.fileExists(atPath: file.path) { return file }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("making \(file.path) with ffmpeg (once; about 20 s for 1080p, 70 s for 4K)")
        let partial = folder.appendingPathComponent("partial.mp4")
        let run = try ChildRun.run(["/usr/bin/ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                                    "-i", "testsrc2=s=\(size):r=30:d=10", "-c:v", "libx264", "-preset", "medium",
                                    "-g", "250", "-pix_fmt", "yuv420p", partial.path])
        guard run.status == 0 else { throw WebImageError.invalidOption("ffmpeg could not make \(file.path)") }
        try FileManager.default.moveItem(at: partial, to: file)
        return file
    }

    /// An executable built beside this one.
    private static func sibling(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    private static func printGroup(_ title: String, _ samples: [Way: [Sample]]) {
        print(title)
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func figure(_ values: [Double], _ format: String) -> String {
            String(format: format, median(values)) + " (" + AutoQualityBenchmark.span(values, format) + ")"
        }
        for way in Way.allCases {
            let runs = samples[way] ?? []
            var line = "  " + way.label.padding(toLength: 26, withPad: " ", startingAt: 0)
                + figure(runs.map(\.wall), "%.3f") + " · " + figure(runs.map(\.cpu), "%.3f") + " · "
                + figure(runs.map(\.peakMB), "%.1f")
            if way == .inProcess {
                line += String(format: "  (+%.1f over the idle process)", median(runs.map { $0.peakMB - $0.floorMB }))
            } else if way == .child, let run = runs.first(where: { $0.peakMB <= $0.floorMB + 1 }) {
                line += String(format: "  (at the parent's floor %.1f MB: not the child's own)", run.floorMB)
            }
            print(line)
        }
        for ours in [Way.inProcess, .child] {
            let parts = [Way.ffmpegOneThread, .ffmpegThreads].map { theirs -> String in
                let mine = samples[ours] ?? [], peer = samples[theirs] ?? []
                return String(format: "vs %@ wall %.2f× · CPU %.2f× · RSS %.2f×", theirs == .ffmpegOneThread ? "1 thread" : "default",
                              median(mine.map(\.wall)) / median(peer.map(\.wall)),
                              median(mine.map(\.cpu)) / median(peer.map(\.cpu)),
                              median(mine.map(\.peakMB)) / median(peer.map(\.peakMB)))
            }
            print("    \(ours == .inProcess ? "in-process" : "child     ") ÷ ffmpeg: " + parts.joined(separator: ";  "))
        }
    }
}
