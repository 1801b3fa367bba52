import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ProgressTests {
    @Test func progressStartsUnknownThenGrowsToTheTotalBeforeTheCompletion() async throws {
        try await withLoader { server, downloader in
            let body = testImage(payload: 40_000)
            server.route("/a", TestResponse(body: body, behavior: .drip(chunkSize: 8_000, interval: .milliseconds(30))))
            let reports = Recorder<(Int, Int)>()
            let completedAfter = Recorder<Int>()
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/a")),
                                    progress: { reports.append(($0, $1)) })
            completedAfter.append(reports.count)
            let all = reports.all
            #expect(code(result) == nil)
            #expect(all.first! == (0, -1))
            #expect(all[1] == (0, body.count))
            #expect(all.last! == (body.count, body.count))
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.0 <= $1.0 })
            #expect(all.count >= 4)
            #expect(completedAfter.all == [all.count])
        }
    }

    @Test func minimumProgressIntervalThrottlesChunkReports() async throws {
        let configuration = ImageDownloader.Configuration(minimumProgressInterval: .seconds(60))
        try await withLoader(configuration) { server, downloader in
            let body = testImage(payload: 40_000)
            server.route("/a", TestResponse(body: body, behavior: .drip(chunkSize: 4_000, interval: .milliseconds(5))))
            let reports = Recorder<(Int, Int)>()
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/a")), progress: { reports.append(($0, $1)) })
            let all = reports.all
            #expect(all.count == 3)
            #expect(all.map(\.0) == [0, 0, body.count])
        }
    }

    @Test func unknownLengthStaysMinusOneUntilTheEnd() async throws {
        try await withLoader { server, downloader in
            let body = testImage(payload: 10_000)
            server.route("/chunked", TestResponse(body: body, chunked: true))
            let reports = Recorder<(Int, Int)>()
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/chunked")), progress: { reports.append(($0, $1)) })
            let all = reports.all
            #expect(all.first! == (0, -1))
            #expect(all.dropLast().allSatisfy { $0.1 == -1 })
            #expect(all.last! == (body.count, body.count))
        }
    }
}
