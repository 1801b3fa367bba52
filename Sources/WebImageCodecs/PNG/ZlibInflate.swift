import CDeflate

/// Whole-buffer zlib inflation with libdeflate, for the small compressed chunks (iCCP, iTXt) read beside the
/// image data.
enum ZlibInflate {
    /// The inflated bytes, nil when the data is not valid zlib or inflates past `limit` bytes (a bomb).
    static func inflate(_ compressed: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = min(limit, max(4096, compressed.count * 4))
        while true {
            var produced = 0
            var output = [UInt8](repeating: 0, count: capacity)
            let result = output.withUnsafeMutableBytes {
                libdeflate_zlib_decompress(decompressor, compressed.baseAddress, compressed.count, $0.baseAddress,
                                           capacity, &produced)
            }
            if result == LIBDEFLATE_SUCCESS { return Array(output.prefix(produced)) }
            guard result == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < limit else { return nil }
            capacity = min(limit, capacity * 2)
        }
    }
}
