import Foundation

extension TestCorpus {
    /// A corpus ISO-BMFF file (AVIF, HEIF) with its `ftyp` box's major brand replaced by `brand`: four bytes of the
    /// same length, so every offset in the file stays right (an `avif`-brand file made generic with `mif1`).
    public static func data(_ relative: String, majorBrand brand: String) throws -> Data {
        var bytes = try data(relative)
        precondition(bytes.count >= 12 && bytes[4..<8].elementsEqual("ftyp".utf8), "\(relative) opens with no ftyp box")
        precondition(brand.utf8.count == 4, "a brand is four characters")
        bytes.replaceSubrange(8..<12, with: Array(brand.utf8))
        return bytes
    }
}
