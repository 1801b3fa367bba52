#if canImport(Glibc)
import Glibc
#endif
import Foundation
import WebImage
import WebImageVideo

/// The video benchmark's child processes: the benchmark re-runs itself so that every figure is one fresh process's.
///
/// - `--video-frame in-process|child FILE SECOND KEYFRAMES`: reads FILE, decodes the frame once with
///   `VideoThumbnailCoder` (in this process, or through a `VideoChildProcess` that starts this executable as
///   `--video-child`) and prints `wall cpu peakMB floorMB`: the decode call's wall and CPU seconds, and the peak
///   resident set of whichever process decoded.
/// - `--video-child`: `VideoFrameChild.run()`, as `webimage video-frame` does.
enum VideoBenchmarkChild {
    static let childArguments = ["--video-child"]

    /// `--video-child`: one request answered, as `webimage video-frame` does.
    static func runFrameChild() -> Never {
        exit(VideoFrameChild.run())
    }

    /// One decode as `mode` says; prints its figures.
    static func run(mode: String, path: String, second: Double, keyframes: Bool) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = ImageDecodeOptions()
        options.coderOptions[VideoThumbnailSecond.self] = second
        options.coderOptions[VideoThumbnailKeyframes.self] = keyframes
        let isolated = mode == "child"
        let coder = VideoThumbnailCoder(childProcess: isolated ? VideoChildProcess(arguments: childArguments) : nil)
        // This process's peak before the decode: the idle floor an in-process figure grows from, and for the child
        // the least `ru_maxrss` can report (a spawned child starts from its parent's peak; see Tests/PeakRSS).
        let floor = ChildMeasure.residentMB(field: "VmHWM")
        let cpuStart = Measure.cpuTime(.process) + childrenCPU(), wallStart = ContinuousClock.now
        let image = try coder.decode(data, options: options)
        let elapsed = ContinuousClock.now - wallStart
        let cpu = Measure.cpuTime(.process) + childrenCPU() - cpuStart
        guard image.pixels.width > 0 else { throw WebImageError.invalidOption("no frame decoded") }
        let peak = isolated ? childrenPeakMB() : ChildMeasure.residentMB(field: "VmHWM")
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(wall, cpu, peak, floor)
    }

    /// User and system CPU seconds of the children this process has reaped.
    private static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The largest peak resident set of the children this process has reaped, in MB.
    private static func childrenPeakMB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
