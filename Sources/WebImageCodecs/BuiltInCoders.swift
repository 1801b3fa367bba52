import WebImageCore

/// The coders `import WebImage` registers in `CodersManager.shared`, lowest priority first.
public enum BuiltInCoders {
    public static func makeAll() -> [any ImageCoding] {
        [
<<<<<<< HEAD
<<<<<<< HEAD
<<<<<<< HEAD
            JPEGCoder(),
=======
            WebPCoder(),
>>>>>>> webp
=======
            PNGCoder(),
>>>>>>> png
=======
            GIFCoder(),
>>>>>>> gif
        ]
    }
}
