import Foundation
import WebImageCore

extension ImageDecodeOptions {
    /// `image` carrying what `read` finds in the file when ``readsMetadata`` asks for it, else `image` as is
    /// (`read` is not called: a normal decode pays nothing). Metadata that cannot be read is left out.
    func attachingMetadata(to image: Image, _ read: () -> ImageMetadata?) -> Image {
        guard readsMetadata, let metadata = read() else { return image }
        return image.with(metadata: metadata)
    }
}
