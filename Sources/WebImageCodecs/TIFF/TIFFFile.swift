import CTIFF
import Foundation
import WebImageCore

/// One libtiff handle over memory, with its stream and error log, closed when released.
///
/// libtiff's field accessors are C variadic functions, which Swift cannot call; the `va_list` forms
/// (`TIFFVGetField`, `TIFFVSetField`) are used instead.
final class TIFFFile {
    let handle: OpaquePointer
    let log: TIFFErrorLog
    let stream: TIFFMemoryStream

    private init(handle: OpaquePointer, log: TIFFErrorLog, stream: TIFFMemoryStream) {
        self.handle = handle
        self.log = log
        self.stream = stream
    }

    deinit { TIFFClose(handle) }

    /// The smallest single allocation libtiff is always allowed: directories, colour maps and one strip of a
    /// typical file fit well inside it.
    static let baseAllocationLimit = 64 << 20

    /// Opens `bytes` (which must outlive the handle) and reads its first directory.
    static func open(reading bytes: UnsafeRawBufferPointer, maxSingleAllocation: Int = baseAllocationLimit) throws -> TIFFFile {
        guard !bytes.isEmpty else { throw WebImageError.badImageData(.empty) }
        // A classic header is 8 bytes, BigTIFF's 16; shorter input cannot hold a directory.
        guard bytes.count >= 8 else { throw WebImageError.badImageData(.truncated) }
        return try open(stream: TIFFMemoryStream(reading: bytes), mode: "r", maxSingleAllocation: maxSingleAllocation)
    }

    /// A new, empty file to write pages into; its bytes are ``TIFFMemoryStream/written`` after ``finish()``.
    static func open(writingCapacity capacity: Int) throws -> TIFFFile {
        try open(stream: TIFFMemoryStream(writing: capacity), mode: "w", maxSingleAllocation: baseAllocationLimit)
    }

    private static func open(stream: TIFFMemoryStream, mode: String, maxSingleAllocation: Int) throws -> TIFFFile {
        let log = TIFFErrorLog()
        let options = log.openOptions(maxSingleAllocation: maxSingleAllocation)
        defer { TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(stream).toOpaque()
        guard let handle = TIFFClientOpenExt("memory", mode, context, TIFFMemoryStream.readProc,
                                             TIFFMemoryStream.writeProc, TIFFMemoryStream.seekProc,
                                             TIFFMemoryStream.closeProc, TIFFMemoryStream.sizeProc,
                                             TIFFMemoryStream.mapProc, TIFFMemoryStream.unmapProc, options) else {
            throw log.failure("not a readable TIFF file")
        }
        return TIFFFile(handle: handle, log: log, stream: stream)
    }

    /// Flushes the last directory and closes the handle's output; the written bytes stay in ``stream``.
    func finish() throws {
        log.reset()
        guard TIFFFlush(handle) != 0 else { throw log.failure("libtiff could not write the file") }
    }

    // MARK: Fields

    /// A field that holds one value of `T`, with libtiff's default when the directory has none.
    func value<T: BinaryInteger>(_ tag: Int32, default fallback: T, defaulted: Bool = true) -> T {
        var value: T = fallback
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { defaulted ? TIFFVGetFieldDefaulted(handle, UInt32(tag), $0)
                                              : TIFFVGetField(handle, UInt32(tag), $0) }
        }
        return found != 0 ? value : fallback
    }

    /// A field that holds a count and an array of `UInt16` (ExtraSamples).
    func shortArray(_ tag: Int32) -> [UInt16] {
        var count: UInt16 = 0
        var values: UnsafeMutablePointer<UInt16>?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &values) { valuesPointer in
                withVaList([countPointer, valuesPointer]) { TIFFVGetFieldDefaulted(handle, UInt32(tag), $0) }
            }
        }
        guard found != 0, let values else { return [] }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }

    /// A field that holds a 32-bit count and that many bytes (the ICC profile); nil when absent or empty.
    func bytes(_ tag: Int32) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &data) { dataPointer in
                withVaList([countPointer, dataPointer]) { TIFFVGetField(handle, UInt32(tag), $0) }
            }
        }
        guard found != 0, count > 0, let data else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }

    /// Sets a field from C variadic arguments as libtiff reads them (16-bit values passed as `Int32`).
    @discardableResult
    func set(_ tag: Int32, _ arguments: any CVarArg...) -> Bool {
        withVaList(arguments) { TIFFVSetField(handle, UInt32(tag), $0) } != 0
    }
}
