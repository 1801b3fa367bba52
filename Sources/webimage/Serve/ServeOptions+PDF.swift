extension ServeOptions {
    /// PDF sources, and the child processes (`webimage pdf-page`) their pages are drawn in.
    static let pdf: [ServeOption] = [
        .toggle("pdf-sources", ["WEBIMAGE_PDF_SOURCES"],
                "Render PDF sources, each page in a child process (webimage pdf-page) killed at the processing "
                    + "timeout and held to --pdf-memory-bytes and --pdf-cpu-seconds: poppler cannot stop or bound "
                    + "a page's drawing itself. Default off: PDF sources are refused with 422.",
                field: "configuration.processing.rendersPDF", \.configuration.processing.rendersPDF),
        .number("pdf-memory-bytes", ["WEBIMAGE_PDF_MEMORY_BYTES"],
                "Bytes of data a PDF child may allocate besides the document and twice the page's raster "
                    + "(RLIMIT_DATA; more: the page is a 422).",
                field: "configuration.processing.pdfRendering.memoryAllowance",
                \.configuration.processing.pdfRendering.memoryAllowance, minimum: 16 << 20),
        .number("pdf-cpu-seconds", ["WEBIMAGE_PDF_CPU_SECONDS"],
                "Seconds of CPU a PDF child may use (RLIMIT_CPU; more: the page is a 422); the processing timeout "
                    + "kills it sooner.",
                field: "configuration.processing.pdfRendering.cpuSeconds",
                \.configuration.processing.pdfRendering.cpuSeconds, maximum: 86_400),
    ]
}
