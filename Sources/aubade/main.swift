// The `aubade` executable: the CLI, and `aubade run`, the daemon.
await Aubade.main(arguments: Array(CommandLine.arguments.dropFirst()))
