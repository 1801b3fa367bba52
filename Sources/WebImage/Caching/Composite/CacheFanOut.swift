import Synchronization

/// Runs one operation over a ``CachesManager``'s caches by policy and answers exactly once.
///
/// `rank` grades a query or contains answer: 0 is no hit; a hit of ``Self/decisiveRank`` (a memory hit)
/// settles the operation at once; a lesser hit (from disk) settles a serial run at once but a concurrent one
/// only when no cache is left that could still answer from memory, so a memory hit anywhere always wins.
/// Without a hit the answer is `merge` of every cache's answer (store: the first error), or `empty` with
/// no caches. Cancelling the returned token cancels every started sub-operation and answers the
/// sub-operations' cancelled value.
struct CacheFanOut<T: Sendable>: Sendable {
    /// Lowest priority first.
    var caches: [any ImageCaching]
    var policy: CachesManager.Policy
    var empty: T
    var rank: @Sendable (T) -> Int
    var merge: @Sendable (T, T) -> T

    /// The rank of a memory hit.
    static var decisiveRank: Int { ImageCacheType.memory.hitRank }

    typealias Start = @Sendable (any ImageCaching, @escaping @Sendable (T) -> Void) -> CacheToken

    func run(_ completion: (@Sendable (T) -> Void)?, start: @escaping Start) -> CacheToken {
        switch policy {
        case .highestOnly, .lowestOnly:
            guard let cache = policy == .highestOnly ? caches.last : caches.first else {
                completion?(empty)
                return .completed()
            }
            return start(cache) { completion?($0) }
        case .concurrent, .serial:
            guard !caches.isEmpty else {
                completion?(empty)
                return .completed()
            }
            let empty = empty
            let outer = CacheToken { completion?(empty) }
            let deliver: @Sendable (T) -> Void = { if outer.complete() { completion?($0) } }
            if policy == .concurrent {
                runConcurrently(outer: outer, deliver: deliver, start: start)
            } else {
                runSerially(from: caches.count - 1, merged: nil, outer: outer, deliver: deliver, start: start)
            }
            return outer
        }
    }

    private func runConcurrently(outer: CacheToken, deliver: @escaping @Sendable (T) -> Void, start: Start) {
        let tally = Mutex<(remaining: Int, merged: T?, best: (value: T, rank: Int)?)>((caches.count, nil, nil))
        let rank = rank, merge = merge
        for cache in caches.reversed() {
            let child = start(cache) { value in
                let grade = rank(value)
                if grade >= Self.decisiveRank { return deliver(value) }
                let all: T? = tally.withLock { tally in
                    tally.remaining -= 1
                    if grade > 0 {
                        if grade > tally.best?.rank ?? 0 { tally.best = (value, grade) }
                    } else {
                        tally.merged = tally.merged.map { merge($0, value) } ?? value
                    }
                    return tally.remaining == 0 ? tally.best?.value ?? tally.merged : nil
                }
                if let all { deliver(all) }
            }
            outer.addChild(child)
        }
    }

    /// Asks `caches[index]`, then the next lower one, until a hit or the lowest has answered.
    private func runSerially(from index: Int, merged: T?, outer: CacheToken,
                             deliver: @escaping @Sendable (T) -> Void, start: @escaping Start) {
        guard !outer.isFinished else { return }
        let child = start(caches[index]) { value in
            let soFar = merged.map { self.merge($0, value) } ?? value
            let isHit = self.rank(value) > 0
            if isHit || index == 0 { return deliver(isHit ? value : soFar) }
            self.runSerially(from: index - 1, merged: soFar, outer: outer, deliver: deliver, start: start)
        }
        outer.addChild(child)
    }
}

extension ImageCacheType {
    /// How a ``CacheFanOut`` ranks an answer from this tier: 2 for memory, 1 for disk (or another tier), 0 for none.
    var hitRank: Int { self == .none ? 0 : includesMemory ? 2 : 1 }
}
