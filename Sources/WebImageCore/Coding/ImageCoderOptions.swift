/// Names one coder-specific option and its type (the entries of SDWebImage's `imageDecodeOptions` that only a
/// custom coder understands).
///
/// ```swift
/// enum Tone: ImageCoderOptionKey { static let defaultValue = 1.0 }
/// var context = WebImageContext()
/// context.decodeOptions.coderOptions[Tone.self] = 0.5   // read by the custom coder
/// ```
public protocol ImageCoderOptionKey: Sendable {
    associatedtype Value: Sendable & Hashable
    /// What a coder reads when the option was not set.
    static var defaultValue: Value { get }
}

/// Coder-specific options carried through the pipeline untouched, typed by their keys.
///
/// They travel with ``ImageDecodeOptions`` (and so through the manager, the downloader and the cache) to
/// every coder, take part in its equality (two requests with different values are decoded apart), and are
/// recorded on the decoded image with the rest of its options (``Image/decodeOptions``).
public struct ImageCoderOptions: Sendable, Hashable {
    private var values: [ObjectIdentifier: Value] = [:]

    /// No options set.
    public init() {}

    /// The value set for `key`, else its ``ImageCoderOptionKey/defaultValue``; setting nil removes it.
    public subscript<Key: ImageCoderOptionKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)]?.value as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = Value(value: newValue) }
    }

    /// Whether `key` was set explicitly.
    public func contains<Key: ImageCoderOptionKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// Removes the value set for `key`.
    public mutating func removeValue<Key: ImageCoderOptionKey>(for key: Key.Type) {
        values[ObjectIdentifier(key)] = nil
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { values.isEmpty }

    /// A stored value: only `Sendable & Hashable` values are ever wrapped (the subscript's constraint).
    private struct Value: @unchecked Sendable, Hashable {
        let value: AnyHashable

        init(value: some Sendable & Hashable) {
            self.value = AnyHashable(value)
        }
    }
}
