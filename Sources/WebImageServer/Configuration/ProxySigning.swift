extension ImageProxyConfiguration {
    /// Which URLs the service accepts.
    public struct Signing: Sendable {
        /// Key/salt pairs accepted for signatures, the first one signing (``URLSigner``). Default none: every
        /// URL is refused unless ``allowsUnsigned`` is set.
        public var keyPairs: [URLSigner.KeyPair]
        /// Bytes of the HMAC kept in a signature (imgproxy's `IMGPROXY_SIGNATURE_SIZE`). Default 32: all.
        public var signatureSize: Int
        /// Accept `_` and `unsafe` instead of a signature. Default false.
        public var allowsUnsigned: Bool
        /// When set, image and info requests must carry `Authorization: Bearer SECRET` (imgproxy's
        /// `IMGPROXY_SECRET`, for a service only a CDN or a front end may call); others answer 403. Default nil.
        public var secret: String?

        public init(keyPairs: [URLSigner.KeyPair] = [], signatureSize: Int = 32, allowsUnsigned: Bool = false,
                    secret: String? = nil) {
            self.keyPairs = keyPairs
            self.signatureSize = signatureSize
            self.allowsUnsigned = allowsUnsigned
            self.secret = secret
        }
    }
}
