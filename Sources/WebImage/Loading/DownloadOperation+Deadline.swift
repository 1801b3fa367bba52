import WebImageCore
import Dispatch
import Foundation

extension DownloadOperation {
    /// The total timeout of this task: the first caller's, else the downloader's; nil when there is none.
    var totalTimeout: Duration? {
        let timeout = request.totalTimeout ?? downloader.configuration.totalDownloadTimeout
        return timeout > .zero ? timeout : nil
    }

    /// Arms the total deadline as the transfer starts; it fails whatever attempt is current when it fires.
    ///
    /// The idle timeout (`downloadTimeout`) lives in the transport and restarts with every byte; this one
    /// does not, so a server dripping bytes is cut off too. The timer holds the operation weakly and is
    /// cancelled when the task ends (``cancelDeadline()``).
    func armDeadline() {
        guard let timeout = totalTimeout else { return }
        state.withLock { state in
            guard state.machine.isRunning, !state.transferEnded, state.deadline == nil else { return }
            state.deadline = DeadlineScheduler.shared.schedule(after: timeout) { [weak self] in
                self?.deadlinePassed(timeout)
            }
        }
    }

    /// Stops the deadline timer (the task finished, failed or was cancelled).
    func cancelDeadline() {
        guard let token = state.withLock({ state in defer { state.deadline = nil }; return state.deadline }) else { return }
        DeadlineScheduler.shared.cancel(token)
    }

    private func deadlinePassed(_ timeout: Duration) {
        let attempt = state.withLock { $0.attempt }
        let message = "not complete within the total download timeout of \(Self.seconds(timeout)) s"
        fail(.transport(TransportFailure(kind: .timeout, message: message)), attempt: attempt)
    }

    /// `5`, `0.25`: seconds without a trailing `.0`.
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
