import ArgumentParser

/// `webimage-demo serve`: the image service offline, asked a few signed requests by itself (``ServeDemo``).
struct ServeDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the image service offline against built-in sample images, show a few requests, and exit.",
        discussion: """
            Starts the service on a free loopback port with a generated key and salt, in front of an in-process \
            origin of sample images, makes a few signed requests against itself, prints each URL with what came \
            back, and exits 1 naming any answer that was not the expected one.
            """)

    func run() async throws {
        try await ServeDemo.run()
    }
}
