import CALSA
import Foundation

/// How the sound card's own playback control stands now, read without changing it (for `aubade doctor`):
/// the control `MixerControl` would take over for an alarm, whether it is switched on, and its level.
///
/// Contract: blocking alsa-lib calls (a few ms) — call it off the cooperative pool. Reading a card's mixer does
/// not need its PCM, so it works while the daemon holds the device. nil for plugins with no card behind them
/// (`null`, `file`) and for cards without a playback control.
public struct MixerState: Sendable, Hashable {
    /// The mixer device read, e.g. "hw:Headphones".
    public let cardName: String
    /// The control, e.g. "PCM" or "Master".
    public let elementName: String
    /// false when the control's switch is off (muted); nil when it has no switch.
    public let on: Bool?
    /// The level in percent of its range; nil when it has no volume.
    public let percent: Int?

    /// The control of the card behind `device` ("default", "hw:1,0", "plughw:CARD=Headphones", …): the one
    /// `MixerControl.open` would pick (its preferred names first).
    public static func read(forDevice device: String) -> MixerState? {
        guard let card = MixerControl.mixerName(forDevice: device) else { return nil }
        alsashim_silence_errors()
        defer { alsashim_default_errors() }
        var mixer: OpaquePointer?
        guard snd_mixer_open(&mixer, 0) == 0, let mixer else { return nil }
        defer { snd_mixer_close(mixer) }
        guard snd_mixer_attach(mixer, card) == 0, snd_mixer_selem_register(mixer, nil, nil) == 0,
              snd_mixer_load(mixer) == 0 else { return nil }
        var candidates: [(String, OpaquePointer)] = []
        var elem = snd_mixer_first_elem(mixer)
        while let e = elem {
            if snd_mixer_selem_is_active(e) != 0,
               snd_mixer_selem_has_playback_volume(e) != 0 || snd_mixer_selem_has_playback_switch(e) != 0 {
                candidates.append((String(cString: snd_mixer_selem_get_name(e)), e))
            }
            elem = snd_mixer_elem_next(e)
        }
        let chosen = MixerControl.preferred.lazy.compactMap { name in candidates.first { $0.0 == name } }.first
            ?? candidates.first
        guard let (name, element) = chosen else { return nil }
        return state(of: element, card: card, name: name)
    }

    /// The element's switch and level as they are (front left channel, as `MixerControl.takeOver` reads them).
    private static func state(of element: OpaquePointer, card: String, name: String) -> MixerState {
        let channel = SND_MIXER_SCHN_FRONT_LEFT
        var on: Bool?
        if snd_mixer_selem_has_playback_switch(element) != 0 {
            var value: Int32 = 1
            if snd_mixer_selem_get_playback_switch(element, channel, &value) == 0 { on = value != 0 }
        }
        var percent: Int?
        if snd_mixer_selem_has_playback_volume(element) != 0 {
            var low = 0, high = 0, volume = 0
            if snd_mixer_selem_get_playback_volume_range(element, &low, &high) == 0,
               snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0 {
                percent = high > low ? (volume - low) * 100 / (high - low) : 100
            }
        }
        return MixerState(cardName: card, elementName: name, on: on, percent: percent)
    }
}
