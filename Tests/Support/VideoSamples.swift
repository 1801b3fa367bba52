import Foundation

/// Videos made by Debian's `ffmpeg` for the tests (the video coder's and the service's), each once per test
/// process, in a temporary folder.
public enum VideoSamples {
    /// 64×48, 10 frames a second for 3 s, every pixel of frame N grey level 8N (so a frame tells its number),
    /// H.264 in MP4 with a key frame every 10 frames.
    private static let greyRampArguments = ["-f", "lavfi", "-i", "color=s=64x48:r=10:d=3,format=rgb24,geq=r='8*N':g='8*N':b='8*N'",
                                    "-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p", "-color_range", "tv"]

    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-videos-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The file `ffmpeg arguments… <folder>/name` writes, made on first use; written under a temporary name and
    /// renamed, so a test running beside the one making it never reads half a file.
    public static func make(_ name: String, _ arguments: [String]) async throws -> Data {
        let url = folder.appendingPathComponent(name)
        if let data = try? Data(contentsOf: url) { return data }
        let partial = folder.appendingPathComponent("partial-\(UUID().uuidString)-\(name)")
        let ffmpeg = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                                ["-nostdin", "-loglevel", "error", "-y"] + arguments + [partial.path],
                                                timeout: 120)
        guard ffmpeg.status == 0 else { throw FFmpegFailed(message: ffmpeg.stderr) }
        guard rename(partial.path, url.path) == 0 else { throw FFmpegFailed(message: "cannot rename to \(url.path)") }
        return try Data(contentsOf: url)
    }

    /// A 320×240 `testsrc2` pattern (colour bars, moving shapes), 25 frames a second for 2 s, H.264 in MP4.
    public static func pattern() async throws -> Data {
        try await make("testsrc.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264",
                                       "-pix_fmt", "yuv420p"])
    }

    /// The pattern in MOV, its display matrix asking for `degrees` of rotation (ffmpeg's `rotate` tag), streams copied.
    public static func rotatedPattern(_ degrees: Int) async throws -> Data {
        let source = folder.appendingPathComponent("testsrc.mp4")
        _ = try await pattern()
        return try await make("testsrc-rotate\(degrees).mov", ["-i", source.path, "-c", "copy", "-metadata:s:v", "rotate=\(degrees)"])
    }

    /// The grey ramp in a container (`mp4`, `mov`, `mkv`, `avi`), H.264; `webm` is VP9.
    public static func greyRamp(_ container: String, extra: [String] = []) async throws -> Data {
        var arguments = greyRampArguments + extra
        if container == "webm" {
            arguments = arguments.map { $0 == "libx264" ? "libvpx-vp9" : $0 }
        }
        // AVI keeps no presentation times: B-frames would shift every frame's time.
        if container == "avi" { arguments += ["-bf", "0"] }
        let suffix = extra.isEmpty ? "" : "-" + String(extra.joined().unicodeScalars.filter(CharacterSet.alphanumerics.contains))
        return try await make("ramp\(suffix).\(container)", arguments)
    }

    /// What `ffmpeg -ss second -i file -frames:v 1` gives, as RGBA8 (converted with the flags the coder uses).
    public static func ffmpegFrame(_ data: Data, second: Double) async throws -> [UInt8] {
        let input = folder.appendingPathComponent("input-\(UUID().uuidString)")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let output = folder.appendingPathComponent("frame-\(UUID().uuidString).rgba")
        defer { try? FileManager.default.removeItem(at: output) }
        let ffmpeg = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                                ["-nostdin", "-loglevel", "error", "-y", "-ss", "\(second)", "-i", input.path,
                                                 "-frames:v", "1", "-sws_flags", "bicubic+accurate_rnd+full_chroma_int", "-f", "rawvideo",
                                                 "-pix_fmt", "rgba", output.path],
                                                timeout: 60)
        guard ffmpeg.status == 0 else { throw FFmpegFailed(message: ffmpeg.stderr) }
        return Array(try Data(contentsOf: output))
    }

    public struct FFmpegFailed: Error {
        public var message: String
    }
}
