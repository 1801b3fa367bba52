import CTIFF
import Foundation
import WebImageCore

/// One libtiff handle over memory, with its stream and error log, closed when released.
///
/// libtiff's field accessors are C variadic functions, which Swift cannot call: fields are read through the
/// fixed-type forms in the `CTIFF` shim and set through `TIFFVSetField`'s `va_list`.
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

    /// A 16-bit field, with libtiff's default when the directory has none (unless `defaulted` is false).
    func value(_ tag: Int32, default fallback: UInt16, defaulted: Bool = true) -> UInt16 {
        var value = fallback
        return webimage_tiff_get_uint16(handle, UInt32(tag), defaulted ? 1 : 0, &value) != 0 ? value : fallback
    }

    /// A 32-bit field, with libtiff's default when the directory has none (unless `defaulted` is false).
    func value(_ tag: Int32, default fallback: UInt32, defaulted: Bool = true) -> UInt32 {
        var value = fallback
        return webimage_tiff_get_uint32(handle, UInt32(tag), defaulted ? 1 : 0, &value) != 0 ? value : fallback
    }

    /// A field that holds a count and an array of `UInt16` (ExtraSamples).
    func shortArray(_ tag: Int32) -> [UInt16] {
        var count: UInt16 = 0
        var values: UnsafeMutablePointer<UInt16>?
        guard webimage_tiff_get_uint16_array(handle, UInt32(tag), &count, &values) != 0, let values else { return [] }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }

    /// A field that holds a 32-bit count and that many bytes (the ICC profile); nil when absent or empty.
    func bytes(_ tag: Int32) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        guard webimage_tiff_get_bytes(handle, UInt32(tag), &count, &data) != 0, count > 0, let data else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }

    /// Sets a field from C variadic arguments as libtiff reads them (16-bit values passed as `Int32`).
    @discardableResult
    func set(_ tag: Int32, _ arguments: any CVarArg...) -> Bool {
        withVaList(arguments) { TIFFVSetField(handle, UInt32(tag), $0) } != 0
    }
}
