"""Podcast feeds and episodes on 127.0.0.1, for the podcast tests (no test reaches the internet).

usage: feed_server.py FOLDER [LOG]
  /<file>              the file from FOLDER (.xml as application/rss+xml, .atom as application/atom+xml, .m4a as audio/mp4, .mp3 as
                       audio/mpeg, .html as text/html), re-read at each request (a test changes a feed by rewriting it);
                       a `Range: bytes=N-` header is answered 206 from byte N (416 at or past the end), as podcast
                       hosts do; /<file>?norange ignores it (200, the whole file), as some do;
                       /<file>?length=N announces N bytes (Content-Length) whatever it sends, /<file>?nolength
                       announces nothing (the body ends when the connection closes)
  LOG                  each request appended as a line: path, User-Agent, Range
  /redirect/<k>/<file> 302 to /redirect/<k-1>/<file> … /redirect/0/<file>, which serves /<file>
Anything else is 404. Prints the port it listens on, then serves until killed.
"""
import http.server, os, sys
from local_server import serve

FOLDER = sys.argv[1]
LOG = sys.argv[2] if len(sys.argv) > 2 else None
TYPES = {'.xml': 'application/rss+xml', '.atom': 'application/atom+xml', '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4',
         '.html': 'text/html'}

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def log_message(self, *a): pass

    def do_GET(self):
        if LOG:
            with open(LOG, 'a') as f:
                f.write(f"{self.path}\t{self.headers.get('User-Agent', '')}\t{self.headers.get('Range', '')}\n")
        parts = self.path.split('?')[0].strip('/').split('/')
        if len(parts) == 3 and parts[0] == 'redirect' and parts[1].isdigit():
            k = int(parts[1])
            self.send_response(302)
            self.send_header('Location', f'/redirect/{k - 1}/{parts[2]}' if k > 0 else f'/{parts[2]}')
            self.end_headers()
            return
        path = os.path.join(FOLDER, os.path.basename(parts[-1]))
        if len(parts) != 1 or not os.path.isfile(path):
            self.send_response(404); self.end_headers(); return
        body = open(path, 'rb').read()
        kind = TYPES.get(os.path.splitext(path)[1], 'application/octet-stream')
        wanted = self.headers.get('Range', '')
        if wanted.startswith('bytes=') and wanted.endswith('-') and 'norange' not in self.path:
            start = int(wanted[6:-1])
            if start >= len(body):
                self.send_response(416)
                self.send_header('Content-Range', f'bytes */{len(body)}')
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
            self.send_response(206)
            self.send_header('Content-Type', kind)
            self.send_header('Content-Range', f'bytes {start}-{len(body) - 1}/{len(body)}')
            self.send_header('Content-Length', str(len(body) - start))
            self.end_headers()
            self.wfile.write(body[start:])
            return
        query = self.path.split('?')[1].split('&') if '?' in self.path else []
        announced = [q[len('length='):] for q in query if q.startswith('length=')]
        self.send_response(200)
        self.send_header('Content-Type', kind)
        if 'nolength' not in query:
            self.send_header('Content-Length', announced[0] if announced else str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: a refusal of what was announced

serve(Handler)
