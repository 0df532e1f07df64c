#!/usr/bin/env python3
"""A live HLS radio station on 127.0.0.1 for tests: ffmpeg plays a sine tone in real time (`-re`) into DIR, and
an HTTP server serves DIR. Standard library only, plus the `ffmpeg` program.

    python3 hls_live.py --dir DIR [--port 0] [--ready-file F] [--mode ts|fmp4|adts|aes] [--frequency 1000]
                        [--segment-seconds 2] [--list-size 6] [--title TEXT]

DIR gets `master.m3u8` (written here, once) naming three variants that all carry the same tone: v0 32 kbit/s
22.05 kHz mono, v1 96 kbit/s 44.1 kHz stereo, v2 256 kbit/s 48 kHz stereo, all AAC-LC (a 128 kbit/s cap picks
v1). Each `vN.m3u8` is a sliding live playlist (no ENDLIST; old segments deleted). Modes:
  ts    MPEG-TS segments with ADTS AAC inside (ffmpeg's hls muxer);
  fmp4  fMP4/CMAF `.m4s` segments after an `#EXT-X-MAP` init file;
  aes   MPEG-TS segments encrypted with AES-128 (`#EXT-X-KEY`, key file `aes.key` in DIR, explicit IV attribute);
  adts  packed audio: raw ADTS `.aac` segments, each starting with an ID3v2.4 tag holding the PRIV frame
        `com.apple.streaming.transportStreamTimestamp` and a TIT2 frame (--title); ffmpeg cannot make these, so
        this script cuts ffmpeg's ADTS streams at frame boundaries and writes the playlists itself.
Once the master playlist and at least 3 segments of every variant exist, the chosen port is printed as the first
line of stdout (as the other test servers do) and written to the ready file when one is given (a temporary file
renamed into place). The test steers the station with POST requests:
  /control/freeze         ffmpeg stops: the playlists stop growing, their files stay and are still served;
  /control/vanish         every playlist answers 404 from then on (segments are still served);
  /control/discontinuity  ffmpeg restarts (timestamps from zero) and the next segment is marked
                          #EXT-X-DISCONTINUITY (also ends a freeze).
Each answers 200 once done. In modes ts, fmp4 and aes the restart appends to ffmpeg's playlists (append_list),
which then carry no EXT-X-DISCONTINUITY-SEQUENCE; mode adts writes one. The script dies with its parent
(PR_SET_PDEATHSIG: start it from a thread that lives as long as the test, e.g. the main one), and ffmpeg with it.
"""

import argparse
import ctypes
import functools
import http.server
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

PR_SET_PDEATHSIG = 1
LIBC = ctypes.CDLL(None, use_errno=True)
SOURCE_RATE = 48000
# (bit rate, sample rate, channels, advertised BANDWIDTH with the container's overhead)
VARIANTS = [(32000, 22050, 1, 40000), (96000, 44100, 2, 110000), (256000, 48000, 2, 290000)]
SEGMENT_SUFFIX = {"ts": "ts", "aes": "ts", "fmp4": "m4s", "adts": "aac"}
TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".aac": "audio/aac", ".mp4": "video/mp4",
         ".m4s": "video/mp4", ".key": "application/octet-stream", "": "application/octet-stream"}


def die_with_parent():
    """Asks the kernel to send SIGTERM when the parent (the thread that started us) ends."""
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def write_atomically(path, data):
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def id3_tag(pts, title):
    """An ID3v2.4 tag: PRIV with the 33-bit 90 kHz timestamp of the segment's first sample, and TIT2 `title`."""
    def frame(name, body):
        return name + syncsafe(len(body)) + b"\0\0" + body
    body = (frame(b"PRIV", b"com.apple.streaming.transportStreamTimestamp\0" + (pts & (2**33 - 1)).to_bytes(8, "big"))
            + frame(b"TIT2", b"\x03" + title.encode() + b"\0"))
    return b"ID3\x04\0\0" + syncsafe(len(body)) + body


