import Foundation
import WebImage

/// Writes fetched images into the `-o` directory: names from the URLs, extensions from the formats.
///
/// Without `--format` and without a transform or thumbnail the original bytes are written unchanged (no
/// re-encode, no loss); otherwise the image is encoded as `--format` (else its own format), keeping every
/// frame where the format can hold an animation. The same URL is written once; different URLs whose
/// names collide get `-2`, `-3`, … suffixes.
struct FetchOutput {
    let directory: String
    /// `--format`, already checked to have an encoder.
    let format: ImageFormat?
    let quality: Double?
    /// Whether the image differs from the original bytes (transformed or thumbnailed).
    let reshaped: Bool
    private var files: [String: String] = [:]
    private var taken: Set<String> = []

    init(directory: String, format: ImageFormat?, quality: Double?, reshaped: Bool) {
        self.directory = directory
        self.format = format
        self.quality = quality
        self.reshaped = reshaped
    }

    /// Writes the image of `url` (once per URL) and returns the path.
    mutating func write(_ result: ImageLoadResult, url: String) throws -> String {
        if let written = files[url] { return written }
        let (bytes, written) = try encoded(result)
        let path = directory + "/" + uniqueName(Self.baseName(of: url), extension: written.fileExtension ?? "img")
        try FileIO.write(bytes, to: path)
        files[url] = path
        return path
    }

    /// The bytes to write and their format.
    private func encoded(_ result: ImageLoadResult) throws -> (Data, ImageFormat) {
        if format == nil, !reshaped, let data = result.data, !data.isEmpty {
            return (data, ImageFormat(sniffing: data))
        }
        var target = format ?? result.image.format
        if !CodersManager.shared.canEncode(to: target) { target = .png }
        let animated = target.holdsAnimation && result.image.frameCount > 1
        let options = ImageEncodeOptions(quality: quality ?? 1, firstFrameOnly: !animated)
        return (try CodersManager.shared.encode(result.image, as: target, options: options), target)
    }

    /// `name.ext`, or `name-2.ext`, `name-3.ext`, … when taken by another URL.
    private mutating func uniqueName(_ base: String, extension ext: String) -> String {
        var name = "\(base).\(ext)"
        var counter = 2
        while taken.contains(name) {
            name = "\(base)-\(counter).\(ext)"
            counter += 1
        }
        taken.insert(name)
        return name
    }

    /// The URL's last path component without its extension, reduced to safe file-name characters.
    static func baseName(of url: String) -> String {
        let last = URL(string: url).map { ($0.lastPathComponent as NSString).deletingPathExtension } ?? ""
        let safe = String(last.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        let trimmed = safe.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return trimmed.isEmpty ? "image" : trimmed
    }
}
