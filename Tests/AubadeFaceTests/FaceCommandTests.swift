import AubadeFace
import FoundationEssentials
import Testing

/// The bodies the face writes itself: a station's name from outside goes into them as a JSON string that reads back
/// as the same name, whatever it holds.
@Suite("Face: the commands' bodies")
struct FaceCommandTests {
    @Test(arguments: ["FIP", #"Radio "Nova""#, #"back\slash"#, "two\nlines\tand\u{1}", "Ö1 · Café/Bar", ""])
    func aQuotedNameReadsBackAsItself(name: String) throws {
        let literal = FaceCommand.quoted(name)
        #expect(literal.first == "\"" && literal.last == "\"")
        let body = Data("{\"source\":\(literal)}".utf8)
        let decoded = try JSONDecoder().decode([String: String].self, from: body)
        #expect(decoded["source"] == name)
    }
}
