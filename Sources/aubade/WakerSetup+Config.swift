import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeWakerFiles
import Foundation

extension WakerSetup {
    /// What the second waker (R35) needs from the config: the sound device and its alternate, and the buttons
    /// whose short press stops or snoozes an alarm, with their wiring (active-low, bias); the outputs it drives
    /// while it rings (`[outputs]`: a bed shaker, a lamp).
    init(config: Configuration, databasePath: String) {
        let b = config.buttons
        let lines: [(ButtonRole, String)] = [
            (.snooze, b.snooze), (.stop, b.stop), (.playPause, b.playPause), (.sleep, b.sleep),
            (.volumeUp, b.volumeUp), (.volumeDown, b.volumeDown),
        ]
        var buttons: [Button] = []
        for (role, line) in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            switch b.mapping.action(for: role, .short) {
            case .stop: buttons.append(Button(snoozes: false, line: line))
            case .snooze: buttons.append(Button(snoozes: true, line: line))
            default: continue
            }
        }
        self.init(
            databasePath: databasePath, device: config.audio.device, alternate: config.audio.alternateDevice,
            buttons: buttons, activeLow: b.activeLow, bias: b.bias,
            outputs: OutputName.allCases.compactMap { name in
                let o = config.outputs[name]
                guard !o.line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
                return Output(
                    name: name, line: o.line.trimmingCharacters(in: .whitespaces), activeLow: o.activeLow, pattern: o.pattern)
            })
    }
}
