import Foundation
import TestSupport
import WebImage

enum PDFTestSupport {
    /// `pdftocairo` ended other than with status 0.
    struct PdftocairoFailed: Error, CustomStringConvertible {
        let file: String
        let status: Int32
        var description: String { "pdftocairo \(file): ended with \(status)" }
    }

    /// Page 1 of `file` as `pdftocairo -png -singlefile -r 72 -transp` (poppler-utils, installed by
    /// `Scripts/setup.sh`) draws it on this machine: 72 DPI on a transparent background. Made at test time, so the
    /// reference and the coder (the same poppler, in process) substitute the same fonts for those a file does not
    /// embed, whatever fonts the machine has.
    static func pdftocairo(_ file: URL) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pdftocairo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page")
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/pdftocairo"),
                                         ["-png", "-singlefile", "-r", "72", "-transp", file.path, page.path])
        process.waitUntilExit()
        guard process.exitedNormally, process.terminationStatus == 0 else {
            throw PdftocairoFailed(file: file.lastPathComponent, status: process.terminationStatus)
        }
        return try Data(contentsOf: page.appendingPathExtension("png"))
    }

    /// `"<code> <description>"` of the typed error `body` throws; nil when it returns, `untyped …` for another error.
    static func failure(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as WebImageError {
            return "\(error.code) \(error)"
        } catch {
            return "untyped \(error)"
        }
    }

    static func options(_ configure: (inout ImageDecodeOptions) -> Void) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        configure(&options)
        return options
    }
}
