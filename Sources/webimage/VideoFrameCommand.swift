import ArgumentParser
import Foundation
import WebImageVideo

/// `webimage video-frame`: the child `webimage serve` probes and decodes each video in (``VideoFrameChild``); not
/// for people.
struct VideoFrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video-frame", abstract: "Read one video frame for webimage serve (internal).", shouldDisplay: false)

    func run() throws {
        throw ExitCode(VideoFrameChild.run())
    }
}
