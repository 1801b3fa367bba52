import Logging
import Metrics

/// Where a component logs and where its metrics are made: one value a configuration holds and passes down to
/// the parts it builds (an ``ImageCache`` to its memory and disk caches), instead of each carrying its own
/// logger and factory. Configurations compare equal whatever their instrumentation (neither `Logger` nor a
/// metrics factory is `Equatable`).
public struct Instrumentation: Sendable, Hashable {
    private var _logger: IgnoredInEquality<Logger>
    private var _metricsFactory: IgnoredInEquality<any MetricsFactory>

    /// Logs with `Logger(label: label)` and makes metrics with `metricsFactory` (default
    /// `MetricsSystem.factory` as it is now).
    public init(label: String, metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.init(logger: Logger(label: label), metricsFactory: metricsFactory)
    }

    public init(logger: Logger, metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        _logger = IgnoredInEquality(logger)
        _metricsFactory = IgnoredInEquality(metricsFactory)
    }

    public var logger: Logger {
        get { _logger.value }
        set { _logger.value = newValue }
    }

    public var metricsFactory: any MetricsFactory {
        get { _metricsFactory.value }
        set { _metricsFactory.value = newValue }
    }
}

/// A configuration carrying an ``Instrumentation``; its `logger` and `metricsFactory` are that value's.
public protocol InstrumentedConfiguration {
    var instrumentation: Instrumentation { get set }
}

extension InstrumentedConfiguration {
    /// ``Instrumentation/logger`` of ``instrumentation``. Set it after `init`; not part of `==`.
    public var logger: Logger {
        get { instrumentation.logger }
        set { instrumentation.logger = newValue }
    }

    /// ``Instrumentation/metricsFactory`` of ``instrumentation``, used once, when the component is made. Set it
    /// after `init`; not part of `==`.
    public var metricsFactory: any MetricsFactory {
        get { instrumentation.metricsFactory }
        set { instrumentation.metricsFactory = newValue }
    }
}
