import Logging

/// Wraps a log handler so that every message, metadata key and value reaches it on one line: control
/// characters (and the Unicode line and paragraph separators) are written as escapes, `\n`, `\r`, `\t` or
/// `\u{1B}`. Values from requests and sources (a source URL with `%0a` decoded, an origin's error text) can
/// then never start a line of their own in a text log. `webimage serve` and the other commands install it
/// around swift-log's stream handler.
public struct EscapingLogHandler: LogHandler {
    private var inner: any LogHandler
    /// The handler's own metadata (keys escaped), its values escaped only when a record is written: Hummingbird
    /// sets a request id on every request's logger, which rarely writes one, and the stream handler formats its
    /// whole metadata on every change.
    private var stored: Logger.Metadata

    public init(_ inner: any LogHandler) {
        self.inner = inner
        stored = Dictionary(inner.metadata.map { (LogText.escaped($0.key), $0.value) }, uniquingKeysWith: { $1 })
        self.inner.metadata = [:]
        self.inner.metadataProvider = inner.metadataProvider.map(Self.escaping)
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { Self.escaped(stored) }
        set { stored = Dictionary(newValue.map { (LogText.escaped($0.key), $0.value) }, uniquingKeysWith: { $1 }) }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue.map(Self.escaping) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stored[key].map(Self.escaped) }
        set { stored[LogText.escaped(key)] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(LogText.escaped(event.message.description))"
        var metadata = event.metadata ?? [:]
        // The stream handler would print the error's text as it is: it goes as escaped metadata instead.
        if let error = event.error {
            metadata["error.message"] = .string("\(error)")
            metadata["error.type"] = .string(String(reflecting: type(of: error)))
            event.error = nil
        }
        event.metadata = metadata.isEmpty ? nil : Self.escaped(metadata)
        guard !stored.isEmpty else { return inner.log(event: event) }
        var inner = inner
        inner.metadata = Self.escaped(stored)
        inner.log(event: event)
    }

    static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
        Dictionary(metadata.map { (LogText.escaped($0.key), escaped($0.value)) }, uniquingKeysWith: { $1 })
    }

    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(LogText.escaped(text))
        case .stringConvertible(let convertible): .string(LogText.escaped(convertible.description))
        case .dictionary(let metadata): .dictionary(escaped(metadata))
        case .array(let values): .array(values.map(escaped))
        }
    }

    private static func escaping(_ provider: Logger.MetadataProvider) -> Logger.MetadataProvider {
        Logger.MetadataProvider { escaped(provider.get()) }
    }
}

/// Text as one log line.
public enum LogText {
    /// `text` with every control character, U+2028 and U+2029 written as an escape (`\n`, `\r`, `\t`,
    /// `\u{1B}`); backslashes stay, so escaping twice changes nothing.
    public static func escaped(_ text: String) -> String {
        // Printable ASCII, nearly every line, needs no look at Unicode properties (a lookup per scalar).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escape = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
