/// How one pixel is laid out in a ``PixelBuffer``.
public enum PixelFormat: String, Sendable, Hashable, Codable {
    /// 8-bit R, G, B, A with straight (unpremultiplied) alpha: 4 bytes a pixel.
    case rgba8
    /// 16-bit R, G, B, A with straight alpha, each sample a native-endian `UInt16`: 8 bytes a pixel.
    /// Kept for 16-bit sources so no precision is lost until the caller asks for 8 bits.
    case rgba16

    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgba16: 8
        }
    }
}
