import Glibc

// aubade-waker: the second waker (R35). See `Waker` and WakerOptions.usage.

/// One sentence on stderr (start-up only), then the exit code: 2 for bad input, 1 for a fault.
func fail(_ sentence: String, code: Int32) -> Never {
    let line = "aubade-waker: \(sentence)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

let options: WakerOptions
do throws(WakerOptions.Bad) {
    options = try WakerOptions.parse(CommandLine.arguments)
} catch {
    fail(error.sentence, code: 2)
}
if options.check { exit(WakerCheck.run(options)) }
if options.outputsOff { exit(WakerOutputsOff.run(options)) }
let waker: Waker
do throws(Waker.StartFailure) {
    waker = try Waker(options)
} catch {
    fail(error.sentence, code: 1)
}
exit(waker.run())
