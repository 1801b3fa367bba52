import CGIF

/// The bytes a giflib decoder pulls from, and how far it has read.
///
/// giflib reads through a C callback (``GIFReader`` installs it). Keeping the position here lets the animated
/// decoder jump straight to a frame's record, and ``hitEnd`` tells a truncated file (the callback ran dry)
/// from a corrupt one whatever error code giflib chose.
final class GIFByteSource {
    let bytes: UnsafeRawBufferPointer
    /// Offset of the next byte giflib will get.
    var position = 0
    /// Whether giflib asked for more bytes than were left.
    private(set) var hitEnd = false

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Copies up to `count` bytes to `destination`, returning how many there were.
    func read(into destination: UnsafeMutablePointer<GifByteType>, count: Int) -> Int {
        let available = max(0, min(count, bytes.count - position))
        if available < count { hitEnd = true }
        if available > 0, let base = bytes.baseAddress {
            UnsafeMutableRawPointer(destination).copyMemory(from: base + position, byteCount: available)
        }
        position += available
        return available
    }

    /// The giflib input callback: finds this source through the handle's `UserData`.
    static let readCallback: InputFunc = { file, destination, count in
        guard let file, let destination, count > 0, let user = file.pointee.UserData else { return 0 }
        let source = Unmanaged<GIFByteSource>.fromOpaque(user).takeUnretainedValue()
        return Int32(source.read(into: destination, count: Int(count)))
    }
}
