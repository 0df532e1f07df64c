import AubadeSystem
import Foundation

/// The store's files replaced so that a crash or a power cut leaves the old contents or the new, never part of
/// either — the schedule's backup copy and the calendars' cached copies — through AubadeSystem's `DurableWrite`
/// (a temporary file beside the target, written, fsync'd, renamed over it, the folder fsync'd), the one the
/// handoff files use too. Blocking calls: callers run them where the store's other file I/O runs, never on the
/// cooperative pool.
enum DurableFile {
    enum Failure: Error {
        /// The temporary file could not be created.
        case cannotCreate(temp: String, reason: String)
        /// Writing, syncing or renaming it failed (the temporary file is removed).
        case cannotWrite(reason: String)
    }

    /// Writes `data` to `temp`, fsyncs it, renames it over `path` and fsyncs the folder.
    static func replace(_ path: String, with data: Data, temp: String) throws(Failure) {
        var failure: DurableWrite.Failure?
        data.withUnsafeBytes { bytes in
            do throws(DurableWrite.Failure) { try DurableWrite.replace(path, with: bytes, temp: temp) } catch { failure = error }
        }
        guard let failure else { return }
        switch failure.step {
        case .name, .create: throw .cannotCreate(temp: temp, reason: failure.description)
        case .write: throw .cannotWrite(reason: failure.description)
        }
    }

    /// fsyncs `folder` ("" for the current one), so that a rename in it survives a power cut.
    static func syncFolder(_ folder: String) {
        DurableWrite.syncFolder(folder)
    }
}
