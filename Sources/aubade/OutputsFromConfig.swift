import AubadeConfig
import AubadeCore
import AubadeHardware

extension Configuration.Outputs {
    /// The configured output lines, in `OutputName` order; an output set to "" is left out.
    func requests() -> [GPIOOutputRequest] {
        OutputName.allCases.compactMap { name in
            let o = self[name]
            guard let address = GPIOLineAddress(config: o.line) else { return nil }
            return GPIOOutputRequest(output: name, address: address, activeLow: o.activeLow, pattern: o.pattern)
        }
    }
}