class PackedPlaylist:
    """One variant's packed-audio playlist (mode adts), fed an ADTS stream by each ffmpeg run in turn."""

    def __init__(self, args, index):
        self.args, self.index, self.rate = args, index, VARIANTS[index][1]
        self.entries = []  # (file name, seconds, discontinuity before it)
        self.media_sequence = self.discontinuity_sequence = self.next_number = 0
        self.discontinuity = False

    def feed(self, stream):
        """Reads ADTS frames until the stream ends; every ≥ segment-seconds of them become a segment. The partial
        segment at the end is dropped. Timestamps count from zero in each run."""
        frames, samples, start = [], 0, 0
        with stream:
            while len(header := stream.read(7)) == 7:
                length = ((header[3] & 3) << 11) | (header[4] << 3) | (header[5] >> 5)
                payload = stream.read(length - 7)
                if len(payload) < length - 7:
                    break
                frames.append(header + payload)
                samples += 1024 * ((header[6] & 3) + 1)  # 1024 samples per raw data block
                if samples - start >= self.args.segment_seconds * self.rate:
                    self.add(b"".join(frames), start * 90000 // self.rate, (samples - start) / self.rate)
                    frames, start = [], samples

    def add(self, data, pts, seconds):
        name = f"v{self.index}_{self.next_number:05d}.aac"
        self.next_number += 1
        write_atomically(self.args.dir / name, id3_tag(pts, self.args.title) + data)
        self.entries.append((name, seconds, self.discontinuity))
        self.discontinuity = False
        while len(self.entries) > self.args.list_size:
            old, _, marked = self.entries.pop(0)
            self.media_sequence += 1
            self.discontinuity_sequence += marked
            (self.args.dir / old).unlink(missing_ok=True)
        target = max(round(seconds) for _, seconds, _ in self.entries)
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{target}",
                 f"#EXT-X-MEDIA-SEQUENCE:{self.media_sequence}",
                 f"#EXT-X-DISCONTINUITY-SEQUENCE:{self.discontinuity_sequence}"]
        for name, seconds, marked in self.entries:
            lines += ["#EXT-X-DISCONTINUITY"] * marked + [f"#EXTINF:{seconds:.5f},", name]
        write_atomically(self.args.dir / f"v{self.index}.m3u8", ("\n".join(lines) + "\n").encode())


