import Foundation

/// Polls `condition` every 2 ms for at most `timeout` seconds; returns whether it came to hold. The default is
/// long because the whole suite at once on two cores has starved a task for over 30 s; a condition that holds
/// returns at once all the same.
public func eventually(timeout: Double = 90, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
