extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, line breaks), by scanning the Unicode
    /// scalars from both ends — Foundation's `trimmingCharacters(in:)` bridges through NSString, which a
    /// 5,000-event calendar's every name and line paid for.
    var trimmedText: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
