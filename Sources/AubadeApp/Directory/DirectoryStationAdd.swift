public import AubadeCore
import Foundation

/// Saving a station found in the public directory — `aubade station add --from-directory` and
/// `POST /stations/from-directory` alike: the station as the directory knows it now (looked up by its id),
/// refused when this clock cannot play it or has it already, its logo fetched and kept beside the database (a
/// logo that cannot be had is a warning, not a failure). `prepare` gives the fields the edit saves; when that save
/// fails, `discard` removes the logo this add brought, so nothing is left behind.
///
/// Both calls block (the directory, the logo's download, its file written with fsync): run them on a thread of
/// their own — the CLI's main thread, or `runBlocking` in the running clock.
public struct DirectoryStationAdd: Sendable {
    public let directory: any StationDirectory
    public let logos: any StationLogoStore

    public init(directory: any StationDirectory, logos: any StationLogoStore) {
        self.directory = directory
        self.logos = logos
    }

    /// What `prepare` found: the fields to save, the logo file this add created (nil when none, or when it was
    /// there already), and why the station comes without its logo, if it does.
    public struct Prepared: Sendable {
        public var fields: StationFields
        public var newLogo: String?
        public var warning: String?
    }

    /// The station with directory id `text`, named `name` (default: its name in the directory, cut to fit),
    /// with `alternate`. `saved`: the stations saved now (one of the directory's twice is refused before anything
    /// is fetched). Refusals: a malformed id (`invalid`), an id the directory does not know or a station this clock
    /// cannot play (`unprocessable`), one saved already (`conflict`), a directory that does not answer (`upstream`).
    public func prepare(id text: String, name: String?, alternate: String?, saved: [Station]) throws(ClockError) -> Prepared {
        let id: String
        do { id = try DirectoryQuery.stationID(text) } catch { throw ClockError(error) }
        if let twin = saved.first(where: { $0.directory?.id == id }) {
            throw ClockError(.conflict, "This station of the directory is already saved, as '\(twin.name)'.")
        }
        let found: DirectoryStation
        do {
            guard let station = try directory.stations(ids: [id]).first(where: { $0.uuid == id }) else {
                throw ClockError(
                    .unprocessable,
                    "The station directory has no station with id \(id); search again with: aubade station search.")
            }
            found = station
        } catch let error as DirectoryError {
            throw ClockError(.upstream, error.message)
        } catch let error as ClockError {
            throw error
        } catch {
            throw ClockError(.upstream, "\(error)")
        }
        if let why = found.playability.note {
            throw ClockError(
                .unprocessable,
                "\(OutsideText.clean(found.name, limit: 80)) cannot be saved: this clock \(why); pick another station."
            )
        }
        // Checked before anything is written: a link the store would refuse leaves no logo behind.
        var link: DirectoryLink
        do { link = try found.link() } catch { throw ClockError(error) }
        var prepared = Prepared(
            fields: StationFields(
                name: name ?? DirectoryStationAdd.name(found.name), url: found.url,
                alternate: alternate))
        if !found.favicon.isEmpty {
            do throws(DirectoryError) {
                let bytes = try directory.logo(at: found.favicon, maxBytes: logos.maxBytes)
                let existed = DirectoryLink.logoExtension(of: bytes).map { logos.read("\(id).\($0)") != nil } ?? false
                do throws(StoreError) {
                    link.logo = try logos.save(bytes, id: id)
                    if !existed { prepared.newLogo = link.logo }
                } catch {
                    prepared.warning = "Saved without its logo: \(error.description)"
                }
            } catch {
                prepared.warning = "Saved without its logo: \(error.message)"
            }
        }
        prepared.fields.directory = link
        return prepared
    }

    /// The station was not saved: nor is the logo it brought.
    public func discard(_ prepared: Prepared) {
        if let logo = prepared.newLogo { logos.remove(logo) }
    }

    /// The directory's name as a station name: plain (`OutsideText`), at most 64 characters (Unicode scalars, as a
    /// name counts them), cut at a word where it can be.
    public static func name(_ text: String) -> String {
        let plain = OutsideText.clean(text, limit: Names.maxLength + 1)
        guard plain.unicodeScalars.count > Names.maxLength else { return plain }
        let cut = Names.cut(plain, to: Names.maxLength)
        guard let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > 32 else { return cut }
        return String(cut[..<space])
    }
}
