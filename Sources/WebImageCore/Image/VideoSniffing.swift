/// The video containers the video coder reads (MP4 and MOV, WebM and Matroska, AVI, imgproxy Pro's list),
/// told apart by their opening bytes: the one table sniffing (``ImageFormat/sniff(_:)``) and the video coder's
/// routing read.
///
/// - MP4/MOV: an ISO-BMFF `ftyp` box whose major brand is a video brand (`qt  ` is MOV), or a QuickTime file
///   without one that opens with a `moov`, `mdat`, `wide`, `free`, `skip` or `pnot` atom.
/// - Matroska: the EBML magic `1A 45 DF A3`, WebM when the header's `DocType` says `webm`.
/// - AVI: `RIFF....AVI `.
enum VideoSniffing {
    /// Major brands of MP4 files and their relatives (ISO base media, MPEG-4, 3GPP, Apple's, DASH, Flash video).
    static let mp4Brands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1",
        "M4V ", "M4VH", "M4VP", "3gp4", "3gp5", "3gp6", "3gp7", "3gp8", "3gp9", "3g2a", "3g2b", "3g2c", "dash",
        "mmp4", "MSNV", "f4v ", "XAVC",
    ]
    /// The atoms a QuickTime file without `ftyp` opens with.
    static let quickTimeAtoms: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]
    static let ebmlMagic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]
    /// How far into a Matroska file its `DocType` is looked for (the EBML header is a few dozen bytes).
    static let docTypeWindow = 64

    /// The video format `bytes` open with; nil when they are no video container this table knows.
    static func format(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard bytes.count >= 12 else { return nil }
        func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        if bytes.starts(with: ebmlMagic) { return matroskaFormat(bytes) }
        if fourCC(0) == "RIFF", fourCC(8) == "AVI " { return .avi }
        if fourCC(4) == "ftyp" {
            let major = fourCC(8)
            if major == "qt  " { return .mov }
            return mp4Brands.contains(major) ? .mp4 : nil
        }
        return bytes[0] == 0 && quickTimeAtoms.contains(fourCC(4)) ? .mov : nil
    }

    /// WebM when the EBML header's `DocType` element (ID `42 82`) says `webm`, else Matroska.
    private static func matroskaFormat(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        let window = bytes.prefix(docTypeWindow)
        let webm = Array("webm".utf8)
        // The ID, a one-byte size of 4 (0x84), then the text.
        for index in window.indices.dropLast(6) where window[index] == 0x42 && window[index + 1] == 0x82 {
            return window[(index + 3)...].starts(with: webm) ? .webm : .mkv
        }
        return .mkv
    }
}
