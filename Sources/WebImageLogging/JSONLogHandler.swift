import Foundation
import Logging
import WebImage

/// One JSON object per line (`--log-format json`, imgproxy's `IMGPROXY_LOG_FORMAT=json`; `gcp` names the level
/// `severity`, as Google Cloud Logging reads it): `time` (ISO 8601, UTC, milliseconds), `level`, `logger` (the
/// label), `message`, then the metadata's keys, nested dictionaries and arrays as JSON. Values from requests and
/// sources are JSON strings, so a control character is an escape and can never start a line.
public struct JSONLogHandler: LogHandler {
    public enum Style: Sendable {
        case json
        /// Google Cloud Logging's structured form: `severity` in capitals (`WARNING`), `message`, `time`.
        case gcp
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let style: Style
    private let write: @Sendable (String) -> Void

    /// A handler writing each line, newline included, with `write` (stderr by default).
    public init(label: String, style: Style = .json, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.style = style
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged { fields[key] = Self.json(value) }
        if let error = event.error {
            fields["error.message"] = "\(error)"
            fields["error.type"] = String(reflecting: type(of: error))
        }
        fields["time"] = Self.timestamp(Date())
        fields["logger"] = label
        fields["message"] = event.message.description
        switch style {
        case .json: fields["level"] = event.level.rawValue
        case .gcp: fields["severity"] = Self.severity(event.level)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]),
              let line = String(data: data, encoding: .utf8) else { return }
        write(line + "\n")
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .dictionary(let metadata): metadata.mapValues(json)
        case .array(let values): values.map(json)
        }
    }

    private static func severity(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }

    private static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// Writes `line` to stderr in one call (``StandardErrorOutput``: the original stream while the C libraries'
    /// output is captured), lines of several threads never interleaved.
    public static let standardError: @Sendable (String) -> Void = { line in
        StandardErrorOutput.write(line)
    }
}
