extension FaceScene {
    /// The clock's face: warnings and "Reconnecting…" on top, the time and the date, the next alarm and what plays,
    /// then the controls (none on the night face); or, when open, the pairing panel in their place.
    static func clockFace(_ inputs: FaceInputs, _ l: FaceLayout) -> FaceScene {
        let dimmed = inputs.dimmed
        let sunrise = dimmed ? nil : inputs.state?.sunrise
        let sky = sunrise.flatMap { FaceColor(hex: $0.sky) }
        let ink = sunrise.flatMap { FaceColor(hex: $0.ink) }
        var scene = FaceScene(
            width: l.width, height: l.height, background: dimmed ? FacePalette.night : sky ?? FacePalette.background)
        let clockInk = dimmed ? FacePalette.nightInk : ink ?? FacePalette.ink
        let muted = dimmed ? FacePalette.nightMuted : ink ?? FacePalette.muted
        let content = l.content
        let pairing = inputs.ui.pairingOpen && !dimmed

        // Top: the first warning (one line), and "Reconnecting…" while the link is down.
        let top = FaceRect(x: content.x, y: content.y, w: content.w, h: l.lineHeight)
        let warnings = inputs.state?.warnings ?? []
        if let first = warnings.first {
            let r = FaceRect(x: top.x, y: top.y, w: top.w * 72 / 100, h: top.h)
            scene.boxes.append(.init(rect: r, color: dimmed ? FaceColor(0x1a, 0x14, 0x0a) : FacePalette.warnBackground))
            let warnInk = dimmed ? FaceColor(0x7a, 0x64, 0x40) : FacePalette.warnInk
            let size = l.lineSize * 85 / 100
            // The count of the others apart, at the right, never cut off with the first.
            let more = warnings.count > 1 ? min(r.w / 4, size * 3) : 0
            let text = FaceRect(x: r.x + l.gap, y: r.y, w: r.w - 2 * l.gap - more, h: r.h)
            scene.texts.append(.init(text: first, size: size, weight: .regular, color: warnInk, rect: text, align: .leading))
            if more > 0 {
                let count = FaceRect(x: text.maxX, y: r.y, w: more, h: r.h)
                scene.texts.append(
                    .init(
                        text: "+\(warnings.count - 1)", size: size, weight: .bold, color: warnInk, rect: count, align: .trailing))
            }
        }
        if !inputs.linkUp {
            let r = FaceRect(x: top.x + top.w * 74 / 100, y: top.y, w: top.w * 26 / 100, h: top.h)
            scene.texts.append(
                .init(
                    text: "Reconnecting…", size: l.lineSize * 85 / 100, weight: .regular, color: muted, rect: r, align: .trailing)
            )
        }

        // The pairing panel instead of the face (nothing painted under it shows through).
        if pairing {
            addPairing(inputs, l, into: &scene)
            return scene
        }

        // Bottom up: the controls, then what plays and the next alarm.
        var bottom = content.maxY
        if !dimmed {
            let rows = controlRows(inputs, l)
            let height = rows.count * l.buttonHeight + (rows.count - 1) * l.gap
            bottom -= height
            for (i, row) in rows.enumerated() {
                let r = FaceRect(x: content.x, y: bottom + i * (l.buttonHeight + l.gap), w: content.w, h: l.buttonHeight)
                l.row(row, in: r, fill: FacePalette.button, ink: FacePalette.ink, into: &scene)
            }
            for i in scene.buttons.indices {
                guard scene.buttons[i].id.hasPrefix("output-") else { continue }
                let name = String(scene.buttons[i].id.dropFirst("output-".count))
                if inputs.state?.outputs.first(where: { $0.name == name })?.on == true {
                    scene.buttons[i].fill = FacePalette.ink
                    scene.buttons[i].ink = FacePalette.background
                }
            }
            bottom -= l.gap
        }
        if let onAir = inputs.onAir, !onAir.isEmpty, inputs.state != nil {
            bottom -= addOnAir(onAir, inputs, l, bottom: bottom, ink: clockInk, muted: muted, into: &scene) + l.gap
        }
        if !dimmed, let radio = inputs.state?.radio {
            bottom -= l.lineHeight
            let r = FaceRect(x: content.x, y: bottom, w: content.w, h: l.lineHeight)
            var line = FaceText.radio(radio)
            if let title = radio.title, !title.isEmpty { line += " · " + title }
            if let ends = radio.endsAt { line += " · sleep \(sleepMinutes(ends - inputs.now)) min" }
            var textRect = r
            if let id = radio.stationId, inputs.stations.contains(where: { $0.id == id && $0.hasLogo }) {
                scene.pictures.append(.init(stationID: id, rect: FaceRect(x: r.x, y: r.y, w: r.h, h: r.h)))
                textRect = FaceRect(x: r.x + r.h + l.gap, y: r.y, w: r.w - 2 * (r.h + l.gap), h: r.h)
            }
            scene.texts.append(
                .init(text: line, size: l.lineSize, weight: .regular, color: FacePalette.accent, rect: textRect, align: .centre))
        }
        if !dimmed, let message = inputs.ui.message {
            bottom -= l.lineHeight
            let r = FaceRect(x: content.x, y: bottom, w: content.w, h: l.lineHeight)
            scene.texts.append(
                .init(text: message, size: l.lineSize, weight: .regular, color: FacePalette.warnInk, rect: r, align: .centre))
        }
        bottom -= l.lineHeight
        let nextLine =
            if let next = inputs.state?.next {
                "Next alarm: \(next.name), \(FaceText.when(next.at, inputs.zone, now: inputs.now))"
            } else if inputs.state == nil {
                ""
            } else {
                "No alarm set"
            }
        let nextRect = FaceRect(x: content.x, y: bottom, w: content.w, h: l.lineHeight)
        scene.texts.append(
            .init(text: nextLine, size: l.lineSize, weight: .regular, color: muted, rect: nextRect, align: .centre))

        // The time fills what is left, the date under it.
        let region = FaceRect(x: content.x, y: top.maxY + l.gap, w: content.w, h: max(1, bottom - l.gap - top.maxY - l.gap))
        let clockSize = max(8, min(region.h * 62 / 100, region.w * 10 / 31))
        let dateSize = max(6, min(clockSize / 5, l.lineSize * 3 / 2))
        let clockHeight = clockSize * 118 / 100
        let dateHeight = dateSize * 13 / 10
        let y = region.y + max(0, (region.h - clockHeight - dateHeight) / 2)
        scene.texts.append(
            .init(
                text: FaceText.clock(inputs.now, inputs.zone), size: clockSize, weight: .light, color: clockInk,
                rect: FaceRect(x: region.x, y: y, w: region.w, h: clockHeight), align: .centre))
        scene.texts.append(
            .init(
                text: FaceText.date(inputs.now, inputs.zone), size: dateSize, weight: .regular, color: muted,
                rect: FaceRect(x: region.x, y: y + clockHeight, w: region.w, h: dateHeight), align: .centre))
        return scene
    }

