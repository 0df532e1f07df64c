#!/usr/bin/env python3
"""A scriptable misbehaving radio server for Aubade's tests. Listens on 127.0.0.1 (port 0 = any free one),
prints the port on its first line of stdout, and serves until killed.

  /mp3            200 audio/mpeg: the MP3 file given as argv[1], then closes
  /mp3-icy?metaint=N&title=T   the same with ICY metadata every N bytes (N may be 0 or huge: then no blocks)
           &block=B (repeatable)  raw metadata blocks instead of StreamTitle='T'; (percent-encoded bytes, so
                                  invalid UTF-8 can be sent); the k-th titled block is the k-th B, the last repeats.
                                  B = @N stands for StreamTitle='AAA…'; with N A's (too long for a URL).
                                  A title goes out at the first block and then every 8192 audio bytes; the
                                  blocks between are empty (length 0), as Icecast does. A block longer than
                                  4080 bytes is sent whole after a length byte of 255 (a server that overflows).
           &every=M               insert the blocks every M bytes while announcing N (a lying icy-metaint)
           &repeat=R              the MP3 R times over (a longer station)
  /shoutcast      a raw 'ICY 200 OK' status line (SHOUTcast v1) with the MP3
  /404            404 Not Found
  /html           200 text/html page
  /stall?after=N  headers and N bytes of the MP3 (repeated as needed), then silence forever
         &close=S       …or silence for S seconds, then close (a client that waited that long sees an end, not a stall)
  /redirect/K     302 to /redirect/K-1 … /redirect/0, which serves /mp3
  /loop           302 to itself, for ever (a redirect loop)
  /to-file        302 to file:///etc/passwd
  /to-linklocal   302 to http://169.254.1.1/x
  /garbage        200 audio/mpeg of pseudo-random bytes
  /fast           the MP3 repeated, as fast as the client reads
  /fast?speed=X   the MP3 repeated for ever at X times its real-time rate (128 kbps × X)
"""
import http.server, sys, time, urllib.parse, random
from local_server import serve

MP3 = open(sys.argv[1], 'rb').read() if len(sys.argv) > 1 else b''

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def log_message(self, *a): pass

    def head(self, status=200, ctype='audio/mpeg', extra=None):
        self.send_response(status)
        self.send_header('Content-Type', ctype)
        for k, v in (extra or {}).items(): self.send_header(k, v)
        self.end_headers()

    def do_GET(self):
        u = urllib.parse.urlparse(self.path); p = u.path
        q = urllib.parse.parse_qs(u.query, encoding='latin-1')  # latin-1: each %XX stays the byte it names
        try:
            if p == '/mp3':
                self.head(); self.wfile.write(MP3)
            elif p == '/mp3-icy':
                n = int(q.get('metaint', ['8192'])[0])
                self.head(extra={'icy-metaint': str(n)})
                if n <= 0 or n > 65536: self.wfile.write(MP3); return
                self.wfile.write(icy_wire(n, int(q.get('every', [str(n)])[0]), q))
            elif p == '/shoutcast':
                self.wfile.write(b'ICY 200 OK\r\nicy-name: Test\r\nContent-Type: audio/mpeg\r\n\r\n' + MP3)
            elif p == '/404':
                self.head(404, 'text/html'); self.wfile.write(b'<html>nope</html>')
            elif p == '/html':
                self.head(200, 'text/html'); self.wfile.write(b'<!DOCTYPE html><html><body>Player</body></html>')
            elif p == '/stall':
                n = int(q.get('after', ['4096'])[0]); self.head()
                self.wfile.write((MP3 * (n // max(len(MP3), 1) + 1))[:n]); self.wfile.flush()
                time.sleep(float(q.get('close', ['3600'])[0]))
            elif p.startswith('/redirect/'):
                k = int(p.rsplit('/', 1)[1])
                if k == 0: self.head(); self.wfile.write(MP3)
                else: self.send_response(302); self.send_header('Location', '/redirect/%d' % (k - 1)); self.end_headers()
            elif p == '/loop':
                self.send_response(302); self.send_header('Location', '/loop'); self.end_headers()
            elif p == '/to-file':
                self.send_response(302); self.send_header('Location', 'file:///etc/passwd'); self.end_headers()
            elif p == '/to-linklocal':
                self.send_response(302); self.send_header('Location', 'http://169.254.1.1/x'); self.end_headers()
            elif p == '/garbage':
                self.head(); r = random.Random(7); self.wfile.write(bytes(r.getrandbits(8) for _ in range(200000)))
            elif p == '/fast':
                self.head()
                speed = float(q.get('speed', ['0'])[0])
                if speed <= 0:
                    for _ in range(1000): self.wfile.write(MP3)
                    return
                rate, chunk, sent, began = 16000 * speed, 4096, 0, time.monotonic()
                while True:
                    for i in range(0, len(MP3), chunk):
                        self.wfile.write(MP3[i:i+chunk]); sent += len(MP3[i:i+chunk])
                        ahead = sent / rate - (time.monotonic() - began)
                        if ahead > 0: time.sleep(ahead)
            else:
                self.head(404, 'text/plain'); self.wfile.write(b'unknown path')
        except (BrokenPipeError, ConnectionResetError):
            pass

def icy_wire(n, every, q):
    """The MP3 with a metadata block after every `every` audio bytes (see /mp3-icy above)."""
    blocks = [("StreamTitle='%s';" % ('A' * int(b[1:])) if b.startswith('@') else b).encode('latin-1')
              for b in q.get('block', [])]
    if not blocks:
        blocks = [("StreamTitle='%s';" % q.get('title', ['Test Title'])[0]).encode('latin-1')]
    audio = MP3 * int(q.get('repeat', ['1'])[0])
    wire, titled = bytearray(), 0
    for i in range(0, len(audio), every):
        wire += audio[i:i+every]
        if i + every > len(audio): break
        if i == 0 or (i + every) // 8192 > i // 8192:
            meta = blocks[min(titled, len(blocks) - 1)]; titled += 1
            meta += b'\0' * ((16 - len(meta) % 16) % 16)
            wire += bytes([min(255, len(meta) // 16)]) + meta
        else:
            wire += b'\0'
    return bytes(wire)

serve(Handler)
