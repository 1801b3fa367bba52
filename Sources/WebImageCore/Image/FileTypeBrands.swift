/// The ISO-BMFF `ftyp` box that opens HEIF, HEIC and AVIF files, and which of the three its brands announce:
/// the one brand table both sniffing (``ImageFormat/sniff(_:)``) and the coders' routing (the AVIF and HEIF
/// coders ask ``ImageFormat/init(sniffing:)``) read, so a file sniffs as the format of the coder that decodes it.
///
/// The major brand decides when it names a codec: `avif`, `avis` → AVIF (AV1, libavif); `heic`, `heix`, `heim`,
/// `heis`, `hevc`, `hevx`, `hevm`, `hevs` → HEIC (HEVC, libheif), as libheif's MIME table and imgproxy's magic
/// bytes have them. After a generic major brand (`mif1`, `msf1`) the compatible brands do: AVIF when they list
/// `avif` or `avis` — the AVIF brand requires the primary item to be AV1, and libavif reads any file listing it,
/// so it wins over an HEVC brand listed too — else HEIF (libheif reads the items and refuses codecs it cannot
/// decode). Any other major brand is no HEIF file, whatever its compatible brands say (libheif's file-type
/// check, which `heif-convert` applies, refuses them too).
enum FileTypeBrands {
    static let av1: Set<String> = ["avif", "avis"]
    static let hevc: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let generic: Set<String> = ["mif1", "msf1"]
    /// The compatible brands looked at, libheif's default limit: real files list a handful, and a hostile box
    /// size must not make every sniff walk megabytes.
    static let maxCompatibleBrands = 1_000

    /// The format the first box's brands announce; nil when the bytes do not open with an `ftyp` box of the
    /// HEIF family. Only that box is read, within the available bytes and its first ``maxCompatibleBrands``
    /// brands, so a hostile size field costs nothing.
    static func format(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard bytes.count >= 12 else { return nil }
        func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard fourCC(4) == "ftyp" else { return nil }
        let major = fourCC(8)
        if av1.contains(major) { return .avif }
        if hevc.contains(major) { return .heic }
        guard generic.contains(major) else { return nil }
        // A 32-bit size; 1 (a 64-bit size follows) and 0 (to the end of the file) never occur for `ftyp` in
        // practice, so both read as the available bytes. Compatible brands start after the minor version.
        let declared = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(declared >= 16 ? min(declared, bytes.count) : bytes.count, 16 + 4 * maxCompatibleBrands)
        let compatible = stride(from: 16, to: end - 3, by: 4).lazy.map(fourCC)
        return compatible.contains { av1.contains($0) } ? .avif : .heif
    }
}
