import ArgumentParser
import Foundation
import WebImageServer

/// `webimage pdf-page`: the child `webimage serve` draws each PDF page in (``PDFPageChild``); not for people.
struct PDFPageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf-page", abstract: "Draw one PDF page for webimage serve (internal).", shouldDisplay: false)

    func run() throws {
        throw ExitCode(PDFPageChild.run())
    }
}
