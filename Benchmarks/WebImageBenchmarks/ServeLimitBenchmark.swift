import CTurboJPEG
import Foundation
import Synchronization
import WebImage
import WebImageServer

/// The limit of serve_bench's W2 and W5 rows (issue 29): what one request's image work costs when it is nothing
/// but the raw calls — TurboJPEG's scaled decode at the largest DCT scale that stays above the result (libvips'
/// shrink-on-load), the lanczos3 resize to the result (our `Resampler`, as the service resizes), TurboJPEG's
/// encode at 4:2:0 with the accurate DCT (as the service and libvips encode) — summed, beside the same request through `ImageProxy.image` in process (signature, local source,
/// header, decode, process, encode; no cache) and so our overhead above the limit. serve_bench's CPU per
/// request adds HTTP and the download on top.
///
/// Reads serve_bench's images (`SERVE_IMAGES`, default `.build-bench/serve-images/v2`; `bash
/// Benchmarks/serve_bench.sh` makes them). Thread CPU time, median of 9 runs per stage and file.
enum ServeLimitBenchmark {
    struct Workload {
        let name: String
        let files: [String]
        let box: Int
        let quality: Int
    }

    static let workloads = [
        Workload(name: "W2 2040×1360 → fit 512 JPEG q80", files: (0..<5).map { String(format: "photos/photos-%03d.jpg", $0) },
                 box: 512, quality: 80),
        Workload(name: "W5 7360×4912 → fit 500 JPEG q80", files: ["large/large-000.jpg"], box: 500, quality: 80),
    ]

    static func run() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SERVE_IMAGES"] ?? ".build-bench/serve-images/v2")
        for workload in workloads {
            let paths = workload.files.map { root.appendingPathComponent($0) }
            guard paths.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else {
                print("\(workload.name): no images under \(root.path) (run bash Benchmarks/serve_bench.sh once)")
                continue
            }
            var stages = [Stages]()
            for path in paths { stages.append(try rawStages(Data(contentsOf: path), box: workload.box, quality: workload.quality)) }
            let ours = try inProcess(root: root, workload: workload)
            let mean = Stages.mean(stages)
            let limit = mean.decode + mean.resize + mean.encode
            print(String(format: "%@: raw limit %.2f ms (TurboJPEG decode at 1/%d %.2f + lanczos3 resize %.2f + TurboJPEG encode %.2f)",
                         workload.name, limit * 1e3, mean.shrink, mean.decode * 1e3, mean.resize * 1e3, mean.encode * 1e3))
            print(String(format: "  ImageProxy.image in process: %.2f ms CPU a request = %.2f× the limit (%.2f ms above it)",
                         ours * 1e3, ours / limit, (ours - limit) * 1e3))
        }
    }

    /// Median thread CPU seconds of each raw stage for one file.
    struct Stages {
        var shrink = 1
        var decode = 0.0, resize = 0.0, encode = 0.0

        static func mean(_ all: [Stages]) -> Stages {
            let n = Double(all.count)
            return Stages(shrink: all[0].shrink, decode: all.map(\.decode).reduce(0, +) / n,
                          resize: all.map(\.resize).reduce(0, +) / n, encode: all.map(\.encode).reduce(0, +) / n)
        }
    }

    static func rawStages(_ jpeg: Data, box: Int, quality: Int) throws -> Stages {
        guard let decoder = tjInitDecompress(), let encoder = tjInitCompress() else {
            throw WebImageError.badImageData(.corrupt("TurboJPEG handles"))
        }
        defer { tjDestroy(decoder); tjDestroy(encoder) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let bytes = [UInt8](jpeg)
        guard tjDecompressHeader3(decoder, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw WebImageError.badImageData(.corrupt("tjDecompressHeader3"))
        }
        let factor = min(Double(box) / Double(width), Double(box) / Double(height))
        let target = PixelSize(width: max(1, Int((Double(width) * factor).rounded())),
                               height: max(1, Int((Double(height) * factor).rounded())))
        let source = PixelSize(width: Int(width), height: Int(height))
        let scaledBy = { (shrink: Int) -> PixelSize in
            PixelSize(width: (source.width + shrink - 1) / shrink, height: (source.height + shrink - 1) / shrink)
        }
        let shrink: Int = [8, 4, 2, 1].first { (s: Int) -> Bool in
            let size = scaledBy(s)
            return size.width >= target.width && size.height >= target.height
        } ?? 1
        let scaled = scaledBy(shrink)
        var raster = [UInt8](repeating: 0, count: scaled.pixelCount * 4)
        let decode = try median {
            guard tjDecompress2(decoder, bytes, UInt(bytes.count), &raster, Int32(scaled.width), 0, Int32(scaled.height),
                                Int32(TJPF_RGBX.rawValue), 0) == 0 else {
                throw WebImageError.badImageData(.corrupt("tjDecompress2"))
            }
        }
        let pixels = PixelBuffer(width: scaled.width, height: scaled.height, bytes: raster)
        var resized = pixels
        let resize = median { resized = Resampler.resample(pixels, to: target, kernel: .lanczos3) }
        let result = [UInt8](resized.bytes)
        let encode = try median {
            var output: UnsafeMutablePointer<UInt8>?
            var size: UInt = 0
            defer { tjFree(output) }
            guard tjCompress2(encoder, result, Int32(target.width), 0, Int32(target.height), Int32(TJPF_RGBX.rawValue),
                              &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_ACCURATEDCT) == 0 else {
                throw WebImageError.encodingFailed(format: .jpeg, reason: "tjCompress2")
            }
        }
        return Stages(shrink: shrink, decode: decode, resize: resize, encode: encode)
    }

    /// Median CPU seconds per request of `ImageProxy.image` over the workload's files, each request a new URL
    /// (a cache buster) with the result cache off, run one after another.
    static func inProcess(root: URL, workload: Workload) throws -> Double {
        let pair = URLSigner.KeyPair(keyHex: "736563726574", saltHex: "68656C6C6F")!
        var configuration = ImageProxyConfiguration(signing: .init(keyPairs: [pair]))
        configuration.sources.localRoot = root
        configuration.caches.memoryBytes = 0
        let proxy = ImageProxy(configuration: configuration)
        let signer = URLSigner(keyPairs: [pair])
        let perRequest = Mutex([Double]())
        try Measure.waitFor {
            for round in 0..<(workload.files.count == 1 ? 15 : 3) {
                for (index, file) in workload.files.enumerated() {
                    let path = "/rs:fit:\(workload.box):\(workload.box)/q:\(workload.quality)/cb:\(round)-\(index)/plain/local:///\(file)@jpg"
                    // The whole process's CPU: a request runs on the service's worker threads, not this one.
                    let start = Measure.cpuTime(.process)
                    let status = await proxy.image(ProxyRequest(target: signer.sign(path))).status
                    let cpu = Measure.cpuTime(.process) - start
                    guard status == 200 else { throw DeadlineBenchmark.Failure.status(status) }
                    if round > 0 { perRequest.withLock { $0.append(cpu) } }
                }
            }
            await proxy.shutdown()
        }
        let times = perRequest.withLock { $0 }.sorted()
        return times[times.count / 2]
    }

    /// Median thread CPU seconds of 9 runs of `body` after one warm-up.
    private static func median(_ body: () throws -> Void) rethrows -> Double {
        try body()
        var times = [Double]()
        for _ in 0..<9 {
            let start = Measure.cpuTime(.thread)
            try body()
            times.append(Measure.cpuTime(.thread) - start)
        }
        return times.sorted()[times.count / 2]
    }
}
