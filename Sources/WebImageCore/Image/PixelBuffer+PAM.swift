import Foundation

extension PixelBuffer {
    /// The raster as a PAM file exactly as `dwebp -pam` writes it: the `P7` header with `TUPLTYPE RGB_ALPHA`,
    /// then straight RGBA8 rows.
    public func pamData() -> Data {
        let header = "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        var data = Data(header.utf8)
        data.append(contentsOf: converted(to: .rgba8).bytes)
        return data
    }
}
