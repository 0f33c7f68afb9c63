import Glibc
import LoopKit
import PosixFiles
import RepriseClient
import RepriseCore

prepareProcess() // a clean signal mask, one malloc arena

// Arguments as their bytes, a file named "-…" as media (see ProcessArguments).
let arguments = ProcessArguments.current()
// The verbs bound to keys skip the argument parser's start-up (QuickVerbs); everything else goes through it.
if let status = QuickVerbs.run(arguments) { exit(status) }
// Media words go round the parser, whose time grows with the square of their number (see MediaWords).
let verbs = Set(RepriseCommand.configuration.subcommands.map { $0._commandName })
RepriseCommand.main(MediaWords.takeOut(of: arguments, verbs: verbs))
