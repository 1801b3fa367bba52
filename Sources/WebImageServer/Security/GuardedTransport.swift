import Foundation
import Synchronization
import WebImage

/// The image service's transport: every hop of every source is checked against the ``SourcePolicy`` and
/// connected to the address that was checked (``PinnedTarget``); redirects are followed here, never by the
/// HTTP client, at most `maxRedirects` of them, each judged like the source itself.
///
/// A refused hop completes with ``SourceRefusal`` (403 to the client) before any connection to it is made.
final class GuardedTransport: ImageTransport {
    let policy: SourcePolicy
    let resolver: any HostResolving
    let maxRedirects: Int
    let idleTimeout: Duration
    /// PEM files of certificate authorities https hops trust besides the system's.
    let trustRootFiles: [String]
    /// Plain-http hops, addressed by IP: one client, so connections to a source are reused.
    private let plain: HTTPClientTransport

    init(policy: SourcePolicy, resolver: any HostResolving = SystemHostResolver(), maxRedirects: Int,
         idleTimeout: Duration, trustRootFiles: [String] = []) {
        self.policy = policy
        self.trustRootFiles = trustRootFiles
        self.resolver = resolver
        self.maxRedirects = maxRedirects
        self.idleTimeout = idleTimeout
        plain = HTTPClientTransport(timeout: idleTimeout, redirectLimit: 0, maxDecompressionRatio: 0)
    }

    func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        let task = GuardedTask()
        let work = Task { await self.follow(request, handler: handler, task: task) }
        task.set(work)
        return task
    }

    func shutdown() async throws {
        try await plain.shutdown()
    }

    /// Hop after hop until a non-redirect answer, a refusal, a failure or cancellation.
    private func follow(_ request: TransportRequest, handler: any TransportResponseHandler, task: GuardedTask) async {
        var url = request.url
        for hop in 0... {
            if hop > 0, let error = URLValidation.redirectTargetError(url) {
                if !task.isCancelled { handler.didComplete(error: error) }
                return
            }
            let target: PinnedTarget
            do {
                target = try await PinnedTarget.check(url, policy: policy, resolver: resolver)
            } catch {
                if !task.isCancelled { handler.didComplete(error: SourceRefusal.wrap(error)) }
                return
            }
            guard !task.isCancelled else { return }
            switch await transfer(request, to: target, handler: handler, task: task) {
            case .finished:
                return
            case .redirect(let next):
                guard hop < maxRedirects else {
                    handler.didComplete(error: .transport(TransportFailure(
                        kind: .tooManyRedirects, message: "more than \(maxRedirects) redirects")))
                    return
                }
                url = next
            }
        }
    }

    /// One hop to the pinned address: forwards the response, or reports where it redirects.
    private func transfer(_ request: TransportRequest, to target: PinnedTarget, handler: any TransportResponseHandler,
                          task: GuardedTask) async -> HopEnd {
        var hop = request
        let transport: HTTPClientTransport
        if target.isHTTPS {
            transport = HTTPClientTransport(timeout: idleTimeout, redirectLimit: 0, maxDecompressionRatio: 0,
                                            dnsOverride: [target.host: target.address.description],
                                            additionalTrustRootFiles: trustRootFiles)
            hop.url = target.url
        } else {
            transport = plain
            guard let addressed = target.addressURL else {
                handler.didComplete(error: .invalidURL(target.url.absoluteString))
                return .finished
            }
            hop.url = addressed
            hop.setValue(target.hostHeader, forHeader: "Host")
        }
        let end = await withCheckedContinuation { (continuation: CheckedContinuation<HopEnd, Never>) in
            let interceptor = RedirectInterceptor(url: target.url, handler: handler) { continuation.resume(returning: $0) }
            task.run(transport.start(hop, handler: interceptor))
        }
        if transport !== plain { try? await transport.shutdown() }
        return end
    }
}

/// The downloader's handle on a guarded fetch: cancels the hop under way and stops further hops.
final class GuardedTask: TransportTask, Sendable {
    private struct State {
        var cancelled = false
        var work: Task<Void, Never>?
        var hop: (any TransportTask)?
    }

    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func set(_ work: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.work = work
            return state.cancelled
        }
        if cancelled { work.cancel() }
    }

    /// Records the hop under way, cancelling it at once if the fetch was cancelled meanwhile.
    func run(_ hop: any TransportTask) {
        let cancelled = state.withLock { state in
            state.hop = hop
            return state.cancelled
        }
        if cancelled { hop.cancel() }
    }

    func cancel() {
        let (work, hop) = state.withLock { state in
            state.cancelled = true
            return (state.work, state.hop)
        }
        work?.cancel()
        hop?.cancel()
    }
}
