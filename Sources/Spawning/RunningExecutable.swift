import Foundation

extension SpawnedChild {
    /// The running executable, which children are started from: on Linux `/proc/self/exe`, the same build even when
    /// its file has been replaced since; elsewhere the main bundle's executable.
    package static var runningExecutable: URL {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe")
        #else
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }
}
