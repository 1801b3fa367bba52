/// The pending downloads, ordered by priority and then by the execution order (a value type; the downloader
/// keeps it under its lock).
///
/// High-priority entries start before normal ones, normal before low. Within one priority FIFO starts the
/// oldest entry and LIFO the newest, so with LIFO a new request runs before every pending one.
struct DownloadQueue<Element> {
    /// An entry's rank; higher starts first.
    enum Priority: Int, CaseIterable {
        case low = 0, normal, high

        init(_ options: WebImageDownloaderOptions) {
            self = options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
        }
    }

    var order: ImageDownloader.ExecutionOrder
    private var lanes: [[Element]] = Array(repeating: [], count: Priority.allCases.count)

    init(order: ImageDownloader.ExecutionOrder) {
        self.order = order
    }

    var count: Int { lanes.reduce(0) { $0 + $1.count } }
    var isEmpty: Bool { lanes.allSatisfy(\.isEmpty) }

    mutating func enqueue(_ element: Element, priority: Priority) {
        lanes[priority.rawValue].append(element)
    }

    /// Removes and returns the entry that starts next, or nil when none is pending.
    mutating func dequeue() -> Element? {
        for rank in Priority.allCases.reversed() where !lanes[rank.rawValue].isEmpty {
            return order == .fifo ? lanes[rank.rawValue].removeFirst() : lanes[rank.rawValue].removeLast()
        }
        return nil
    }

    /// Removes every pending entry and returns them.
    mutating func removeAll() -> [Element] {
        defer { lanes = Array(repeating: [], count: Priority.allCases.count) }
        return lanes.flatMap { $0 }
    }
}
