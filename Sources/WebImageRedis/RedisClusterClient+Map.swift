extension RedisClusterClient {
    /// The map; read now when none is known yet, so the first calls wait for it (a read shared by all of them,
    /// bounded by the deadline).
    func currentMap() async throws(RedisError) -> RedisClusterMap {
        let (known, closed, lastRead) = state.withLock { ($0.map, $0.closed, $0.lastRead) }
        guard !closed else { throw .unavailable }
        guard let known else { return try await reading().value.get() }
        if let lastRead, ContinuousClock.now - lastRead >= Self.mapMaxAge { refreshInBackground() }
        return known
    }

    /// Reads the map again in the background, at most once per ``refreshInterval``: after a `MOVED` reply, a
    /// failed call, a slot no master serves, or once the map is ``mapMaxAge`` old.
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
    /// passed; the map, or why none could be read, is kept, and the clients of nodes it does not name as masters
    /// are closed (a failed-over master, a node removed).
    private func readMap() async -> Result<RedisClusterMap, RedisError> {
        let start = ContinuousClock.now
        let known = state.withLock { $0.map?.masters ?? [] }
        var candidates: [RedisClusterNode] = []
        for node in known + seeds.map({ RedisClusterNode(host: $0.host, port: $0.port) }) where !candidates.contains(node) {
            candidates.append(node)
        }
        var result = Result<RedisClusterMap, RedisError>.failure(.unavailable)
        for node in candidates {
            let left = configuration.deadline - (ContinuousClock.now - start)
            guard left > .zero else { break }
            do {
                let reply = try await client(for: node).send([["CLUSTER", "SLOTS"].map { Array($0.utf8) }],
                                                             deadline: left)[0]
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
        let departed = state.withLock { state -> [RedisClient] in
            state.reading = nil
            state.lastRead = .now
            switch result {
            case .success(let map):
                (state.map, state.mapFailure) = (map, nil)
                let gone = state.clients.keys.filter { !map.masters.contains($0) }
                return gone.compactMap { state.clients.removeValue(forKey: $0) }
            case .failure(let error) where state.map == nil:
                state.mapFailure = error
            case .failure:
                break
            }
            return []
        }
        for client in departed { await client.close() }
        return result
    }
}
