import Foundation
import InMemoryTracing
import Synchronization
import Tracing

/// swift-distributed-tracing's `InMemoryTracer` with W3C `traceparent` on the wire (the in-memory tracer's own
/// headers are not W3C's): bootstrapped once for the whole test process (the system takes one tracer, once), the
/// first time a tracing test asks for it. Each tracing test sends its requests with a `traceparent` of a trace id
/// of its own and reads back only that trace's spans, so tests running at the same time never see each other's.
final class W3CTestTracer: Tracer {
    let inner = InMemoryTracer(idGenerator: .init(nextTraceID: { W3CTestTracer.hex(bytes: 16) },
                                                  nextSpanID: { W3CTestTracer.hex(bytes: 8) }),
                               recordInjections: false, recordExtractions: false)
    private let injected = Mutex<[(traceID: String, spanID: String)]>([])

    static let shared: W3CTestTracer = {
        let tracer = W3CTestTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    static func hex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// A `traceparent` header of a new trace, and that trace's id.
    static func clientTraceparent() -> (header: String, traceID: String, spanID: String) {
        let traceID = hex(bytes: 16), spanID = hex(bytes: 8)
        return ("00-\(traceID)-\(spanID)-01", traceID, spanID)
    }

    /// The finished spans of one trace.
    func spans(ofTrace traceID: String) -> [FinishedInMemorySpan] {
        inner.finishedSpans.filter { $0.traceID == traceID }
    }

    /// The span ids this tracer wrote into outgoing requests for one trace.
    func injectedSpans(ofTrace traceID: String) -> [String] {
        injected.withLock { $0.filter { $0.traceID == traceID }.map(\.spanID) }
    }

    func startSpan<Instant: TracerInstant>(_ operationName: String, context: @autoclosure () -> InstrumentationContext,
                                           ofKind kind: SpanKind, at instant: @autoclosure () -> Instant,
                                           function: String, file fileID: String, line: UInt) -> InMemorySpan {
        inner.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function,
                        file: fileID, line: line)
    }

    func forceFlush() { inner.forceFlush() }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext,
                                              using extractor: Extract) where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier) else { return }
        let parts = header.split(separator: "-")
        guard parts.count == 4, parts[1].count == 32, parts[2].count == 16 else { return }
        context.inMemorySpanContext = InMemorySpanContext(traceID: String(parts[1]), spanID: String(parts[2]),
                                                          parentSpanID: nil)
    }

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier,
                                           using injector: Inject) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injected.withLock { $0.append((span.traceID, span.spanID)) }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }
}
