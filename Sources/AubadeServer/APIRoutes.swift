import AubadeApp
import AubadeCore
import Foundation
import HTTPTypes
import Hummingbird

/// Every route of the API (v1). Each one is a command or a query of the running clock (`RunningClock.handle`)
/// — none touches the store or the sound engine — so a request never delays an alarm beyond its turn on the
/// clock's thread, and every client gets the same answers and refusals.
struct APIRoutes {
    let clock: RunningClock
    let settings: ServerSettings
    static let prefix = "/api/v1"

    func register(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/status", .read) { _, _ in
            guard case .status(let status) = try await ask(.status) else { throw unexpected() }
            return JSONResponse.make(StatusDocument(status))
        }
        book.add(.get, p + "/events", .read) { _, context in
            await LiveEvents.response(clock: clock, ownMachine: context.fromOwnMachine, keepAlive: settings.keepAlive)
        }
        registerAlarms(book)
        registerStationsAndProgrammes(book)
        registerSound(book)
        registerDirectory(book)
        registerPodcasts(book)
        book.add(.get, p + "/history", .read) { request, _ in
            try await answer(.history(limit: try RequestReading.number(request, "limit", default: 100)))
        }
        book.add(.get, p + "/reports", .read) { request, _ in
            try await answer(.reports(days: try RequestReading.number(request, "days", default: 7)))
        }
        book.add(.post, p + "/pair/code", .pairCode) { _, _ in
            guard case .pairingCode(let code) = try await ask(.pairingCode) else { throw unexpected() }
            return JSONResponse.make(code, status: .created)
        }
        book.add(.post, p + "/pair", .pair) { _, context in
            let body = try context.decode(Bodies.Pair.self)
            do {
                guard case .paired(let token) = try await ask(.pair(code: body.code, name: body.name)) else { throw unexpected() }
                return JSONResponse.make(Answers.Paired(token: token.token, name: token.name, id: token.id), status: .created)
            } catch let error as APIError where error.kind == .unauthorized {
                throw PairingFailure(error: error)
            }
        }
        book.add(.get, p + "/openapi.json", .document) { _, _ in
            Response(
                status: .ok, headers: JSONResponse.headers(type: "application/json; charset=utf-8"),
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.data)))
        }
    }

    private func registerAlarms(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/alarms", .read) { _, _ in try await answer(.alarms) }
        book.add(.post, p + "/alarms", .change) { _, context in
            try await edit(.addAlarm(try context.decode(AlarmPatch.self)), status: .created)
        }
        book.add(.get, p + "/alarms/next", .read) { request, _ in
            try await answer(.nextFirings(count: try RequestReading.number(request, "count", default: 5)))
        }
        book.add(.get, p + "/alarms/:id", .read) { _, context in try await answer(.alarm(id: try context.id())) }
        book.add(.patch, p + "/alarms/:id", .change) { _, context in
            let patch = try context.decode(AlarmPatch.self)
            guard !patch.isEmpty else { throw APIError(.invalid, "Name at least one field to change.") }
            return try await edit(.editAlarm(id: try context.id(), patch))
        }
        book.add(.delete, p + "/alarms/:id", .change) { _, context in try await edit(.removeAlarm(id: try context.id())) }
        book.add(.post, p + "/alarms/:id/enable", .change) { _, context in
            try await edit(.editAlarm(id: try context.id(), AlarmPatch(enabled: true)))
        }
        book.add(.post, p + "/alarms/:id/disable", .change) { _, context in
            try await edit(.editAlarm(id: try context.id(), AlarmPatch(enabled: false)))
        }
        book.add(.post, p + "/alarms/:id/skip-next", .change) { _, context in
            let body = try context.decode(Bodies.Skip.self)
            return try await edit(.skipNext(id: try context.id(), undo: body.undo))
        }
    }

    private func registerStationsAndProgrammes(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/stations", .read) { _, _ in try await answer(.stations) }
        book.add(.post, p + "/stations", .change) { _, context in
            try await edit(.addStation(try context.decode(StationFields.self)), status: .created)
        }
        book.add(.delete, p + "/stations/:id", .change) { _, context in try await edit(.removeStation(String(try context.id()))) }
        book.add(.get, p + "/programmes", .read) { _, _ in try await answer(.programmes) }
        book.add(.post, p + "/programmes", .change) { _, context in
            try await edit(.addProgramme(try context.decode(ProgrammeFields.self)), status: .created)
        }
        book.add(.get, p + "/programmes/now", .read) { request, _ in
            try await answer(
                .programmeNow(
                    station: request.uri.queryParameters.get("station"),
                    at: try RequestReading.instant(request, "at")))
        }
        book.add(.delete, p + "/programmes/:id", .change) { _, context in try await edit(.removeProgramme(id: try context.id())) }
        book.add(.post, p + "/programmes/:id/reserve", .change) { _, context in
            let body = try context.decode(Bodies.Reserve.self)
            return try await edit(.reserveProgramme(id: try context.id(), reserved: true, remindSeconds: body.remindSeconds))
        }
        book.add(.post, p + "/programmes/import", .change) { _, context in
            let body = try context.decode(Bodies.CalendarURL.self)
            return try await imported(from: body.url, kind: .programmes, station: body.station)
        }
        book.add(.delete, p + "/programmes/:id/reserve", .change) { _, context in
            try await edit(.reserveProgramme(id: try context.id(), reserved: false))
        }
        registerDaysOff(book)
        book.add(.get, p + "/settings", .read) { _, _ in try await answer(.settings) }
        book.add(.patch, p + "/settings", .change) { _, context in
            try await edit(.setSettings(try context.decode(Bodies.Settings.self).changes))
        }
    }

    private func registerDaysOff(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/days-off", .read) { _, _ in try await answer(.daysOff) }
        book.add(.post, p + "/days-off", .change) { _, context in
            try await edit(.addDayOff(try context.decode(DayOffFields.self)), status: .created)
        }
        book.add(.delete, p + "/days-off/:id", .change) { _, context in try await edit(.removeDayOff(id: try context.id())) }
        book.add(.post, p + "/days-off/import", .change) { _, context in
            try await imported(from: try context.decode(Bodies.HolidayURL.self).url, kind: .daysOff, station: nil)
        }
        book.add(.get, p + "/calendars", .read) { _, _ in try await answer(.calendars) }
    }

    private func registerSound(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.post, p + "/player/play", .change) { _, context in
            let body = try context.decode(Bodies.Play.self)
            return try await sound(.play(source: body.source, seconds: body.seconds, volume: body.volume))
        }
        book.add(.post, p + "/player/stop", .change) { _, _ in try await done(.stopRadio) }
        book.add(.post, p + "/player/volume", .change) { _, context in
            try await done(.radioVolume(try context.decode(Bodies.Volume.self).volume))
        }
        book.add(.post, p + "/sleep", .change) { _, context in
            let body = try context.decode(Bodies.Sleep.self)
            if body.untilEnd { return try await sound(.sleepUntilEnd(programme: body.programme, source: body.source)) }
            return try await sound(.sleep(seconds: body.seconds, source: body.source))
        }
        book.add(.post, p + "/sleep/extend", .change) { _, context in
            try await done(.sleepExtend(minutes: try context.decode(Bodies.Extend.self).minutes))
        }
        book.add(.delete, p + "/sleep", .change) { _, _ in try await done(.sleepCancel) }
        book.add(.post, p + "/ring", .change) { _, context in try await sound(.ring(try context.decode(Bodies.Ring.self).test)) }
        book.add(.post, p + "/alarm/stop", .change) { _, context in
            try await done(.stop(alarm: try context.decode(Bodies.Dismiss.self).alarm, by: .api))
        }
        book.add(.post, p + "/display/wake", .change) { _, _ in
            guard case .display(let dimmed) = try await ask(.displayWake) else { throw unexpected() }
            return JSONResponse.make(Answers.Display(dimmed: dimmed))
        }
        book.add(.post, p + "/outputs/:name", .change) { _, context in
            let text = try context.text("name")
            guard let name = OutputName(rawValue: text) else {
                throw APIError(.notFound, "'\(text)' is not an output; the outputs are shaker and lamp.")
            }
            return try await done(.output(name, on: try context.decode(Bodies.Output.self).on))
        }
        book.add(.post, p + "/alarm/snooze", .change) { _, context in
            try await done(.snooze(alarm: try context.decode(Bodies.Dismiss.self).alarm, by: .api))
        }
    }

    // MARK: asking the clock

    func ask(_ command: ClockCommand) async throws(APIError) -> ClockReply {
        do throws(ClockError) {
            return try await clock.send(.command(command, follow: false)).reply
        } catch {
            throw APIError(error)
        }
    }

    func answer(_ query: ClockQuery) async throws(APIError) -> Response {
        guard case .answer(let answer) = try await ask(.query(query)) else { throw unexpected() }
        switch answer {
        case .alarms(let list): return JSONResponse.make(list)
        case .alarm(let alarm): return JSONResponse.make(alarm)
        case .next(let next): return JSONResponse.make(next)
        case .stations(let list): return JSONResponse.make(list)
        case .programmes(let list): return JSONResponse.make(list)
        case .onAir(let onAir): return JSONResponse.make(onAir)
        case .settings(let settings): return JSONResponse.make(settings)
        case .history(let list): return JSONResponse.make(list)
        case .reports(let list): return JSONResponse.make(list)
        case .daysOff(let list): return JSONResponse.make(list)
        case .calendars(let list): return JSONResponse.make(list)
        case .podcasts(let list): return JSONResponse.make(list)
        case .podcast(let podcast): return JSONResponse.make(podcast)
        }
    }

    /// An edit, answered with the document of what was saved (`{"deleted": id}` for a removal).
    func edit(_ edit: ClockEdit, status: HTTPResponse.Status = .ok) async throws(APIError) -> Response {
        guard case .edited(let result) = try await ask(.edit(edit)) else { throw unexpected() }
        let names = result.stationNames
        switch result.outcome {
        case .alarm(let alarm): return JSONResponse.make(AlarmDocument(alarm, stationNames: names), status: status)
        case .station(let station): return JSONResponse.make(StationDocument(station), status: status)
        case .programme(let programme): return JSONResponse.make(ProgramDocument(programme, stationNames: names), status: status)
        case .settings(let settings): return JSONResponse.make(SettingsDocument.make(settings), status: status)
        case .alarmRemoved(let alarm): return JSONResponse.make(Answers.Deleted(deleted: alarm.id ?? 0))
        case .stationRemoved(let station): return JSONResponse.make(Answers.Deleted(deleted: station.id ?? 0))
        case .programmeRemoved(let programme): return JSONResponse.make(Answers.Deleted(deleted: programme.id ?? 0))
        case .imported(let summary): return JSONResponse.make(ImportDocument(summary), status: status)
        case .dayOff(let day): return JSONResponse.make(DayOffDocument(day), status: status)
        case .dayOffRemoved(let day): return JSONResponse.make(Answers.Deleted(deleted: day.id ?? 0))
        case .podcast(let podcast): return JSONResponse.make(PodcastDocument(podcast), status: status)
        case .podcastRemoved(let podcast): return JSONResponse.make(Answers.Deleted(deleted: podcast.id ?? 0))
        }
    }

    /// A calendar the clock downloads and imports (`ClockInput.importCalendar`), answered with what changed.
    private func imported(from url: StreamURL, kind: CalendarImport.Kind, station: String?) async throws(APIError) -> Response {
        let reply: ClockReply
        do throws(ClockError) {
            reply = try await clock.send(.importCalendar(url: url, kind: kind, station: station)).reply
        } catch {
            throw APIError(error)
        }
        guard case .edited(let result) = reply, case .imported(let summary) = result.outcome else { throw unexpected() }
        return JSONResponse.make(ImportDocument(summary))
    }

    private func done(_ command: ClockCommand) async throws(APIError) -> Response {
        let reply = try await ask(command)
        return JSONResponse.make(Answers.Message(message: reply.message ?? "Done."))
    }

    private func sound(_ command: ClockCommand) async throws(APIError) -> Response {
        guard case .sound(let id, let label, let message) = try await ask(command) else { throw unexpected() }
        return JSONResponse.make(Answers.Sound(sound: id.value, label: label, message: message))
    }

    func unexpected() -> APIError { APIError(.failed, "The clock gave an answer this route does not expect.") }
}

/// A wrong pairing code: 401, and a failure for the rate limiter (the guard counts it).
struct PairingFailure: Error {
    let error: APIError
}
