/// Where to play: the ALSA device names and whether to pace alsa-lib's unpaced plugins (`null`, `file`) to
/// real time like a card.
public struct SinkOptions: Sendable, Hashable {
    public var device: String
    public var alternate: String?
    public var paced: Bool

    public init(device: String, alternate: String? = nil, paced: Bool = true) {
        self.device = device
        self.alternate = (alternate?.isEmpty ?? true) ? nil : alternate
        self.paced = paced
    }
}
