import CLibFuzzer
import Foundation

/// Runs libFuzzer on `test` with the process's arguments (its flags and corpus folders) and exits with its status.
///
/// Each target is an ordinary executable calling this from its `main`: SwiftPM makes an executable's entry point
/// the process's `main`, so libFuzzer's cannot be. The test function is still exported as
/// `LLVMFuzzerTestOneInput`, which the libFuzzer archive `-sanitize=fuzzer` links refers to.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
