import Testing

@testable import AubadeAudio

/// Which card's mixer belongs to a sound device name (R18: the alarm unmutes and raises that card's control,
/// and puts it back after): a card's own names map to its control device, plugins with no card behind them to
/// none.
@Suite("Mixer for a device name (R18)")
struct MixerNameTests {
    static let cases: [(String, String?)] = [
        ("default", "default"), ("default:1", "hw:1"), ("hw:1,0", "hw:1"), ("hw:0", "hw:0"), (" hw:2,0 ", "hw:2"),
        ("plughw:1,0", "hw:1"), ("plughw:CARD=Device,DEV=0", "hw:CARD=Device"), ("sysdefault:0", "hw:0"),
        ("dmix:2", "hw:2"), ("front:1", "hw:1"), ("hw:", nil), ("null", nil), ("file:'/tmp/card.raw',raw", nil),
        ("pulse", nil), ("", nil),
    ]

    @Test(arguments: cases)
    func aDeviceNameNamesItsCardsMixer(device: String, mixer: String?) {
        #expect(MixerControl.mixerName(forDevice: device) == mixer)
    }

    /// alsa-lib itself, with no card behind the device: no control is taken, nothing to restore.
    @Test func aPluginWithNoCardHasNoControlToTakeOver() {
        #expect(MixerControl.open(forDevice: "null") == nil)
        #expect(MixerControl.open(forDevice: "file:'/dev/null',raw") == nil)
    }
}
