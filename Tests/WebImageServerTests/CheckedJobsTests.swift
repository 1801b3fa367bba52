import Foundation
import Testing
@testable import WebImageServer

/// The memo of checked image paths: bounded, http(s) sources only, recently used entries kept.
@Suite struct CheckedJobsTests {
    private static func job(_ source: String) -> ProxyJob {
        ProxyJob(source: URL(string: source)!, options: ProcessingOptions(), format: FormatChoice(explicit: nil, accept: nil),
                 key: source)
    }

    private static func key(_ index: Int) -> CheckedJobs.Key {
        CheckedJobs.Key(path: "/sig/w:\(index)/plain/http://a.example/x.jpg", accept: nil)
    }

    @Test func holdsAtMostTwoGenerations() {
        let jobs = CheckedJobs(capacity: 4)
        for index in 0..<100 { jobs.remember(Self.job("http://a.example/\(index).jpg"), for: Self.key(index)) }
        #expect(jobs.count <= 8)
        #expect(jobs.job(for: Self.key(99))?.key == "http://a.example/99.jpg")
        #expect(jobs.job(for: Self.key(0)) == nil)
    }

    @Test func aJobInUseSurvivesTheNextGeneration() {
        let jobs = CheckedJobs(capacity: 2)
        jobs.remember(Self.job("http://a.example/kept.jpg"), for: Self.key(0))
        for index in 1..<12 {
            jobs.remember(Self.job("https://a.example/\(index).jpg"), for: Self.key(index))
            #expect(jobs.job(for: Self.key(0))?.key == "http://a.example/kept.jpg", "after \(index)")
        }
    }

    @Test func longPathsAreNotKept() {
        let jobs = CheckedJobs(capacity: 8)
        let long = CheckedJobs.Key(path: "/sig/plain/http://a.example/" + String(repeating: "a", count: 2100), accept: nil)
        jobs.remember(Self.job("http://a.example/long.jpg"), for: long)
        #expect(jobs.job(for: long) == nil && jobs.count == 0)
    }

    @Test func onlyWebSourcesAreKept() {
        let jobs = CheckedJobs(capacity: 8)
        jobs.remember(Self.job("local:///photo.jpg"), for: Self.key(1))
        jobs.remember(Self.job("s3://bucket/photo.jpg"), for: Self.key(2))
        jobs.remember(Self.job("https://a.example/photo.jpg"), for: Self.key(3))
        #expect(jobs.job(for: Self.key(1)) == nil && jobs.job(for: Self.key(2)) == nil)
        #expect(jobs.job(for: Self.key(3)) != nil)
        #expect(jobs.count == 1)
    }
}
