import ArgumentParser
import WebImage

/// `--thumbnail 400x300` and `--max-pixel-size 800x600`: positive `WxH`, rejected by ArgumentParser otherwise.
extension PixelSize: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
