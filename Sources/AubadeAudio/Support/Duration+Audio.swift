extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { self / .seconds(1) }

    /// How many whole frames it lasts at `rate` frames per second.
    func frames(at rate: Int) -> Int { Int(inSeconds * Double(rate)) }
}
