extension FaceScene {
    /// How the picker lays its stations out at one size: the grid of tiles, and when the stations do not fit one
    /// screen, the row of "‹" and "›" under it and the pages. A pure function of the inputs (the scene and the
    /// touches agree on it).
    struct PickerPaging {
        let head: FaceRect
        let grid: FaceRect
        /// The row of "‹", "2 / 3" and "›" (nil: one page holds every station).
        let nav: FaceRect?
        let columns: Int
        let rows: Int
        let tileWidth: Int
        let tileHeight: Int
        /// The number of pages (at least 1), and the page shown: the face's own, within them.
        let pages: Int
        let page: Int

        init(_ inputs: FaceInputs) {
            let l = FaceLayout(width: inputs.width, height: inputs.height)
            let content = l.content
            head = FaceRect(x: content.x, y: content.y, w: content.w, h: l.buttonHeight)
            columns = l.landscape ? 4 : 3
            tileWidth = (content.w - (columns - 1) * l.gap) / columns
            let gap = l.gap
            let width = tileWidth
            /// The rows that fit `height`, tiles at least three quarters as tall as wide, and their height.
            func fit(_ height: Int) -> (rows: Int, tile: Int) {
                let least = max(8, min(width * 3 / 4, height))
                let rows = max(1, (height + gap) / (least + gap))
                return (rows, max(8, min(width, (height - (rows - 1) * gap) / rows)))
            }
            let full = FaceRect(x: content.x, y: head.maxY + gap, w: content.w, h: max(8, content.maxY - head.maxY - gap))
            let one = fit(full.h)
            let count = inputs.stations.count
            if count <= one.rows * columns {
                grid = full
                nav = nil
                (rows, tileHeight) = one
            } else {
                let navHeight = l.buttonHeight
                grid = FaceRect(x: full.x, y: full.y, w: full.w, h: max(8, full.h - navHeight - gap))
                nav = FaceRect(x: content.x, y: content.maxY - navHeight, w: content.w, h: navHeight)
                (rows, tileHeight) = fit(grid.h)
            }
            let perPage = rows * columns
            pages = max(1, (count + perPage - 1) / perPage)
            page = min(max(0, inputs.ui.pickerPage), pages - 1)
        }

        /// The stations on the page shown.
        func stations(_ all: [FaceStation]) -> ArraySlice<FaceStation> {
            let perPage = rows * columns
            let start = min(all.count, page * perPage)
            return all[start..<min(all.count, start + perPage)]
        }

        /// The `i`th tile of the page, row by row.
        func tile(_ i: Int, gap: Int) -> FaceRect {
            FaceRect(
                x: grid.x + i % columns * (tileWidth + gap), y: grid.y + i / columns * (tileHeight + gap), w: tileWidth,
                h: tileHeight)
        }
    }

    /// The station picker: "Tap a station to play it", Close, and a grid of the saved stations (each its logo, else
    /// its initial, and its name); when they do not fit one screen, a page of them at a time with "‹" and "›" under
    /// the grid and the page's number between them ("2 / 3").
    static func picker(_ inputs: FaceInputs, _ l: FaceLayout) -> FaceScene {
        var scene = FaceScene(width: l.width, height: l.height, background: FacePalette.background)
        let paging = PickerPaging(inputs)
        let head = paging.head
        let closeWidth = max(8, head.w / 4)
        scene.texts.append(
            .init(
                text: "Tap a station to play it", size: l.lineSize, weight: .regular, color: FacePalette.muted,
                rect: FaceRect(x: head.x, y: head.y, w: head.w - closeWidth - l.gap, h: head.h), align: .leading))
        scene.buttons.append(
            .init(
                id: "picker-close", rect: FaceRect(x: head.maxX - closeWidth, y: head.y, w: closeWidth, h: head.h),
                label: "Close",
                fill: FacePalette.button, ink: FacePalette.ink, size: l.labelSize))
        let playing = inputs.state?.radio?.stationId
        let chosen = inputs.chosenStation
        for (i, station) in paging.stations(inputs.stations).enumerated() {
            let tile = paging.tile(i, gap: l.gap)
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
        if let nav = paging.nav {
            // "‹" on the first page and "›" on the last would do nothing: left out, the others staying where they are.
            let side = max(20, nav.w / 4)
            if paging.page > 0 {
                scene.buttons.append(
                    .init(
                        id: "picker-previous", rect: FaceRect(x: nav.x, y: nav.y, w: side, h: nav.h), label: "‹",
                        fill: FacePalette.button, ink: FacePalette.ink, size: l.labelSize))
            }
            if paging.page < paging.pages - 1 {
                scene.buttons.append(
                    .init(
                        id: "picker-next", rect: FaceRect(x: nav.maxX - side, y: nav.y, w: side, h: nav.h), label: "›",
                        fill: FacePalette.button, ink: FacePalette.ink, size: l.labelSize))
            }
            scene.texts.append(
                .init(
                    text: "\(paging.page + 1) / \(paging.pages)", size: l.lineSize, weight: .regular, color: FacePalette.muted,
                    rect: FaceRect(x: nav.x + side + l.gap, y: nav.y, w: nav.w - 2 * (side + l.gap), h: nav.h),
                    align: .centre))
        }
        return scene
    }
}
