import AubadeSystem
import AubadeTesting
import Foundation
import Glibc
import Testing

/// The one durable file replace (temporary file, write, fsync, rename, folder fsync), shared by the store's
/// backup copy and calendar cache and by the handoff files.
@Suite("Durable file replace")
struct DurableWriteTests {
    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func replace(_ path: String, _ text: String, temp: String? = nil) throws {
        try Array(text.utf8).withUnsafeBytes { try DurableWrite.replace(path, with: $0, temp: temp) }
    }

    @Test func replacesWholeAndLeavesNoTemporaryFile() throws {
        let dir = try TemporaryDirectory("durable")
        let path = dir.file("state")
        try Self.replace(path, "first version, rather long\n")
        #expect(Self.contents(path) == "first version, rather long\n")
        try Self.replace(path, "second\n")
        #expect(Self.contents(path) == "second\n")
        try Self.replace(path, "")
        #expect(Self.contents(path) == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o600 } == 0o600)
    }

    @Test func aNamedTemporaryFileIsUsedAndGone() throws {
        let dir = try TemporaryDirectory("durable")
        try Self.replace(dir.file("copy.json"), "{}", temp: dir.file("copy.json.tmp-\(getpid())"))
        #expect(Self.contents(dir.file("copy.json")) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["copy.json"])
    }

    @Test func aMissingFolderFailsAtCreateAndLeavesTheOldFile() throws {
        let dir = try TemporaryDirectory("durable")
        #expect(throws: DurableWrite.Failure(step: .create, error: Errno(ENOENT))) {
            try Self.replace(dir.file("no-such-folder/state"), "x")
        }
        // A rename that fails (onto a folder) removes the temporary file and keeps what was there.
        try FileManager.default.createDirectory(atPath: dir.file("taken"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir.file("taken/inside"), withIntermediateDirectories: false)
        #expect(throws: DurableWrite.Failure.self) { try Self.replace(dir.file("taken"), "x") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["taken"])
    }

    @Test func aNameTooLongForATemporaryFileIsRefused() {
        let path = "/tmp/" + String(repeating: "d/", count: 2046)
        #expect(throws: DurableWrite.Failure(step: .name, error: Errno(ENAMETOOLONG))) { try Self.replace(path, "x") }
    }
}
