import Foundation
import TestSupport

// `make bench`: Reprise against the bare GStreamer floor (and mpv, VLC when installed), one table of medians.
// Usage: reprise-bench [--binary PATH] [--quick] [--output FILE]

exit(runBenchmark(Array(CommandLine.arguments.dropFirst())))
