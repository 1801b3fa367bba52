import Foundation
import Spawning

extension ImageProxyConfiguration {
    /// How PDF pages are drawn when ``Processing/rendersPDF`` is on: in a child process per page, which the
    /// service kills at the processing deadline and whose memory and CPU the kernel bounds. poppler draws a page
    /// with no way to stop it or bound its memory (pdf.js's 3.9 KB `function_based_shading.pdf` takes minutes
    /// and gigabytes), so it never draws in the service's own process.
    public struct PDFRendering: Sendable {
        /// The executable started for each page; started with ``arguments``, it must call ``PDFPageChild/run()``.
        /// Default ``runningExecutable`` (`webimage` answers `pdf-page`).
        public var executable: URL
        /// The arguments that make ``executable`` a PDF child. Default `["pdf-page"]`.
        public var arguments: [String]
        /// The memory the child may allocate besides the document and the page's raster (`RLIMIT_DATA`: the
        /// runtime, poppler, fonts and cairo's work surfaces, each transparency group a raster of its own).
        /// Default 256 MiB.
        public var memoryAllowance: Int
        /// The child's CPU time limit, in seconds (`RLIMIT_CPU`); the processing timeout still kills it sooner.
        /// Default 30 s.
        public var cpuSeconds: Int

        /// The running executable: on Linux `/proc/self/exe`, the same build even when its file has been
        /// replaced since; elsewhere the main bundle's executable.
        public static var runningExecutable: URL { SpawnedChild.runningExecutable }

        public init(executable: URL = runningExecutable, arguments: [String] = ["pdf-page"],
                    memoryAllowance: Int = 256 << 20, cpuSeconds: Int = 30) {
            self.executable = executable
            self.arguments = arguments
            self.memoryAllowance = memoryAllowance
            self.cpuSeconds = cpuSeconds
        }
    }
}
