import Foundation
import TestSupport

/// Origin answers the tests use more than once.
enum TestResponseFactory {
    static func status(_ status: Int) -> TestResponse {
        TestResponse(status: status, headers: [("Content-Type", "text/plain")], body: Data("origin error".utf8))
    }

    static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)])
    }
}
