import ArgumentParser
import WebImage

/// `--thumbnail 400x300` and `--max-pixel-size 800x600`: positive `WxH` (taken through ``OptionValue``, so a
/// bad size is the tool's one-line failure).
extension PixelSize: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
