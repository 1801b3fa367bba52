import WebImageCore

/// Runs `body`; true when it returned normally or failed with a `WebImageError` — the only acceptable ends
/// for a decoder fed damaged bytes.
func endsInResultOrTypedError(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return true
    } catch is WebImageError {
        return true
    } catch {
        return false
    }
}

/// What `body` ended in, as text: nil when it returned, the `badImageData` reason's description, or what else
/// it threw (prefixed so a test's expectation names it).
func badImageDataDescription(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as WebImageError {
        guard case .badImageData(let reason) = error else { return "not badImageData: \(error)" }
        return reason.description
    } catch {
        return "untyped: \(error)"
    }
}
