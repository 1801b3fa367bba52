import Dispatch

/// The task executor an ``HTTPClientTransport`` runs its requests on: one serial Dispatch queue of its own.
///
/// AsyncHTTPClient's async API resumes the requesting task for the response head and for every body part.
/// On the global cooperative pool (two threads on a two-core machine) those resumptions queue behind
/// whatever else the process runs there — long decodes, blocking callers — so a download could stall, or
/// not even reach the server, for as long as the pool stays busy. The per-part work is short (append the
/// bytes, report progress), so one serial queue is enough and keeps the network path independent of the
/// pool; decoding and completions already run on the downloader's delivery queue.
final class TransportExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
