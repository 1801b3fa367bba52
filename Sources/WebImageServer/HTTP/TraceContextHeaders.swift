import HTTPTypes
import Instrumentation
import WebImage

/// Reads trace context (W3C `traceparent`, `tracestate`, or whatever the bootstrapped instrument uses) from a
/// request's header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}

/// Writes trace context into a source request's headers, before any transport signs it.
struct TransportRequestInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout TransportRequest) {
        request.setValue(value, forHeader: key)
    }
}
