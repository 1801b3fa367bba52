/// A tightly packed raster of ``PixelFormat`` pixels, rows top to bottom.
///
/// Storage is a Swift array so decoders can write straight into it (see
/// ``init(width:height:format:initializingWith:)``): a fresh 48 MB buffer filled by the C library costs one
/// pass, where decoding into C memory and copying costs two.
public struct PixelBuffer: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// The pixel bytes, `bytesPerRow × height` of them.
    public private(set) var bytes: [UInt8]

    public var bytesPerRow: Int { width * format.bytesPerPixel }
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Wraps existing bytes; `bytes.count` must be `width × height × bytesPerPixel`.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8, bytes: [UInt8]) {
        precondition(width > 0 && height > 0, "PixelBuffer needs a positive size")
        precondition(bytes.count == width * height * format.bytesPerPixel, "PixelBuffer byte count mismatch")
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
    }

    /// A buffer of transparent black pixels.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8) {
        self.init(width: width, height: height, format: format,
                  bytes: [UInt8](repeating: 0, count: width * height * format.bytesPerPixel))
    }

    /// Allocates uninitialised storage and lets `body` fill every byte (a C decoder writing in place).
    ///
    /// `body` receives the buffer and must initialise all of it before returning normally; if it throws,
    /// the storage is discarded. Large buffers are backed by huge pages where the system allows (see
    /// ``HugePages``), which matters as much as the decoder's own speed for big images.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8,
                initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(width > 0 && height > 0, "PixelBuffer needs a positive size")
        let count = width * height * format.bytesPerPixel
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            try body(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        self.init(width: width, height: height, format: format, bytes: bytes)
    }

    /// Makes this buffer a `width × height` raster of `format` and lets `body` fill every byte, in the storage
    /// it already has when possible.
    ///
    /// For callers decoding many images in a row with bounded allocation: the storage is reused when this
    /// buffer is its only owner and the new raster fits its capacity (growing within the capacity zeroes only
    /// the added bytes); otherwise fresh storage is allocated, as ``init(width:height:format:initializingWith:)``
    /// would. Storage shared with another value (an ``Image`` still holding the last result) is never written
    /// through: like any `Array` mutation it is copied first, so drop earlier results before reusing. If
    /// `body` throws, the buffer keeps the new size with unspecified contents and stays usable.
    public mutating func reinitialize(width: Int, height: Int, format: PixelFormat = .rgba8,
                                      initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(width > 0 && height > 0, "PixelBuffer needs a positive size")
        let count = width * height * format.bytesPerPixel
        // Take the array out of `self` so that, if `self` was its only owner, `storage` is now unique.
        var storage: [UInt8] = []
        swap(&storage, &bytes)
        if count <= storage.capacity {
            if storage.count > count {
                storage.removeLast(storage.count - count)
            } else if storage.count < count {
                storage.append(contentsOf: repeatElement(0, count: count - storage.count))
            }
        } else {
            storage = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            }
        }
        self = PixelBuffer(width: width, height: height, format: format, bytes: consume storage)
        try bytes.withUnsafeMutableBytes(body)
    }

    /// Mutable access to the bytes for code that fills or edits the raster in place.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeMutableBytes(body)
    }

    /// Read-only access to the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// The pixel at (x, y) as 8-bit straight RGBA (16-bit samples rounded to 8 bits).
    public func rgba8(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
        switch format {
        case .rgba8:
            let i = y * bytesPerRow + x * 4
            return Array(bytes[i..<i + 4])
        case .rgba16:
            let i = y * bytesPerRow + x * 8
            return (0..<4).map { c in
                bytes.withUnsafeBytes { PixelBuffer.to8($0.loadUnaligned(fromByteOffset: i + 2 * c, as: UInt16.self)) }
            }
        }
    }

    /// Rounds a 16-bit sample to 8 bits (`v × 255 / 65535`, to nearest).
    @inlinable
    public static func to8(_ value: UInt16) -> UInt8 {
        UInt8((UInt32(value) * 255 + 32767) / 65535)
    }

    /// This raster as 8-bit RGBA (itself when it already is).
    public func converted(to target: PixelFormat) -> PixelBuffer {
        guard target != format else { return self }
        switch target {
        case .rgba8:
            return PixelBuffer(width: width, height: height, format: .rgba8) { out in
                bytes.withUnsafeBytes { src in
                    let samples = src.bindMemory(to: UInt16.self)
                    for i in 0..<samples.count { out[i] = PixelBuffer.to8(samples[i]) }
                }
            }
        case .rgba16:
            return PixelBuffer(width: width, height: height, format: .rgba16) { out in
                let samples = out.bindMemory(to: UInt16.self)
                for i in 0..<bytes.count { samples[i] = UInt16(bytes[i]) * 257 }
            }
        }
    }

    /// Whether any pixel has alpha below opaque.
    public var containsTransparency: Bool {
        switch format {
        case .rgba8:
            return bytes.withUnsafeBytes { raw in
                var i = 3
                while i < raw.count {
                    if raw[i] != 255 { return true }
                    i += 4
                }
                return false
            }
        case .rgba16:
            return bytes.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: UInt16.self)
                var i = 3
                while i < samples.count {
                    if samples[i] != 0xFFFF { return true }
                    i += 4
                }
                return false
            }
        }
    }
}
