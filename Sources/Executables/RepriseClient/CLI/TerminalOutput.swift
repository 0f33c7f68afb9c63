import LoopKit
import RepriseCore

// Everything the CLI writes goes through here: lines are built from tags, file names, device names and other
// players' data, and reach the terminal only through ``TerminalText/sanitized(_:keepingTabs:)``.

/// One line to standard output (tabs kept: Reprise lays them out).
func printLine(_ line: String) { print(TerminalText.sanitized(line, keepingTabs: true)) }

/// One line to standard error.
func printError(_ line: String) { writeToStandardError(TerminalText.sanitized(line, keepingTabs: true)) }
