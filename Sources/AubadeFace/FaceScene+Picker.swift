extension FaceScene {
    /// The station picker: "Tap a station to play it", Close, and a grid of the saved stations (each its logo, else
    /// its initial, and its name); as many as fit the screen.
    static func picker(_ inputs: FaceInputs, _ l: FaceLayout) -> FaceScene {
        var scene = FaceScene(width: l.width, height: l.height, background: FacePalette.background)
        let content = l.content
        let head = FaceRect(x: content.x, y: content.y, w: content.w, h: l.buttonHeight)
        let closeWidth = max(8, content.w / 4)
        scene.texts.append(
            .init(
                text: "Tap a station to play it", size: l.lineSize, weight: .regular, color: FacePalette.muted,
                rect: FaceRect(x: head.x, y: head.y, w: head.w - closeWidth - l.gap, h: head.h), align: .leading))
        scene.buttons.append(
            .init(
                id: "picker-close", rect: FaceRect(x: head.maxX - closeWidth, y: head.y, w: closeWidth, h: head.h),
                label: "Close",
                fill: FacePalette.button, ink: FacePalette.ink, size: l.labelSize))
        let grid = FaceRect(x: content.x, y: head.maxY + l.gap, w: content.w, h: content.maxY - head.maxY - l.gap)
        let columns = l.landscape ? 4 : 3
        let tileWidth = (grid.w - (columns - 1) * l.gap) / columns
        let tileHeight = max(8, min(tileWidth, grid.h))
        let rows = max(1, (grid.h + l.gap) / (tileHeight + l.gap))
        let playing = inputs.state?.radio?.stationId
        let chosen = inputs.chosenStation
        for (i, station) in inputs.stations.prefix(rows * columns).enumerated() {
            let tile = FaceRect(
                x: grid.x + i % columns * (tileWidth + l.gap), y: grid.y + i / columns * (tileHeight + l.gap), w: tileWidth,
                h: tileHeight)
            let isChosen = playing.map { $0 == station.id } ?? (station.name == chosen)
            scene.buttons.append(
                .init(
                    id: "station-\(station.id)", rect: tile, label: "", fill: isChosen ? FacePalette.line : FacePalette.button,
                    ink: FacePalette.ink, size: l.labelSize))
            let nameHeight = max(6, tile.h / 4)
            let face = FaceRect(x: tile.x, y: tile.y + l.gap, w: tile.w, h: tile.h - nameHeight - l.gap)
            let side = max(1, min(face.w, face.h) * 8 / 10)
            let square = FaceRect(x: face.x + (face.w - side) / 2, y: face.y + (face.h - side) / 2, w: side, h: side)
            if station.hasLogo {
                scene.pictures.append(.init(stationID: station.id, rect: square))
            } else {
                let initial = station.name.first.map { String($0).uppercased() } ?? "?"
                scene.texts.append(
                    .init(
                        text: initial, size: max(6, side * 6 / 10), weight: .bold, color: FacePalette.muted, rect: square,
                        align: .centre))
            }
            scene.texts.append(
                .init(
                    text: station.name, size: max(6, min(l.labelSize, nameHeight * 7 / 10)), weight: .regular,
                    color: isChosen ? FacePalette.accent : FacePalette.ink,
                    rect: FaceRect(x: tile.x + l.gap, y: tile.maxY - nameHeight, w: tile.w - 2 * l.gap, h: nameHeight),
                    align: .centre))
        }
        return scene
    }
}
