extension FaceScene {
    /// The scene for `inputs`: the ringing face (Stop and Snooze), the wake-up check ("Are you up?"), the station
    /// picker, or the clock's face (day, night or sunrise) with its controls and, when open, the pairing panel.
    /// A pure function of its inputs.
    public static func make(_ inputs: FaceInputs) -> FaceScene {
        let layout = FaceLayout(width: inputs.width, height: inputs.height)
        if let ringing = inputs.ringing { return ringingFace(ringing, inputs, layout) }
        if inputs.asking { return askingFace(inputs, layout) }
        if inputs.ui.pickerOpen && !inputs.dimmed && !inputs.stations.isEmpty { return picker(inputs, layout) }
        return clockFace(inputs, layout)
    }

    /// Only Snooze and Stop, filling the screen under one line (the time and what rings); Stop alone for a ring test.
    static func ringingFace(_ ringing: FaceState.Ringing, _ inputs: FaceInputs, _ l: FaceLayout) -> FaceScene {
        var scene = FaceScene(width: l.width, height: l.height, background: FacePalette.background)
        let content = l.content
        let top = FaceRect(x: content.x, y: content.y, w: content.w, h: l.lineHeight * 3 / 2)
        let what = ringing.test ? "Ring test" : ringing.alarms.map(\.name).joined(separator: ", ")
        let line = FaceText.clock(inputs.now, inputs.zone) + (what.isEmpty ? "" : "  " + what)
        scene.texts.append(
            .init(text: line, size: l.lineSize * 5 / 4, weight: .regular, color: FacePalette.ink, rect: top, align: .centre))
        if let message = inputs.ui.message ?? (ringing.audible ? nil : ringing.notAudible) {
            let r = FaceRect(x: content.x, y: top.maxY, w: content.w, h: l.lineHeight)
            scene.texts.append(
                .init(text: message, size: l.lineSize, weight: .regular, color: FacePalette.warnInk, rect: r, align: .centre))
        }
        let area = FaceRect(x: content.x, y: top.maxY + l.lineHeight, w: content.w, h: content.maxY - top.maxY - l.lineHeight)
        // As kiosk.css sizes them: large enough to read and hit half awake (Snooze still fits half the width).
        let size = max(8, min(l.height * 12 / 100, l.width * 14 / 100))
        func add(_ id: String, _ label: String, _ r: FaceRect, _ fill: FaceColor, _ ink: FaceColor) {
            scene.buttons.append(.init(id: id, rect: r, label: label, fill: fill, ink: ink, size: size))
        }
        if ringing.test {
            add("stop", "Stop", area, FacePalette.stop, FacePalette.stopInk)
        } else if l.landscape {
            let half = (area.w - l.gap) / 2
            add("snooze", "Snooze", FaceRect(x: area.x, y: area.y, w: half, h: area.h), FacePalette.snooze, FacePalette.snoozeInk)
            add(
                "stop", "Stop", FaceRect(x: area.x + half + l.gap, y: area.y, w: half, h: area.h), FacePalette.stop,
                FacePalette.stopInk)
        } else {
            let half = (area.h - l.gap) / 2
            add("snooze", "Snooze", FaceRect(x: area.x, y: area.y, w: area.w, h: half), FacePalette.snooze, FacePalette.snoozeInk)
            add(
                "stop", "Stop", FaceRect(x: area.x, y: area.y + half + l.gap, w: area.w, h: half), FacePalette.stop,
                FacePalette.stopInk)
        }
        return scene
    }

    /// "Are you up?" and one large button (any touch answers it).
    static func askingFace(_ inputs: FaceInputs, _ l: FaceLayout) -> FaceScene {
        var scene = FaceScene(width: l.width, height: l.height, background: FacePalette.background)
        let content = l.content
        let question = FaceRect(x: content.x, y: content.y, w: content.w, h: content.h * 35 / 100)
        let size = max(8, min(l.height * 12 / 100, l.width * 10 / 100))
        scene.texts.append(
            .init(text: "Are you up?", size: size, weight: .bold, color: FacePalette.ink, rect: question, align: .centre))
        let button = FaceRect(x: content.x + content.w / 10, y: question.maxY, w: content.w * 8 / 10, h: content.h * 55 / 100)
        scene.buttons.append(
            .init(id: "up", rect: button, label: "I'm up", fill: FacePalette.snooze, ink: FacePalette.snoozeInk, size: size))
        return scene
    }
}
