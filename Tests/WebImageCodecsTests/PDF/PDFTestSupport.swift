import Foundation
import WebImage

enum PDFTestSupport {
    /// `"<code> <description>"` of the typed error `body` throws; nil when it returns, `untyped …` for another error.
    static func failure(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as WebImageError {
            return "\(error.code) \(error)"
        } catch {
            return "untyped \(error)"
        }
    }

    static func options(_ configure: (inout ImageDecodeOptions) -> Void) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        configure(&options)
        return options
    }
}