    /// What is on air now and next, ending at `bottom`, a line each ("Now on FIP · 07:00–09:00 · Morning show"),
    /// and at their right the toggle reserving the next programme (not on the night face); returns its height.
    static func addOnAir(
        _ onAir: FaceOnAir, _ inputs: FaceInputs, _ l: FaceLayout, bottom: Int, ink: FaceColor, muted: FaceColor,
        into scene: inout FaceScene
    ) -> Int {
        let content = l.content
        let station = onAir.station ?? onAir.now?.stationName ?? onAir.next?.stationName
        let on = station.map { " on \($0)" } ?? ""
        var lines: [String] = []
        if let now = onAir.now {
            lines.append(
                "Now\(on) · \(FaceText.clock(now.begins, inputs.zone))–\(FaceText.clock(now.ends, inputs.zone)) · \(now.name)")
        }
        let reservable = onAir.next.flatMap(\.id) != nil && !inputs.dimmed
        if let next = onAir.next {
            let when = FaceText.when(next.begins, inputs.zone, now: inputs.now)
            let time =
                when.hasPrefix("today ")
                ? "\(FaceText.clock(next.begins, inputs.zone))–\(FaceText.clock(next.ends, inputs.zone))" : when
            lines.append("\(onAir.now == nil ? "Next\(on)" : "Next") · \(time) · \(next.name)")
        }
        let height = max(lines.count * l.lineHeight, reservable ? l.buttonHeight : 0)
        let top = bottom - height
        var textWidth = content.w
        if reservable, let next = onAir.next {
            let width = max(20, content.w / 4)
            textWidth = content.w - width - l.gap
            scene.buttons.append(
                .init(
                    id: "reserve", rect: FaceRect(x: content.maxX - width, y: top, w: width, h: height),
                    label: next.reserved ? "Reserved ✓" : "Reserve", fill: FacePalette.button,
                    ink: next.reserved ? FacePalette.accent : FacePalette.ink, size: l.labelSize))
        }
        let y = top + (height - lines.count * l.lineHeight) / 2
        for (i, line) in lines.enumerated() {
            let r = FaceRect(x: content.x, y: y + i * l.lineHeight, w: textWidth, h: l.lineHeight)
            scene.texts.append(
                .init(
                    text: line, size: l.lineSize * 9 / 10, weight: .regular, color: i == 0 && onAir.now != nil ? ink : muted,
                    rect: r, align: reservable ? .leading : .centre))
        }
        return height
    }

