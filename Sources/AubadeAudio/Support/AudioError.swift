/// A failure in the audio path, as one sentence naming the library call and the library's own message.
public struct AudioError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
