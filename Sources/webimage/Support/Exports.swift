// What `webimage` shares with `webimage-demo` (failures, console, file I/O, JSON, logging, `--transform`) lives in
// `WebImageCLISupport`; re-exported so every command's file sees it as before.
@_exported import WebImageCLISupport
