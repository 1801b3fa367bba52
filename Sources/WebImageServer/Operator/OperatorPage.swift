import Foundation

/// The operator page on the metrics listener: live counters, charts of the last minutes, the slowest recent
/// requests with their stage times, and a URL builder. ``ImageProxyServer`` serves it beside `/metrics`
/// (`GET /` the page, `GET /operator/stats` its JSON snapshot, `POST /operator/sign` the builder) when it is
/// given one. Plain HTML, CSS and script from the binary: the page loads nothing from elsewhere but the
/// service's own images.
///
/// Keep that listener private: the page shows source URLs, and with ``signsURLs`` it signs any URL with the
/// service's key.
public struct OperatorPage: Sendable {
    /// Where the page's links and previews reach the image service, as its users do (e.g.
    /// `https://images.example.com`); nil: the image listener's own address (when it listens on every
    /// interface, its port on the host the page was reached by). Default nil.
    public var publicBaseURL: URL?
    /// Whether the URL builder signs with the service's first key pair. Default false: the builder then only
    /// makes unsigned (`/unsafe/…`) URLs, and only when the service accepts them.
    public var signsURLs: Bool
    /// Time between two samples of the charts' history. Default 1 s.
    public var sampleInterval: Duration
    /// Samples kept for the charts. Default 600 (ten minutes at 1 s).
    public var historyLength: Int

    public init(publicBaseURL: URL? = nil, signsURLs: Bool = false, sampleInterval: Duration = .seconds(1),
                historyLength: Int = 600) {
        self.publicBaseURL = publicBaseURL
        self.signsURLs = signsURLs
        self.sampleInterval = sampleInterval
        self.historyLength = historyLength
    }
}
