import Foundation
import TestSupport

// `make bench`: Reprise against the bare GStreamer floor (and mpv, VLC when installed), one table of medians.
// Usage: reprise-bench --help

exit(runBenchmark(Array(CommandLine.arguments.dropFirst())))
