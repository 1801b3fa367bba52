// The log handlers `webimage serve` writes with were declared here before they moved to their own target (the
// command-line support needs them without the service): an app importing WebImageServer keeps them.
@_exported import WebImageLogging
