/// What a load's pipeline (cache query, download, transform, store) reports to: one caller's
/// ``ImageCombinedOperation``, or a ``LoadFlight`` that passes everything on to the operations of every load
/// sharing the work.
protocol LoadReceiving: Sendable {
    /// Whether the work is still wanted: false once it finished or was cancelled.
    var isRunning: Bool { get }
    func attach(cache token: CacheToken)
    func attach(loader token: any ImageLoadingToken)
    /// A non-final outcome (partial image, cached image before revalidation).
    func deliverIntermediate(_ outcome: ImageLoadOutcome)
    /// The final outcome, once.
    func finish(_ outcome: ImageLoadOutcome)
    /// Ends without a delivery (a 304 after the cached image was delivered).
    func finishSilently()
    func reportProgress(received: Int, expected: Int)
    /// Stops the work and delivers `cancelled`.
    func cancel()
}

extension ImageCombinedOperation: LoadReceiving {}
