/// Singleflight's bookkeeping as a value: one flight per key, the waiters of each, the work's task and its
/// deadline (the latest of the waiters').
///
/// A waiter leaving never affects the others; when the last one leaves, the flight is forgotten (a new
/// request starts afresh) and its task is handed back to be cancelled.
struct FlightTable<Waiter, Work> {
    struct Flight {
        let id: Int
        var waiters: [Int: Waiter]
        var work: Work?
        let deadline: WorkDeadline
    }

    enum Join {
        /// The first waiter: start the work, to be over by `deadline` (which later waiters extend).
        case lead(flightID: Int, deadline: WorkDeadline)
        /// Work for this key is under way.
        case follow
    }

    private var flights: [String: Flight] = [:]
    private var nextFlightID = 0

    var count: Int { flights.count }

    /// Joins the flight for `key`, or starts one; `deadline` is the waiter's own.
    mutating func join(key: String, waiterID: Int, waiter: Waiter, deadline: ContinuousClock.Instant) -> Join {
        if let flight = flights[key] {
            flights[key]?.waiters[waiterID] = waiter
            flight.deadline.extend(to: deadline)
            return .follow
        }
        nextFlightID += 1
        let shared = WorkDeadline(deadline)
        flights[key] = Flight(id: nextFlightID, waiters: [waiterID: waiter], deadline: shared)
        return .lead(flightID: nextFlightID, deadline: shared)
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
