import AWSSigV4
import Foundation
import WebImageServer

/// The S3 options as given, joined by ``ServeSettings/finish()`` into ``ImageProxyConfiguration/Sources/s3`` and
/// ``ImageProxyConfiguration/Caches/resultStore``: the store's settings serve both.
struct S3Settings: Sendable {
    /// `--use-s3` (imgproxy's `IMGPROXY_USE_S3`). Default off.
    var enabled = false
    /// `--s3-endpoint`; nil: AWS's.
    var endpoint: URL?
    /// `--s3-region` (`AWS_REGION`, `IMGPROXY_S3_REGION`). Default us-east-1.
    var region = "us-east-1"
    /// `--no-s3-path-style` turns it off (`IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE`). Default on.
    var usesPathStyle = true
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` (or their flags).
    var accessKeyID: String?
    var secretAccessKey: String?
    var sessionToken: String?
    /// `--result-store s3://BUCKET/PREFIX` and the `--result-store-*` settings; on when it names a bucket.
    var resultStore = ResultStoreConfiguration(bucket: "")

    /// The store's configuration when S3 sources are on; a key is required then.
    func store() throws -> ImageProxyConfiguration.S3? {
        guard enabled else { return nil }
        return try connection(for: "--use-s3")
    }

    /// The result store when one is named, in the S3 sources' store (`sources`) when they are on, else in the
    /// store these settings describe; a key is required.
    func resultStore(sources: ImageProxyConfiguration.S3?) throws -> ResultStoreConfiguration? {
        guard !resultStore.bucket.isEmpty else { return nil }
        var configuration = resultStore
        configuration.store = sources == nil ? try connection(for: "--result-store") : nil
        return configuration
    }

    private func connection(for subject: String) throws -> ImageProxyConfiguration.S3 {
        guard let accessKeyID, let secretAccessKey else {
            throw CLIFailure(subject: subject, reason: "give the store's key: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        return ImageProxyConfiguration.S3(endpoint: endpoint, region: region,
                                          credentials: .init(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey,
                                                             sessionToken: sessionToken),
                                          usesPathStyle: usesPathStyle)
    }

    /// `s3://BUCKET/PREFIX` as bucket and prefix (without its outer slashes; empty for the bucket's top level).
    static func resultStoreLocation(_ given: ServeOption.Given) throws -> (bucket: String, prefix: String) {
        guard let url = URL(string: given.text), url.scheme?.lowercased() == "s3", let bucket = url.host, !bucket.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.port == nil else {
            throw given.failure("give s3://BUCKET/PREFIX")
        }
        let prefix = url.path.split(separator: "/").joined(separator: "/")
        return (bucket, prefix)
    }
}
