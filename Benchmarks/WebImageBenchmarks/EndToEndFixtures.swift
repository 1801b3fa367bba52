import Foundation
import TestSupport
import WebImage

/// The end-to-end benchmark's images: photo-like pictures (gradients, waves and grain) encoded as JPEG,
/// PNG, WebP and GIF at 50–150 KB, served in the mix of issue 14 (55 % JPEG, 11 % PNG, 22 % WebP, 11 % GIF).
struct EndToEndFixtures {
    struct Kind {
        var name: String
        var fileExtension: String
        var data: Data
    }

    let kinds: [Kind]

    static func make() throws -> EndToEndFixtures {
        let coders = CodersManager.shared
        func encode(_ image: Image, _ format: ImageFormat, quality: Double = 1) throws -> Data {
            try coders.encode(image, as: format, options: ImageEncodeOptions(quality: quality))
        }
        return EndToEndFixtures(kinds: [
            Kind(name: "JPEG 1024x768", fileExtension: "jpg", data: try encode(picture(1024, 768, grain: 6), .jpeg, quality: 0.8)),
            Kind(name: "PNG 320x240", fileExtension: "png", data: try encode(picture(320, 240, grain: 3), .png)),
            Kind(name: "WebP 1024x768", fileExtension: "webp", data: try encode(picture(1024, 768, grain: 6), .webp, quality: 0.8)),
            Kind(name: "GIF 400x300", fileExtension: "gif", data: try encode(picture(400, 300, grain: 2), .gif)),
        ])
    }

    /// `count` distinct URLs on a new loopback server, in the mix of ``fixture(for:)``, listed one per line in
    /// `directory/urls.txt` (which the caller creates and removes).
    func serve(count: Int, in directory: URL) async throws -> (server: TestHTTPServer, urlFile: URL) {
        let server = try await TestHTTPServer.start()
        var urls: [String] = []
        for index in 0..<count {
            let fixture = fixture(for: index)
            let path = "/images/\(index).\(fixture.fileExtension)"
            server.route(path, TestResponse(body: fixture.data))
            urls.append(server.url(path).absoluteString)
        }
        let urlFile = directory.appendingPathComponent("urls.txt")
        try urls.joined(separator: "\n").write(to: urlFile, atomically: true, encoding: .utf8)
        return (server, urlFile)
    }

    /// The fixture served at position `index`: out of every 100, 55 JPEG, 11 PNG, 22 WebP, 11 GIF, 1 JPEG.
    func fixture(for index: Int) -> Kind {
        switch index % 100 {
        case ..<55: kinds[0]
        case ..<66: kinds[1]
        case ..<88: kinds[2]
        case ..<99: kinds[3]
        default: kinds[0]
        }
    }

    private static func picture(_ width: Int, _ height: Int, grain: Int) -> Image {
        var random = SplitMix64(seed: UInt64(width * 31 + height))
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let wave = sin(Double(x) / 37) * cos(Double(y) / 23) * 60
                let noise = Int(random.next() % UInt64(2 * grain + 1)) - grain
                let i = (y * width + x) * 4
                bytes[i] = UInt8(clamping: Int(Double(x * 200 / width) + wave) + 30 + noise)
                bytes[i + 1] = UInt8(clamping: Int(Double(y * 180 / height) - wave / 2) + 40 + noise)
                bytes[i + 2] = UInt8(clamping: 140 + Int(wave) + noise)
            }
        }
        return Image(pixels: PixelBuffer(width: width, height: height, bytes: bytes), hasAlpha: false)
    }
}

/// The Python peers' interpreter: a virtual environment under `.build-bench/venv` with requests, Pillow,
/// pyvips and pyvips-binary from PyPI, made on first use.
enum PythonPeers {
    static let script = "Benchmarks/peer_e2e.py"
    static let environment = ".build-bench/venv"

    /// The interpreter, or nil (with the reason printed) when the environment cannot be made.
    static func python() -> String? {
        let python = environment + "/bin/python"
        guard FileManager.default.fileExists(atPath: script) else {
            print("peers skipped: run from the project root (\(script) not found)")
            return nil
        }
        if !FileManager.default.isExecutableFile(atPath: python) {
            print("making \(environment) (pip install requests pillow pyvips pyvips-binary)…")
            guard shell(["/usr/bin/env", "python3", "-m", "venv", environment]),
                  shell([environment + "/bin/pip", "install", "--quiet", "requests", "pillow", "pyvips", "pyvips-binary"])
            else {
                print("peers skipped: could not make \(environment)")
                return nil
            }
        }
        return python
    }

    private static func shell(_ arguments: [String]) -> Bool {
        guard let process = try? SpawnedProcess(URL(fileURLWithPath: arguments[0]), Array(arguments.dropFirst()),
                                                stdout: .inherited, stderr: .inherited) else {
            return false
        }
        process.waitUntilExit()
        return process.termination == .exited(0)
    }
}
