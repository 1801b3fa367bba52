extension RedisClusterClient {
    /// The map; read now when none is known yet, so the first calls wait for it (a read shared by all of them,
    /// bounded by the deadline).
    func currentMap() async throws(RedisError) -> RedisClusterMap {
        let (known, closed) = state.withLock { ($0.map, $0.closed) }
        guard !closed else { throw .unavailable }
        if let known { return known }
        return try await reading().value.get()
    }

    /// Reads the map again in the background, at most once per ``refreshInterval``: after a `MOVED` reply, a
    /// failed call or a slot no master serves.
    func refreshInBackground() {
        let due = state.withLock { state in
            !state.closed && state.reading == nil
                && state.lastRead.map { ContinuousClock.now - $0 >= Self.refreshInterval } ?? true
        }
        if due { _ = reading() }
    }

    /// The read under way, or a new one.
    private func reading() -> Task<Result<RedisClusterMap, RedisError>, Never> {
        state.withLock { state in
            if let reading = state.reading { return reading }
            // Its end takes the lock, so it cannot clear `reading` before it is set here.
            let reading = Task { await self.readMap() }
            state.reading = reading
            return reading
        }
    }

    /// `CLUSTER SLOTS` from the known masters, then the seeds, until one answers with a map or the deadline has
    /// passed; the map, or why none could be read, is kept.
    private func readMap() async -> Result<RedisClusterMap, RedisError> {
        let start = ContinuousClock.now
        let known = state.withLock { $0.map?.masters ?? [] }
        var candidates: [RedisClusterNode] = []
        for node in known + seeds.map({ RedisClusterNode(host: $0.host, port: $0.port) }) where !candidates.contains(node) {
            candidates.append(node)
        }
        var result = Result<RedisClusterMap, RedisError>.failure(.unavailable)
        for node in candidates where ContinuousClock.now - start < configuration.deadline {
            do {
                let reply = try await client(for: node).command(["CLUSTER", "SLOTS"])
                guard let map = RedisClusterMap(slots: reply, asked: node.host) else {
                    result = .failure(.unexpectedReply("CLUSTER SLOTS from \(node) gave no slot map"))
                    continue
                }
                result = .success(map)
                break
            } catch {
                result = .failure(error)
            }
        }
        state.withLock { state in
            state.reading = nil
            state.lastRead = .now
            switch result {
            case .success(let map): (state.map, state.mapFailure) = (map, nil)
            case .failure(let error) where state.map == nil: state.mapFailure = error
            case .failure: break
            }
        }
        return result
    }
}
