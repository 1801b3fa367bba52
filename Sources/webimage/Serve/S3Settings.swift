import AWSSigV4
import Foundation
import WebImageServer

/// The S3 options as given, joined by ``ServeSettings/finish()`` into ``ImageProxyConfiguration/Sources/s3``.
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

    /// The store's configuration when S3 sources are on; a key is required then.
    func store() throws -> ImageProxyConfiguration.S3? {
        guard enabled else { return nil }
        guard let accessKeyID, let secretAccessKey else {
            throw CLIFailure(subject: "--use-s3", reason: "give the store's key: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        return ImageProxyConfiguration.S3(endpoint: endpoint, region: region,
                                          credentials: .init(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey,
                                                             sessionToken: sessionToken),
                                          usesPathStyle: usesPathStyle)
    }
}
