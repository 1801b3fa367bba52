import AWSSigV4
import Foundation

extension ImageProxyConfiguration {
    /// imgproxy's S3 sources (`IMGPROXY_USE_S3`): `s3://BUCKET/KEY`, or `s3://BUCKET/KEY?VERSION` for one version
    /// of the object, read from AWS S3 or any store that speaks its API (MinIO, Ceph RGW, R2), signed with
    /// Signature Version 4. The store is the operator's: the source-address policy, which guards http(s)
    /// sources, does not apply to it; the byte limit and the deadlines do.
    public struct S3: Sendable {
        /// The store (imgproxy's `IMGPROXY_S3_ENDPOINT`); nil: AWS's `https://s3.REGION.amazonaws.com`.
        public var endpoint: URL?
        /// Default `us-east-1` (imgproxy's `IMGPROXY_S3_REGION`, AWS's `AWS_REGION`).
        public var region: String
        public var credentials: SigV4Signer.Credentials
        /// `ENDPOINT/BUCKET/KEY` rather than `BUCKET.ENDPOINT/KEY` (imgproxy's
        /// `IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE`). Default true.
        public var usesPathStyle: Bool

        public init(endpoint: URL? = nil, region: String = "us-east-1", credentials: SigV4Signer.Credentials,
                    usesPathStyle: Bool = true) {
            self.endpoint = endpoint
            self.region = region
            self.credentials = credentials
            self.usesPathStyle = usesPathStyle
        }

        /// The http(s) URL of `key` in `bucket`, and its path as signed (the same bytes on the wire).
        func location(bucket: String, key: String) -> (url: URL, host: String, path: String)? {
            let base = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
                  let baseHost = components.host else { return nil }
            let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            let path = prefix + (usesPathStyle ? "/\(bucket)/\(key)" : "/\(key)")
            if !usesPathStyle { components.host = "\(bucket).\(baseHost)" }
            components.percentEncodedPath = SigV4Signer.encodedPath(path)
            guard let url = components.url, let host = components.host else { return nil }
            return (url, components.port.map { "\(host):\($0)" } ?? host, path)
        }
    }
}
