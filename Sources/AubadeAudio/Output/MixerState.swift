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
    /// `MixerControl.open` picks (its preferred names first), opened only to be read.
    public static func read(forDevice device: String) -> MixerState? {
        MixerControl.open(forDevice: device)?.state
    }
}

extension MixerControl {
    /// The control's switch and level as they are (front left channel, as `takeOver` reads them).
    var state: MixerState {
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
                snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0
            {
                percent = high > low ? (volume - low) * 100 / (high - low) : 100
            }
        }
        return MixerState(cardName: cardName, elementName: elementName, on: on, percent: percent)
    }
}
