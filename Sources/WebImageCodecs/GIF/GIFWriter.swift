import CGIF
import Foundation
import WebImageCore

/// An RGB palette entry.
typealias GIFColor = (red: UInt8, green: UInt8, blue: UInt8)

/// One image record to write: its place on the screen, colours, pixels and graphics control block.
struct GIFWriterFrame {
    var left = 0
    var top = 0
    var width: Int
    var height: Int
    /// The local colour table (≤ 256 entries); nil uses the global one.
    var colors: [GIFColor]?
    /// Palette indices in display order, `width × height` of them.
    var indices: [UInt8]
    var isInterlaced = false
    var transparentIndex: Int?
    /// The GCE disposal code (0–3).
    var disposal = 0
    var delayCentiseconds = 0
}

/// Writes GIF89a files with giflib's encoder: screen, optional global table, NETSCAPE2.0 loop block, and
/// each frame with its control block and LZW-compressed pixels.
enum GIFWriter {
    /// The file bytes; `loopCount` nil writes no NETSCAPE2.0 block.
    static func write(screen: PixelSize, globalColors: [GIFColor]? = nil, loopCount: Int? = nil,
                      frames: [GIFWriterFrame]) throws -> Data {
        let sink = GIFByteSink()
        var error: Int32 = 0
        guard let handle = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), GIFByteSink.writeCallback, &error) else {
            throw failure(code: error)
        }
        var isOpen = true
        defer { if isOpen { EGifCloseFile(handle, nil) } }
        try withExtendedLifetime(sink) {
            EGifSetGifVersion(handle, true)
            try withColorMap(globalColors) { map in
                try check(EGifPutScreenDesc(handle, Int32(screen.width), Int32(screen.height), 8, 0, map), handle)
            }
            if let loopCount { try writeLoopBlock(loopCount, handle) }
            let cancellation = WorkCancellation.current
            for frame in frames {
                try cancellation?.check()
                try writeFrame(frame, alwaysControl: frames.count > 1, handle)
            }
        }
        isOpen = false
        guard EGifCloseFile(handle, &error) == GIF_OK else { throw failure(code: error) }
        return sink.data
    }

    private static func writeLoopBlock(_ loopCount: Int, _ handle: UnsafeMutablePointer<GifFileType>) throws {
        let count = min(max(0, loopCount), 0xFFFF)
        try check(EGifPutExtensionLeader(handle, APPLICATION_EXT_FUNC_CODE), handle)
        try check(EGifPutExtensionBlock(handle, 11, Array("NETSCAPE2.0".utf8)), handle)
        try check(EGifPutExtensionBlock(handle, 3, [1, UInt8(count & 0xFF), UInt8(count >> 8)]), handle)
        try check(EGifPutExtensionTrailer(handle), handle)
    }

    private static func writeFrame(_ frame: GIFWriterFrame, alwaysControl: Bool,
                                   _ handle: UnsafeMutablePointer<GifFileType>) throws {
        guard frame.indices.count == frame.width * frame.height else {
            throw WebImageError.encodingFailed(format: .gif, reason: "frame pixel count does not match its size")
        }
        if alwaysControl || frame.transparentIndex != nil || frame.disposal != 0 || frame.delayCentiseconds != 0 {
            var control = GraphicsControlBlock(
                DisposalMode: Int32(frame.disposal), UserInputFlag: false,
                DelayTime: Int32(min(max(0, frame.delayCentiseconds), 0xFFFF)),
                TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var extensionBytes = [UInt8](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            try check(EGifPutExtension(handle, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), handle)
        }
        try withColorMap(frame.colors) { map in
            try check(EGifPutImageDesc(handle, Int32(frame.left), Int32(frame.top), Int32(frame.width),
                                       Int32(frame.height), frame.isInterlaced, map), handle)
        }
        guard frame.width > 0, frame.height > 0 else { return }
        var fileOrder = interlacedOrder(frame)
        try check(EGifPutLine(handle, &fileOrder, Int32(fileOrder.count)), handle)
    }

    /// The rows in the order the file stores them (giflib leaves interlacing to the caller).
    private static func interlacedOrder(_ frame: GIFWriterFrame) -> [UInt8] {
        guard frame.isInterlaced else { return frame.indices }
        let rowOrder = GIFInterlace(height: frame.height, isInterlaced: true)
        var out: [UInt8] = []
        out.reserveCapacity(frame.indices.count)
        for fileRow in 0..<frame.height {
            let start = rowOrder.displayRow(fileRow) * frame.width
            out.append(contentsOf: frame.indices[start..<start + frame.width])
        }
        return out
    }

    /// Runs `body` with a giflib colour map of `colors` padded to a power of two (nil when `colors` is nil).
    private static func withColorMap(_ colors: [GIFColor]?, _ body: (UnsafeMutablePointer<ColorMapObject>?) throws -> Void) throws {
        guard let colors else { return try body(nil) }
        guard colors.count <= 256 else {
            throw WebImageError.encodingFailed(format: .gif, reason: "a GIF colour table holds at most 256 colours")
        }
        var size = 2
        while size < colors.count { size *= 2 }
        var entries = colors.map { GifColorType(Red: $0.red, Green: $0.green, Blue: $0.blue) }
        entries += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - entries.count)
        guard let map = GifMakeMapObject(Int32(size), &entries) else {
            throw WebImageError.encodingFailed(format: .gif, reason: "giflib could not allocate a colour table")
        }
        defer { GifFreeMapObject(map) }
        try body(map)
    }

    private static func check(_ result: Int32, _ handle: UnsafeMutablePointer<GifFileType>) throws {
        guard result == GIF_OK else { throw failure(code: handle.pointee.Error) }
    }

    private static func failure(code: Int32) -> WebImageError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .encodingFailed(format: .gif, reason: "giflib: \(message)")
    }
}

/// Collects what giflib's encoder writes.
final class GIFByteSink {
    private(set) var data = Data()

    /// The giflib output callback: finds this sink through the handle's `UserData`.
    static let writeCallback: OutputFunc = { file, bytes, count in
        guard let file, let bytes, count > 0, let user = file.pointee.UserData else { return 0 }
        Unmanaged<GIFByteSink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
        return count
    }
}
