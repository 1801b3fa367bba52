#if canImport(Glibc)
import Glibc
#endif
import Foundation
import WebImage
import WebImageVideo

// Started by VideoChildProcess below as this same executable with `video-frame`: the bounded child.
if CommandLine.arguments.dropFirst() == ["video-frame"] { exit(VideoFrameChild.run()) }

/// A poster frame of a video made by Debian's ffmpeg, through `VideoThumbnailCoder` added to the shared coders,
/// in this process and in a bounded child process; exits 1 on any mismatch.
func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok: \(what)" : "FAILED: \(what)")
    if !condition { exit(1) }
}

let file = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString).mp4")
// 64x48, 10 frames a second for 3 s, frame N all grey 8N.
let made = system("/usr/bin/ffmpeg -nostdin -loglevel error -f lavfi -i "
    + "\"color=s=64x48:r=10:d=3,format=rgb24,geq=r='8*N':g='8*N':b='8*N'\" -c:v libx264 -pix_fmt yuv420p \(file.path)")
check(made == 0, "ffmpeg made a test video")
let video = try Data(contentsOf: file)
try? FileManager.default.removeItem(at: file)

CodersManager.shared.addCoder(VideoThumbnailCoder())
var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32))
options.coderOptions[VideoThumbnailSecond.self] = 2
let frame = try CodersManager.shared.decode(video, options: options)
let grey = Int(frame.pixels.converted(to: .rgba8).bytes[(12 * 32 + 16) * 4])
check(frame.format == .mp4 && frame.pixelSize == PixelSize(width: 32, height: 24) && abs(grey - 160) <= 3,
      "the frame at 2 s as a 32x24 thumbnail")

let isolated = VideoThumbnailCoder(childProcess: VideoChildProcess(memoryAllowance: 128 << 20, cpuSeconds: 10,
                                                                   timeLimit: .seconds(10)))
check(try isolated.decode(video, options: options).pixels == frame.pixels, "the same frame from a bounded child")
check(try isolated.probe(video).streams.first?.codec == "h264", "the probe names the stream's codec")
print("video consumer: all checks passed")
