/// EXIF orientation (TIFF tag 274), 1…8: how the stored pixels must be turned to be upright.
public enum ImageOrientation: Int, Sendable, Hashable, Codable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// The orientation for an EXIF value; anything outside 1…8 means `up`, as every viewer treats it.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// Whether applying this orientation swaps width and height (5…8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}
