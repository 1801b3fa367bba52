import ArgumentParser
import Foundation

/// `--max-input-bytes`: how much of an input `info`, `decode` and `convert` read before refusing it.
struct InputLimit: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Refuse an input file (or device, or pipe) larger than this many bytes.",
                               valueName: "BYTES"))
    var maxInputBytes = OptionValue<Int>(argument: String(FileIO.defaultInputLimit))

    /// The bytes of `path`, read in chunks up to the limit; a bad limit or an input over it fails naming `path`.
    func read(_ path: String) throws -> Data {
        let limit = try maxInputBytes.value("--max-input-bytes", about: path, hint: OptionHint.byteCount) { $0 > 0 }
        return try FileIO.read(path, limit: limit, limitOption: "--max-input-bytes")
    }
}
