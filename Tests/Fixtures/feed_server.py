"""Podcast feeds and episodes on 127.0.0.1, for the podcast tests (no test reaches the internet).

usage: feed_server.py FOLDER
  /<file>              the file from FOLDER (.xml as application/rss+xml, .atom as application/atom+xml, .mp3 as
                       audio/mpeg, .html as text/html), re-read at each request (a test changes a feed by rewriting it)
  /redirect/<k>/<file> 302 to /redirect/<k-1>/<file> … /redirect/0/<file>, which serves /<file>
Anything else is 404. Prints the port it listens on, then serves until killed.
"""
import http.server, os, sys
from local_server import serve

FOLDER = sys.argv[1]
TYPES = {'.xml': 'application/rss+xml', '.atom': 'application/atom+xml', '.mp3': 'audio/mpeg', '.html': 'text/html'}

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def log_message(self, *a): pass

    def do_GET(self):
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
        self.send_response(200)
        self.send_header('Content-Type', TYPES.get(os.path.splitext(path)[1], 'application/octet-stream'))
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

serve(Handler)
