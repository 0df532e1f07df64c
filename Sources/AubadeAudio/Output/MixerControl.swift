import CALSA
import Foundation

/// The sound card's own playback control (R18): an alarm must not be silent because the card was muted or
/// turned down. `takeOver()` remembers the control's switch and level, unmutes it and sets it to full (the
/// alarm's own level is then applied in software, so it is exactly what the alarm asks for); `restore()`
/// puts back what was there before.
///
/// Contract: not thread-safe — used on the alarm's audio thread. Plugins without a card (`null`, `file`)
/// and cards without a playback control give nil from `open`; every alsa-lib return code is checked and a
/// failure only means the control is left alone.
public final class MixerControl {
    private let handle: OpaquePointer
    let element: OpaquePointer
    public let cardName: String
    public let elementName: String
    private var saved: (volume: Int, on: Int32)?

    static let preferred = ["Master", "PCM", "Speaker", "Headphone", "Headphones", "Digital", "HDMI"]

    /// The mixer of the card behind an ALSA device name ("default", "hw:1,0", "plughw:CARD=Headphones", …).
    public static func open(forDevice device: String) -> MixerControl? {
        guard let card = mixerName(forDevice: device) else { return nil }
        alsashim_silence_errors()
        defer { alsashim_default_errors() }
        var mixer: OpaquePointer?
        guard snd_mixer_open(&mixer, 0) == 0, let mixer else { return nil }
        guard snd_mixer_attach(mixer, card) == 0, snd_mixer_selem_register(mixer, nil, nil) == 0,
            snd_mixer_load(mixer) == 0
        else {
            snd_mixer_close(mixer)
            return nil
        }
        var candidates: [(String, OpaquePointer)] = []
        var elem = snd_mixer_first_elem(mixer)
        while let e = elem {
            if snd_mixer_selem_is_active(e) != 0,
                snd_mixer_selem_has_playback_volume(e) != 0 || snd_mixer_selem_has_playback_switch(e) != 0
            {
                candidates.append((String(cString: snd_mixer_selem_get_name(e)), e))
            }
            elem = snd_mixer_elem_next(e)
        }
        let chosen = preferred.lazy.compactMap { name in candidates.first { $0.0 == name } }.first ?? candidates.first
        guard let (name, element) = chosen else {
            snd_mixer_close(mixer)
            return nil
        }
        return MixerControl(handle: mixer, element: element, cardName: card, elementName: name)
    }

    private init(handle: OpaquePointer, element: OpaquePointer, cardName: String, elementName: String) {
        self.handle = handle
        self.element = element
        self.cardName = cardName
        self.elementName = elementName
    }

    deinit {
        snd_mixer_close(handle)
    }

    /// The mixer (control device) name for a PCM device name, or nil for plugins with no card behind them.
    static func mixerName(forDevice device: String) -> String? {
        let d = device.trimmingCharacters(in: .whitespaces)
        if d == "default" || d.hasPrefix("default:") { return d == "default" ? "default" : "hw:" + d.dropFirst("default:".count) }
        for prefix in ["hw:", "plughw:", "sysdefault:", "dmix:", "front:"] where d.hasPrefix(prefix) {
            var card = String(d.dropFirst(prefix.count))
            if card.hasPrefix("CARD=") {
                card = String(card.split(separator: ",").first ?? Substring(card))
            } else {
                card = String(card.split(separator: ",").first ?? "")
            }
            return card.isEmpty ? nil : "hw:" + card
        }
        return nil
    }

    /// Unmutes the control and sets it to full; returns a sentence saying what changed (nil when nothing did).
    public func takeOver() -> String? {
        var changes: [String] = []
        let channel = SND_MIXER_SCHN_FRONT_LEFT
        var on: Int32 = 1
        if snd_mixer_selem_has_playback_switch(element) != 0 {
            if snd_mixer_selem_get_playback_switch(element, channel, &on) == 0, on == 0,
                snd_mixer_selem_set_playback_switch_all(element, 1) == 0
            {
                changes.append("unmuted")
            }
        }
        var volume = 0
        if snd_mixer_selem_has_playback_volume(element) != 0 {
            var low = 0, high = 0
            if snd_mixer_selem_get_playback_volume_range(element, &low, &high) == 0,
                snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0, volume < high,
                snd_mixer_selem_set_playback_volume_all(element, high) == 0
            {
                let percent = high > low ? (volume - low) * 100 / (high - low) : 0
                changes.append("raised from \(percent) % to 100 %")
            }
        }
        saved = (volume, on)
        return changes.isEmpty
            ? nil : "The sound card's \(elementName) control was \(changes.joined(separator: " and ")) for the alarm."
    }

    /// Puts back the switch and level from before `takeOver()`.
    public func restore() {
        guard let saved else { return }
        if snd_mixer_selem_has_playback_volume(element) != 0 {
            snd_mixer_selem_set_playback_volume_all(element, saved.volume)
        }
        if snd_mixer_selem_has_playback_switch(element) != 0 {
            snd_mixer_selem_set_playback_switch_all(element, saved.on)
        }
        self.saved = nil
    }
}
