import WebImageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Turns AsyncHTTPClient and SwiftNIO errors into ``WebImageError``, keeping which kind of transport failure it was.
enum TransportErrorMapping {
    static func map(_ error: any Error) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError { return map(error) }
        if let decoding = contentDecodingFailure(error) { return decoding }
        let message = String(describing: error)
        guard let kind = kind(of: error) else {
            return .transport(TransportFailure(kind: .other, message: message))
        }
        return .transport(TransportFailure(kind: kind, message: message))
    }

    private static func map(_ error: HTTPClientError) -> WebImageError {
        let kind: TransportFailure.Kind
        switch error {
        case .cancelled:
            return .cancelled
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL(nil)
        case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
             .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            kind = .timeout
        case .remoteConnectionClosed, .bodyLengthMismatch:
            kind = .connectionReset
        case .redirectLimitReached, .redirectCycleDetected:
            kind = .tooManyRedirects
        default:
            kind = .other
        }
        return .transport(TransportFailure(kind: kind, message: error.description))
    }

    /// A body whose `Content-Encoding` could not be decoded (2003), or nil for any other error.
    ///
    /// NIOHTTPCompression is not a direct dependency; its errors are recognised by type name. Its `limit` error
    /// means the body inflated past ``ImageDownloader/Configuration/maxDecompressionRatio``: a decompression
    /// bomb, refused as unusable rather than as too large (2101 counts decoded bytes against a byte limit).
    private static func contentDecodingFailure(_ error: any Error) -> WebImageError? {
        let typeName = String(reflecting: type(of: error))
        guard typeName.hasPrefix("NIOHTTPCompression.") else { return nil }
        if typeName.hasSuffix(".DecompressionError"), String(describing: error) == "limit" {
            return .invalidDownloadResponse("the gzip/deflate body inflates past the decompression ratio limit "
                                            + "(maxDecompressionRatio); refused as a decompression bomb")
        }
        return .invalidDownloadResponse("cannot decode the gzip/deflate body: \(error)")
    }

    /// The kind of a NIO-level error, or nil when it is not one we recognise.
    private static func kind(of error: any Error) -> TransportFailure.Kind? {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return kind(of: first.error) ?? .other }
            return .hostNotFound
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            return .hostNotFound
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ECONNRESET, EPIPE, ECONNABORTED: return .connectionReset
            case ETIMEDOUT: return .timeout
            case EHOSTUNREACH, ENETUNREACH: return .hostNotFound
            default: return nil
            }
        case let error as HTTPParserError:
            // The connection closed before the body it announced was complete.
            return error == .invalidEOFState || error == .closedConnection ? .connectionReset : nil
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timeout
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed: return .connectionReset
            default: return nil
            }
        default:
            // NIOSSL is not a direct dependency; its error types are recognised by name.
            let typeName = String(reflecting: type(of: error))
            return typeName.contains("NIOSSL") || typeName.contains("BoringSSL") ? .tls : nil
        }
    }
}
