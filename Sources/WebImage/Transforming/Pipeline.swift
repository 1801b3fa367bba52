extension ImageTransformers {
    /// Several transformers in order; the key is theirs joined by `-`. Nil as soon as one step gives nil.
    public struct Pipeline: ImageTransforming {
        public var transformers: [any ImageTransforming]

        public init(_ transformers: [any ImageTransforming]) {
            self.transformers = transformers
        }

        public var transformerKey: String { transformers.map(\.transformerKey).joined(separator: "-") }

        public func transform(_ image: Image, forKey key: String) -> Image? {
            var current = image
            for transformer in transformers {
                guard let next = transformer.transform(current, forKey: key) else { return nil }
                current = next
            }
            return current
        }
    }
}
