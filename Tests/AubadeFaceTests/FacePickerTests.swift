import AubadeFace
import PropertyBased
import Testing

/// The station picker's pages: every station reachable through "›" (and back through "‹"), each on one page only;
/// the page reset when the picker opens; a tap on a station of a later page plays it, as kiosk.js does.
@Suite("Face: the station picker's pages")
struct FacePickerTests {
    typealias F = FaceFixtures

    static func stations(_ count: Int) -> [FaceStation] {
        (0..<count).map { FaceStation(id: Int64(100 + $0), name: "Station \($0)", hasLogo: $0 % 3 == 0) }
    }

    static func open(_ count: Int, width: Int, height: Int, page: Int = 0) -> FaceInputs {
        F.inputs(
            F.state(F.minimalJSON), width: width, height: height, ui: FaceUI(pickerOpen: true, pickerPage: page),
            stations: stations(count))
    }

    /// The station ids of each page, walked from the first with "›" (tapped at its centre), then back with "‹".
    static func walk(_ start: FaceInputs) -> (forward: [[String]], back: [[String]]) {
        func ids(_ scene: FaceScene) -> [String] { scene.buttons.map(\.id).filter { $0.hasPrefix("station-") } }
        func step(_ inputs: FaceInputs, _ id: String) -> FaceInputs? {
            let scene = FaceScene.make(inputs)
            guard let button = scene.button(id),
                let ui = FaceAction.touch(x: button.rect.centre.x, y: button.rect.centre.y, on: scene, inputs)?.ui
            else { return nil }
            var next = inputs
            next.ui = ui
            return next
        }
        var inputs = start
        var forward = [ids(FaceScene.make(inputs))]
        while let next = step(inputs, "picker-next"), forward.count <= 100 {
            inputs = next
            forward.append(ids(FaceScene.make(inputs)))
        }
        var back: [[String]] = []
        while let previous = step(inputs, "picker-previous"), back.count <= 100 {
            inputs = previous
            back.append(ids(FaceScene.make(inputs)))
        }
        return (forward, back)
    }

    static let sizes = Generator<(count: Int, width: Int, height: Int), Shrink.None<(count: Int, width: Int, height: Int)>> {
        rng in
        let named = [(800, 480), (480, 800), (720, 1280), (1280, 720)]
        let (width, height) =
            Bool.random(using: &rng)
            ? named[Int.random(in: 0..<named.count, using: &rng)]
            : (Int.random(in: 240...1920, using: &rng), Int.random(in: 240...1920, using: &rng))
        return (Int.random(in: 0...60, using: &rng), width, height)
    }

    @Test("Every station is on exactly one page, in order, reached with › from the first and ‹ back to it")
    func everyStationReachable() async {
        await propertyCheck(count: 300, input: Self.sizes) { c in
            let inputs = Self.open(c.count, width: c.width, height: c.height)
            let (forward, back) = Self.walk(inputs)
            let all = Self.stations(c.count).map { "station-\($0.id)" }
            #expect(forward.flatMap { $0 } == all, "\(c)")
            #expect(forward.allSatisfy { !$0.isEmpty } || c.count == 0, "\(c)")
            #expect(back == forward.dropLast().reversed(), "\(c)")
            // One page: no paging at all.
            let first = FaceScene.make(inputs)
            if forward.count == 1 {
                #expect(first.button("picker-next") == nil && first.button("picker-previous") == nil)
            } else {
                #expect(first.text("1 / \(forward.count)") != nil, "\(c)")
            }
        }
    }

    @Test("The named screens: pages of 8 in landscape, more in portrait; ‹ and › on the first, the middle, the last page")
    func namedScreens() throws {
        let landscape = FaceScene.make(Self.open(20, width: 800, height: 480))
        #expect(landscape.buttons.filter { $0.id.hasPrefix("station-") }.count == 8)
        #expect(landscape.text("1 / 3") != nil)
        #expect(landscape.button("picker-previous") == nil && landscape.button("picker-next") != nil)
        let middle = FaceScene.make(Self.open(20, width: 800, height: 480, page: 1))
        #expect(middle.button("picker-previous") != nil && middle.button("picker-next") != nil)
        #expect(middle.text("2 / 3") != nil)
        let last = FaceScene.make(Self.open(20, width: 800, height: 480, page: 7))  // past the end: the last page
        #expect(last.text("3 / 3") != nil && last.button("picker-next") == nil)
        #expect(last.buttons.filter { $0.id.hasPrefix("station-") }.map(\.id) == (116..<120).map { "station-\($0)" })
        for (width, height) in [(480, 800), (720, 1280)] {
            let portrait = FaceScene.make(Self.open(60, width: width, height: height))
            let tiles = portrait.buttons.filter { $0.id.hasPrefix("station-") }
            #expect(tiles.count >= 12, "\(width)×\(height): \(tiles.count)")
            let next = try #require(portrait.button("picker-next"))
            #expect(tiles.allSatisfy { $0.rect.maxY <= next.rect.y })
        }
        // As many as fit: no paging.
        #expect(FaceScene.make(Self.open(8, width: 800, height: 480)).button("picker-next") == nil)
    }

    @Test("A tap on a station on page 2 plays it (the body kiosk.js sends) and closes the picker at page 1")
    func tapOnPageTwo() throws {
        let first = Self.open(20, width: 800, height: 480)
        let scene = FaceScene.make(first)
        let next = try #require(scene.button("picker-next"))
        let turned = try #require(FaceAction.touch(x: next.rect.centre.x, y: next.rect.centre.y, on: scene, first))
        #expect(turned.command == nil)
        #expect(turned.ui == FaceUI(pickerOpen: true, pickerPage: 1))
        var second = first
        second.ui = try #require(turned.ui)
        let page = FaceScene.make(second)
        #expect(page.button("station-100") == nil)
        let tile = try #require(page.button("station-109"))
        let pick = FaceAction.touch(x: tile.rect.centre.x, y: tile.rect.centre.y, on: page, second)
        #expect(pick?.command == FaceCommand("POST", "/player/play", #"{"source":"Station 9"}"#))
        #expect(pick?.ui == FaceUI(pickerOpen: false, pickerPage: 0, chosenStation: "Station 9"))
    }

    @Test("The picker opens at its first page; Close forgets the page; ‹ on the first page asks nothing")
    func pageReset() {
        var inputs = F.inputs(F.state(F.minimalJSON), ui: FaceUI(pickerPage: 2), stations: Self.stations(30))
        let opened = FaceAction.pressed("stations", inputs)
        #expect(opened?.ui == FaceUI(pickerOpen: true, pickerPage: 0))
        inputs.ui = FaceUI(pickerOpen: true, pickerPage: 2)
        #expect(FaceAction.pressed("picker-close", inputs)?.ui == FaceUI())
        inputs.ui = FaceUI(pickerOpen: true)
        #expect(FaceAction.pressed("picker-previous", inputs) == nil)
        #expect(FaceAction.pressed("picker-next", inputs)?.ui == FaceUI(pickerOpen: true, pickerPage: 1))
    }
}
