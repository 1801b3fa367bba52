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
