import AubadeApp
import AubadeCore
import Foundation

/// Prints plain-text tables and JSON documents on stdout.
enum Output {
    static func json(_ value: some Encodable) {
        // The same bytes the HTTP API sends for the same document (DocumentJSON).
        FileHandle.standardOutput.write(DocumentJSON.data(value) + Data("\n".utf8))
    }

    /// A one-line answer: the sentence, or with `json` an object holding it as "message" plus `fields`.
    static func say(_ text: String, json: Bool, fields: [String: JSONScalar] = [:]) {
        if json {
            var object = fields
            object["message"] = .string(text)
            Output.json(object)
        } else {
            print(text)
        }
    }

    /// Left-aligned columns separated by two spaces, the header first.
    static func table(_ header: [String], _ rows: [[String]]) {
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        for row in [header] + rows {
            let line = row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            print(line)
        }
    }
}
