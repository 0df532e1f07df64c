// The `aubade` executable: the CLI, and `aubade run`, the daemon.
Aubade.main(arguments: Array(CommandLine.arguments.dropFirst()))
