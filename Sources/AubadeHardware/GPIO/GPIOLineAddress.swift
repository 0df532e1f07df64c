/// How a GPIO line is found: by the name the kernel gives it (as `gpiofind` resolves it, e.g. "GPIO17"),
/// or by chip (name, path, label or number, as `gpiod_chip_open_lookup` accepts) and offset.
public enum GPIOLineAddress: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case chipOffset(chip: String, offset: Int)

    /// As the config writes it: "GPIO17" or "gpiochip0:17".
    public var description: String {
        switch self {
        case .named(let name): name
        case .chipOffset(let chip, let offset): "\(chip):\(offset)"
        }
    }
}

/// The bias a line is requested with (libgpiod v1 request flags).
public enum GPIOBias: String, Hashable, Sendable, CaseIterable {
    case asIs = "as-is"
    case disable
    case pullUp = "pull-up"
    case pullDown = "pull-down"
}

/// One input line to watch: where it is, how it is wired, and a label for messages ("snooze").
public struct GPIOLineRequest: Hashable, Sendable {
    public var label: String
    public var address: GPIOLineAddress
    /// Pressed (or "active") pulls the line low: the kernel inverts the level and the edge types.
    public var activeLow: Bool
    public var bias: GPIOBias

    public init(label: String, address: GPIOLineAddress, activeLow: Bool = true, bias: GPIOBias = .pullUp) {
        self.label = label
        self.address = address
        self.activeLow = activeLow
        self.bias = bias
    }

    /// "GPIO17 (snooze)", as messages name a line.
    public var name: String { "\(address) (\(label))" }
}
