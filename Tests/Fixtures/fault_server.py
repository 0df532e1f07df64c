#!/usr/bin/env python3
"""A scriptable misbehaving radio server for Aubade's tests. Listens on 127.0.0.1 (port 0 = any free one),
prints the port on its first line of stdout, and serves until killed.

  /mp3            200 audio/mpeg: the MP3 file given as argv[1], then closes
  /mp3-icy?metaint=N&title=T   the same with ICY metadata every N bytes (N may be 0 or huge)
  /shoutcast      a raw 'ICY 200 OK' status line (SHOUTcast v1) with the MP3
  /404            404 Not Found
  /html           200 text/html page
  /stall?after=N  headers and N bytes of the MP3 (repeated as needed), then silence forever
  /redirect/K     302 to /redirect/K-1 … /redirect/0, which serves /mp3
  /to-file        302 to file:///etc/passwd
  /to-linklocal   302 to http://169.254.1.1/x
  /garbage        200 audio/mpeg of pseudo-random bytes
  /fast           the MP3 repeated, as fast as the client reads
"""
import http.server, socketserver, sys, time, urllib.parse, random

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
        u = urllib.parse.urlparse(self.path); q = urllib.parse.parse_qs(u.query); p = u.path
        try:
            if p == '/mp3':
                self.head(); self.wfile.write(MP3)
            elif p == '/mp3-icy':
                n = int(q.get('metaint', ['8192'])[0]); title = q.get('title', ['Test Title'])[0]
                self.head(extra={'icy-metaint': str(n)})
                if n <= 0 or n > 65536: self.wfile.write(MP3); return
                meta = ("StreamTitle='%s';" % title).encode('utf-8')
                meta += b'\0' * ((16 - len(meta) % 16) % 16)
                for i in range(0, len(MP3), n):
                    self.wfile.write(MP3[i:i+n])
                    if i + n <= len(MP3): self.wfile.write(bytes([len(meta) // 16]) + meta)
            elif p == '/shoutcast':
                self.wfile.write(b'ICY 200 OK\r\nicy-name: Test\r\nContent-Type: audio/mpeg\r\n\r\n' + MP3)
            elif p == '/404':
                self.head(404, 'text/html'); self.wfile.write(b'<html>nope</html>')
            elif p == '/html':
                self.head(200, 'text/html'); self.wfile.write(b'<!DOCTYPE html><html><body>Player</body></html>')
            elif p == '/stall':
                n = int(q.get('after', ['4096'])[0]); self.head()
                self.wfile.write((MP3 * (n // max(len(MP3), 1) + 1))[:n]); self.wfile.flush()
                time.sleep(3600)
            elif p.startswith('/redirect/'):
                k = int(p.rsplit('/', 1)[1])
                if k == 0: self.head(); self.wfile.write(MP3)
                else: self.send_response(302); self.send_header('Location', '/redirect/%d' % (k - 1)); self.end_headers()
            elif p == '/to-file':
                self.send_response(302); self.send_header('Location', 'file:///etc/passwd'); self.end_headers()
            elif p == '/to-linklocal':
                self.send_response(302); self.send_header('Location', 'http://169.254.1.1/x'); self.end_headers()
            elif p == '/garbage':
                self.head(); r = random.Random(7); self.wfile.write(bytes(r.getrandbits(8) for _ in range(200000)))
            elif p == '/fast':
                self.head()
                for _ in range(1000): self.wfile.write(MP3)
            else:
                self.head(404, 'text/plain'); self.wfile.write(b'unknown path')
        except (BrokenPipeError, ConnectionResetError):
            pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

srv = Server(('127.0.0.1', 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
