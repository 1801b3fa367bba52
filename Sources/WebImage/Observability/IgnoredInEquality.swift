/// A value that its owner's `==` and `hash(into:)` ignore, so `Hashable` configurations can carry a `Logger`
/// and a `MetricsFactory` (neither is `Equatable`): two configurations differing only in them are equal.
struct IgnoredInEquality<Value: Sendable>: Sendable, Hashable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
