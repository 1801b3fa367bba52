/// Singleflight's bookkeeping as a value: one flight per key, the waiters of each, and the work's task.
///
/// A waiter leaving never affects the others; when the last one leaves, the flight is forgotten (a new
/// request starts afresh) and its task is handed back to be cancelled.
struct FlightTable<Waiter, Work> {
    struct Flight {
        let id: Int
        var waiters: [Int: Waiter]
        var work: Work?
    }

    enum Join {
        /// The first waiter: start the work.
        case lead(flightID: Int)
        /// Work for this key is under way.
        case follow
    }

    private var flights: [String: Flight] = [:]
    private var nextFlightID = 0

    var count: Int { flights.count }

    mutating func join(key: String, waiterID: Int, waiter: Waiter) -> Join {
        if flights[key] != nil {
            flights[key]?.waiters[waiterID] = waiter
            return .follow
        }
        nextFlightID += 1
        flights[key] = Flight(id: nextFlightID, waiters: [waiterID: waiter])
        return .lead(flightID: nextFlightID)
    }

    /// Records the work of a flight; false when the flight is already gone (everyone left): cancel it.
    mutating func attach(_ work: Work, key: String, flightID: Int) -> Bool {
        guard flights[key]?.id == flightID else { return false }
        flights[key]?.work = work
        return true
    }

    /// A waiter leaves (deadline, disconnect); returns it if it was still waiting, and the work to cancel when
    /// it was the last.
    mutating func leave(key: String, waiterID: Int) -> (waiter: Waiter?, abandoned: Work?) {
        guard let waiter = flights[key]?.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
        guard flights[key]?.waiters.isEmpty == true else { return (waiter, nil) }
        let work = flights.removeValue(forKey: key)?.work
        return (waiter, work)
    }

    /// The work of flight `flightID` ended: every waiter still there, to be given the result.
    mutating func finish(key: String, flightID: Int) -> [Waiter] {
        guard flights[key]?.id == flightID, let flight = flights.removeValue(forKey: key) else { return [] }
        return Array(flight.waiters.values)
    }
}
