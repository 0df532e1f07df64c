// The `aubade` executable: the CLI, and `aubade run`, the daemon.
import Logging

// Log lines go to standard error (journald keeps them): standard output carries only the commands' own
// output, so `--json` is JSON on every line (docs/HOUSE-RULES.md §7: only the executable bootstraps logging).
LoggingSystem.bootstrap(StreamLogHandler.standardError)
await Aubade.main(arguments: Array(CommandLine.arguments.dropFirst()))
