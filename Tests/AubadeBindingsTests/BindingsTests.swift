import AubadeAudio
import AubadeHTTP
import AubadeHardware
import Testing

/// The C libraries link and their Swift shims work, against the real libraries (no sound card or GPIO needed).
@Suite("C library bindings")
struct BindingsTests {
    @Test func versionsComeFromTheLinkedLibraries() {
        #expect(HTTPLibrary.curlVersion.hasPrefix("libcurl/"))
        #expect(AudioLibraries.alsaVersion.split(separator: ".").count == 3)
        #expect(AudioLibraries.mpg123Description.hasPrefix("API "))
        #expect(GPIOLibrary.version.hasPrefix("1."))  // Debian bookworm's libgpiod v1 API
    }

    @Test func curlVariadicOptionsGoThroughTheTypedShims() {
        #expect(HTTPLibrary.probeCurlOptions() == nil)
    }

    @Test func alsaNullDeviceOpensWithoutASoundCard() {
        #expect(AudioLibraries.probePlayback(device: "null") == nil)
    }

    @Test func aMissingAlsaDeviceIsASentenceNotACrash() {
        let message = AudioLibraries.probePlayback(device: "hw:CARD=NoSuchCard,DEV=0")
        #expect(message?.hasPrefix("snd_pcm_open(hw:CARD=NoSuchCard,DEV=0) failed: ") == true)
    }

    @Test func aMissingGPIOChipIsASentenceNotACrash() {
        let message = GPIOLibrary.probeChip(named: "gpiochip-does-not-exist")
        #expect(message?.hasPrefix("GPIO chip gpiochip-does-not-exist cannot be opened (") == true)
    }
}
