import AubadeTesting
import Foundation
import GRDB
import Testing

/// Runs the built `aubade` binary against a database in a fresh folder, as a user would.
struct CLIHarness {
    let dir: TemporaryDirectory
    let binary: String
    var db: String { dir.file("aubade.sqlite") }
    /// The runtime folder of this harness's daemons and CLI (`AUBADE_RUNTIME_DIR`): they find each other there,
    /// and never the user's clock, which never sees them.
    var runtime: String { dir.file("run") }
    /// What every program the harness starts runs with: no config file (AUBADE_CONFIG cleared), its runtime folder.
    var environment: [String: String] { ["AUBADE_CONFIG": "", "AUBADE_RUNTIME_DIR": runtime] }

    init() throws {
        dir = try TemporaryDirectory("cli")
        guard let binary = ProcessRunner.builtExecutable("aubade") else {
            throw HarnessError("The aubade binary is not built beside the tests; run 'swift build' first.")
        }
        self.binary = binary
    }

    /// Runs `aubade <args> --db <db>` with the harness's `environment`.
    @discardableResult
    func run(_ args: [String], withDB: Bool = true) async throws -> ProcessResult {
        try await ProcessRunner.run(
            binary, args + (withDB ? ["--db", db] : []), environment: environment,
            currentDirectory: dir.path)
    }

    /// Every row of every table, as text: what "the database did not change" compares.
    func dump() throws -> [String] {
        let q = try DatabaseQueue(path: db)
        defer { try? q.close() }
        return try q.read { db in
            var out: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") { out.append("\(table): \(row)") }
            }
            return out
        }
    }

    func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let dict = object as? [String: Any] else { throw HarnessError("not a JSON object: \(text)") }
        return dict
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

extension ProcessResult {
    /// The one line an error prints on stderr, without the "aubade: " prefix.
    var errorSentence: String? {
        let lines = stderr.split(separator: "\n")
        guard lines.count == 1, lines[0].hasPrefix("aubade: ") else { return nil }
        return String(lines[0].dropFirst("aubade: ".count))
    }
}
