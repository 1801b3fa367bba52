/// Times one step of the demo.
enum Stopwatch {
    /// `body`'s result and how long it took, in milliseconds.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        let elapsed = start.duration(to: clock.now).components
        return (value, Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15)
    }
}
