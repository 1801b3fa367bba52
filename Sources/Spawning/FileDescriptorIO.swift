#if canImport(Glibc)
import Glibc
private let systemRead: @Sendable (Int32, UnsafeMutableRawPointer?, Int) -> Int = Glibc.read
private let systemWrite: @Sendable (Int32, UnsafeRawPointer?, Int) -> Int = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemRead: @Sendable (Int32, UnsafeMutableRawPointer?, Int) -> Int = Darwin.read
private let systemWrite: @Sendable (Int32, UnsafeRawPointer?, Int) -> Int = Darwin.write
#endif
import Foundation

/// Reads and writes on descriptors, retried when a signal interrupts them: partial ones on the service's
/// non-blocking ends of a child's pipes, whole ones on the child's blocking standard input and output.
package enum FileDescriptorIO {
    /// What one call did.
    package enum Transfer: Equatable {
        case moved(Int)
        /// Nothing now (EAGAIN): poll again.
        case wouldBlock
        /// The end of the input, or the reader went away (EPIPE; SIGPIPE is ignored where this is used).
        case closed
        case failed(Int32)
    }

    package static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        transfer { systemRead(descriptor, buffer.baseAddress, buffer.count) }
    }

    package static func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        transfer { systemWrite(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// Exactly `count` bytes from a blocking descriptor; nil at an error or when the input ends first.
    package static func read(_ descriptor: Int32, count: Int) -> Data? {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                guard case .moved(let got) = readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                else { return false }
                done += got
            }
            return true
        }
        return complete ? data : nil
    }

    /// All of `bytes` to a blocking descriptor; false at an error.
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            guard case .moved(let put) = writeSome(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...])) else {
                return false
            }
            done += put
        }
        return true
    }

    package static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write(descriptor, $0) }
    }

    /// Makes `descriptor` non-blocking.
    package static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    private static func transfer(_ call: () -> Int) -> Transfer {
        while true {
            let count = call()
            if count > 0 { return .moved(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EPIPE: return .closed
            case let code: return .failed(code)
            }
        }
    }
}
