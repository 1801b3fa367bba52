import Foundation

/// JSON text for stdout and report files: sorted keys so output is stable and diffable, numbers as numbers.
package enum JSONOutput {
    package static func text<Value: Encodable>(_ value: Value, pretty: Bool = false) throws -> String {
        String(decoding: try data(value, pretty: pretty), as: UTF8.self)
    }

    package static func data<Value: Encodable>(_ value: Value, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
