import WebImageCore

/// Where a one-shot decode writes its raster: new storage (``fresh``), or a caller's buffer it may reuse
/// (``reusing(_:_:)``), so each coder has one decode path for both `decode` entry points.
struct RasterStore {
    /// The caller's buffer while a reusing decode runs; nil for a fresh decode.
    private var reusable: PixelBuffer?

    /// Every raster gets new storage, as `decode(_:options:)` returns it.
    static var fresh: RasterStore { RasterStore(reusable: nil) }

    /// Stands in for the caller's buffer while the store holds it, so that the store is its only owner.
    private static let placeholder = PixelBuffer(width: 1, height: 1)

    /// Runs `body` with a store holding `buffer` (moved, not copied, so its storage stays uniquely owned) and
    /// moves the store's raster back into `buffer` afterwards, also when `body` throws.
    static func reusing<R>(_ buffer: inout PixelBuffer, _ body: (inout RasterStore) throws -> R) rethrows -> R {
        var store = RasterStore(reusable: placeholder)
        swap(&store.reusable!, &buffer)
        defer { swap(&store.reusable!, &buffer) }
        return try body(&store)
    }

    /// A `width × height` raster filled by `body`: the reused buffer (which keeps sharing its storage with the
    /// result) or new storage.
    mutating func fill(width: Int, height: Int, format: PixelFormat = .rgba8,
                       initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows -> PixelBuffer {
        guard reusable != nil else {
            return try PixelBuffer(width: width, height: height, format: format, initializingWith: body)
        }
        try reusable!.reinitialize(width: width, height: height, format: format, initializingWith: body)
        return reusable!
    }

    /// Like ``fill(width:height:format:initializingWith:)`` but hands the raster over for in-place editing:
    /// the store lets go of it (so the caller's copy is uniquely owned) until ``keep(_:)`` returns one.
    mutating func take(width: Int, height: Int, format: PixelFormat = .rgba8,
                       initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows -> PixelBuffer {
        guard reusable != nil else {
            return try PixelBuffer(width: width, height: height, format: format, initializingWith: body)
        }
        try reusable!.reinitialize(width: width, height: height, format: format, initializingWith: body)
        var taken = Self.placeholder
        swap(&taken, &reusable!)
        return taken
    }

    /// Gives the store the raster the caller should find in its buffer afterwards (a no-op for a fresh store).
    mutating func keep(_ pixels: PixelBuffer) {
        if reusable != nil { reusable = pixels }
    }
}
