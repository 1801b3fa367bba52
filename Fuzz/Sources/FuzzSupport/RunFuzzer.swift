import CLibFuzzer
import Foundation

/// Runs libFuzzer on `test` with the process's arguments (its flags and corpus folders) and exits with its status.
///
/// Each target is an ordinary executable calling this from its `main`: SwiftPM links an executable's entry point
/// under its own name, so libFuzzer's `main` cannot be the process's.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
