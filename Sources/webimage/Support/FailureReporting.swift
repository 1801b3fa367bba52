import ArgumentParser

/// Runs a subcommand's work, turning any error into one stderr line and exit status 1.
///
/// ArgumentParser would print its own "Error:" text (and sometimes usage) for a thrown error; decoding and
/// file errors must stay one line that names the file, so they end here instead.
func reportingFailures(subject: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        Console.error(CLIFailure(subject: subject, error: error).description)
        throw ExitCode.failure
    }
}