    /// The sleep timer's whole minutes left, rounded up (as it counts down, "1 min" until it ends).
    static func sleepMinutes(_ seconds: Double) -> Int {
        max(0, Int((seconds / 60).rounded(.up)))
    }

    /// The rows of controls: Play (or Stop) and Stations, the volume while something plays, the sleep timer, the
    /// outputs and "Pair a phone" — two rows in landscape, more in portrait.
    static func controlRows(_ inputs: FaceInputs, _ l: FaceLayout) -> [[FaceLayout.Slot]] {
        let radio = inputs.state?.radio
        var play: [FaceLayout.Slot] = []
        if radio != nil {
            play.append(.button(id: "play", label: "Stop"))
        } else if let station = inputs.chosenStation {
            play.append(.button(id: "play", label: "Play \(station)"))
        } else {
            play.append(.text("No stations"))
        }
        if !inputs.stations.isEmpty { play.append(.button(id: "stations", label: "Stations")) }
        var volume: [FaceLayout.Slot] = []
        if let radio {
            volume = [.button(id: "volume-down", label: "−"), .text("\(radio.volume)"), .button(id: "volume-up", label: "+")]
        }
        let sleep: [FaceLayout.Slot] = [
            .button(id: "sleep-15", label: "Sleep 15"), .button(id: "sleep-30", label: "30"),
            .button(id: "sleep-60", label: "60"),
        ]
        var more: [FaceLayout.Slot] = (inputs.state?.outputs ?? []).map {
            .button(id: "output-\($0.name)", label: $0.name == "shaker" ? "Shaker" : "Lamp")
        }
        more.append(.button(id: "pair", label: "Pair a phone"))
        if l.landscape { return [play + volume, sleep + more] }
        return [play, volume, sleep, more].filter { !$0.isEmpty }
    }

    /// The pairing panel: the code the clock shows now and how long it is valid, and Close.
    static func addPairing(_ inputs: FaceInputs, _ l: FaceLayout, into scene: inout FaceScene) {
        let content = l.content
        let panel = FaceRect(
            x: content.x + content.w / 10, y: content.y + content.h / 6, w: content.w * 8 / 10, h: content.h * 2 / 3)
        scene.boxes.append(.init(rect: panel, color: FacePalette.line))
        scene.boxes.append(.init(rect: panel.inset(2, 2), color: FacePalette.button))
        let inner = panel.inset(l.gap * 2, l.gap * 2)
        let line = max(8, inner.h / 6)
        func row(_ i: Int, _ h: Int) -> FaceRect { FaceRect(x: inner.x, y: inner.y + i * line, w: inner.w, h: h) }
        scene.texts.append(
            .init(
                text: "On your phone, open this clock's page and enter", size: l.lineSize * 85 / 100, weight: .regular,
                color: FacePalette.muted, rect: row(0, line), align: .centre))
        let code = inputs.state?.pairing
        let codeText = code.map { spaced($0.code) } ?? "…"
        scene.texts.append(
            .init(
                text: codeText, size: max(8, line * 14 / 10), weight: .bold, color: FacePalette.ink, rect: row(1, line * 2),
                align: .centre))
        let expiry =
            if let code {
                code.expiresAt > inputs.now
                    ? "Valid for \(sleepMinutes(code.expiresAt - inputs.now)) min" : "This code has expired."
            } else {
                "Asking the clock for a code…"
            }
        scene.texts.append(
            .init(text: expiry, size: l.lineSize, weight: .regular, color: FacePalette.muted, rect: row(3, line), align: .centre))
        let close = FaceRect(x: inner.x + inner.w / 4, y: inner.maxY - line * 3 / 2, w: inner.w / 2, h: line * 3 / 2)
        scene.buttons.append(
            .init(id: "pair-close", rect: close, label: "Close", fill: FacePalette.line, ink: FacePalette.ink, size: l.labelSize))
    }

    /// "123 456": a six-digit code in two halves, as the kiosk shows it.
    static func spaced(_ code: String) -> String {
        code.count == 6 ? "\(code.prefix(3)) \(code.suffix(3))" : code
    }
}
