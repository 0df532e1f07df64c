public import AubadeCore

/// The engine is the clock's sound port (`AubadeCore.SoundPort`): its calls already return at once and its
/// events come out of one stream, in order.
extension SoundEngine: SoundPort {}
