import AubadeSystem
import Foundation
import Logging

/// The sound device as the engine holds it for the daemon's whole life: opened once at 16-bit stereo at the
/// engine's rate (R19: 2 s of retries, then the alternate device), proven by a short write of silence,
/// reopened after a failure, and never reconfigured — every source is decoded or synthesised to that one
/// format, so switching sources never touches the card.
///
/// Contract: not Sendable — the engine's audio thread owns it. `written` counts the frames handed to the
/// current stream; `played` is what the card has consumed of them (`snd_pcm_delay`), the measure the alarm's
/// supervision is judged on (R16).
final class OutputDevice {
    let options: SinkOptions
    let rate: Int
    let logger: Logger?
    private(set) var sink: AlsaSink?
    private var mixer: MixerControl?
    /// Frames handed to the device since it opened (frames dropped unplayed are taken back out).
    private(set) var written: Int64 = 0
    /// How often the device was opened (the first time and after failures).
    private(set) var opens = 0

    init(options: SinkOptions, rate: Int, logger: Logger?) {
        self.options = options
        self.rate = rate
        self.logger = logger
    }

    var isOpen: Bool { sink != nil }
    var name: String? { sink?.device }

    /// Opens and configures the device and — on a card — writes 10 ms of silence (dropped at once) to prove it
    /// takes audio (R34). alsa-lib's `null` and `file` plugins are not tested that way: they accept anything, and
    /// the `file` plugin would put the silence into its capture. Returns nil, or the reason it failed as one
    /// sentence. Blocks up to the sink's retry time.
    func open() -> String? {
        close()
        // A device takes one or two descriptors; the runtime keeps its reserve (see `FileDescriptors`).
        guard FileDescriptors.haveFree(FileDescriptors.reserve + 2) else {
            return FileDescriptors.exhausted("the sound device \(options.device)")
        }
        do throws(AudioError) {
            let sink = try AlsaSink(
                device: options.device, alternate: options.alternate, paced: options.paced,
                logger: logger)
            try sink.configure(rate: rate, channels: 2)
            if sink.pacesItself {
                let silence = [Int16](repeating: 0, count: 2 * SoundEngine.testWriteFrames)
                try silence.withUnsafeBufferPointer { buffer throws(AudioError) in try sink.write(buffer) }
                sink.stop()
            }
            self.sink = sink
            written = 0
            opens += 1
            return nil
        } catch {
            return error.description
        }
    }

    /// Writes interleaved stereo samples; blocks as the card takes them. Nil, or the failure as one sentence
    /// (the device is then closed: reopen it).
    func write(_ samples: UnsafeBufferPointer<Int16>) -> String? {
        guard let sink else { return "The sound device is closed." }
        do throws(AudioError) {
            try sink.write(samples)
            written += Int64(samples.count / 2)
            return nil
        } catch {
            close()
            return error.description
        }
    }

    /// Frames the card has consumed so far (on the `written` scale).
    var played: Int64 {
        guard let sink else { return written }
        return max(0, written - Int64(sink.queuedFrames ?? 0))
    }

    /// What the device holds and when (`AlsaSink.timeline`), its `written` on this device's scale; nil when it
    /// cannot say (closed, or an unpaced plugin).
    func timeline() -> AlsaSink.Timeline? {
        guard var timeline = sink?.timeline() else { return nil }
        timeline.written = written
        return timeline
    }

    /// Discards what waits in the device (a stop is heard at once); those frames count as never written.
    func dropQueued() {
        guard let sink else { return }
        written -= Int64(sink.queuedFrames ?? 0)
        sink.stop()
    }

    /// Plays out what waits in the device, then idles (the end of a sound with nothing after it).
    func drain() {
        sink?.drain()
    }

    func close() {
        restoreMixer()
        sink?.close()
        sink = nil
    }

    /// Unmutes the card's own control and raises it for an alarm (R18); a sentence when something changed.
    func takeOverMixer() -> String? {
        guard mixer == nil, let name, let control = MixerControl.open(forDevice: name) else { return nil }
        mixer = control
        return control.takeOver()
    }

    /// Puts the card's control back as it was before the alarm.
    func restoreMixer() {
        mixer?.restore()
        mixer = nil
    }
}