class Station:
    """ffmpeg and what it writes. Started and stopped from the main thread only: the parent-death signal of
    ffmpeg follows the thread that started it."""

    def __init__(self, args):
        self.args, self.process, self.runs, self.readers = args, None, 0, []
        self.packed = [PackedPlaylist(args, i) for i in range(len(VARIANTS))] if args.mode == "adts" else []

    def start(self):
        a, d = self.args, self.args.dir
        command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
                   "-i", f"sine=frequency={a.frequency:g}:sample_rate={SOURCE_RATE}"]
        pipes = []
        for i, (bits, rate, channels, _) in enumerate(VARIANTS):
            # adts: one output file per variant, each to a pipe of ours (stream a:0 of it); else stream a:i of one
            n = 0 if a.mode == "adts" else i
            command += ["-map", "0:a", f"-c:a:{n}", "aac", f"-b:a:{n}", str(bits), f"-ar:a:{n}", str(rate),
                        f"-ac:a:{n}", str(channels)]
            if a.mode == "adts":
                pipes.append(os.pipe())
                command += ["-flush_packets", "1", "-f", "adts", f"pipe:{pipes[-1][1]}"]
        if a.mode != "adts":
            flags = "delete_segments+omit_endlist+temp_file" + ("+append_list" if self.runs else "")
            command += ["-f", "hls", "-hls_time", str(a.segment_seconds), "-hls_list_size", str(a.list_size),
                        "-hls_flags", flags, "-var_stream_map", " ".join(f"a:{i}" for i in range(len(VARIANTS))),
                        "-hls_segment_filename", str(d / f"v%v_%05d.{SEGMENT_SUFFIX[a.mode]}")]
            if a.mode == "fmp4":
                command += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"]
            if a.mode == "aes":
                command += ["-hls_key_info_file", str(d / "aes.keyinfo")]
            command.append(str(d / "v%v.m3u8"))
        self.process = subprocess.Popen(command, pass_fds=[w for _, w in pipes], preexec_fn=die_with_parent)
        for playlist, (r, w) in zip(self.packed, pipes):
            os.close(w)
            playlist.discontinuity = self.runs > 0
            self.readers.append(threading.Thread(target=playlist.feed, args=(os.fdopen(r, "rb"),), daemon=True))
            self.readers[-1].start()
        self.runs += 1

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for reader in self.readers:  # they end at the end of their pipes, having written their last segment
            reader.join(5)
        self.readers = []

    def ready(self):
        """Whether every variant's playlist lists at least 3 segments."""
        paths = [self.args.dir / f"v{i}.m3u8" for i in range(len(VARIANTS))]
        return all(p.exists() and sum(not line.startswith("#") for line in p.read_text().split()) >= 3 for p in paths)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves DIR with HLS content types, never cached; answers the test's POST /control/… requests."""
    extensions_map = TYPES
    vanished = False
    commands = queue.Queue()  # (command, threading.Event set when done) for the main thread

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        if Handler.vanished and self.path.split("?")[0].endswith(".m3u8"):
            self.send_error(404, "This stream has vanished")
            return None
        return super().send_head()

    def do_POST(self):
        command = self.path.removeprefix("/control/")
        if command not in ("freeze", "vanish", "discontinuity"):
            self.send_error(404)
            return
        done = threading.Event()
        Handler.commands.put((command, done))
        done.wait(30)
        self.send_response(200 if done.is_set() else 500)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    parent = os.getppid()
    die_with_parent()
    if os.getppid() != parent:  # the parent died before the signal was armed
        return 1
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready-file", type=Path)
    parser.add_argument("--mode", choices=SEGMENT_SUFFIX, default="ts")
    parser.add_argument("--frequency", type=float, default=1000)
    parser.add_argument("--segment-seconds", type=float, default=2)
    parser.add_argument("--list-size", type=int, default=6)
    parser.add_argument("--title", default="Aubade test tone")
    args = parser.parse_args()
    args.dir = args.dir.resolve()
    args.dir.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # SystemExit runs the `finally` below

    if args.mode == "aes":  # key info file: key URI, key file (no IV: ffmpeg writes one into each #EXT-X-KEY)
        (args.dir / "aes.key").write_bytes(os.urandom(16))
        (args.dir / "aes.keyinfo").write_text(f"aes.key\n{args.dir / 'aes.key'}\n")
    version = 7 if args.mode == "fmp4" else 3
    master = ["#EXTM3U", f"#EXT-X-VERSION:{version}", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for i, (_, _, _, bandwidth) in enumerate(VARIANTS):
        master += [f'#EXT-X-STREAM-INF:BANDWIDTH={bandwidth},CODECS="mp4a.40.2"', f"v{i}.m3u8"]
    write_atomically(args.dir / "master.m3u8", ("\n".join(master) + "\n").encode())

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port),
                                             functools.partial(Handler, directory=str(args.dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    station = Station(args)
    frozen = announced = False
    try:
        station.start()
        while True:
            try:
                command, done = Handler.commands.get(timeout=0.2)
            except queue.Empty:
                command = done = None
            if command == "freeze":
                frozen = True
                station.stop()
            elif command == "vanish":
                Handler.vanished = True
            elif command == "discontinuity":
                frozen = False
                station.stop()
                station.start()
            if done:
                done.set()
            if not frozen and station.process.poll() is not None:
                print(f"hls_live: ffmpeg exited with status {station.process.returncode}", file=sys.stderr)
                return 1
            if not announced and station.ready():
                if args.ready_file:
                    write_atomically(args.ready_file, str(server.server_address[1]).encode())
                print(server.server_address[1], flush=True)  # the first line of stdout, as the other test servers
                announced = True
    finally:
        station.stop()
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
