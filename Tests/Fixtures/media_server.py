#!/usr/bin/env python3
"""Serves the test media of a folder (argv[1]) as a station would, on 127.0.0.1 (port 0 = any free one; the port is
the first line of stdout), until killed.

  /file/NAME                  the file, whole, with the Content-Type its ending names (.aac audio/aac, .ogg
                              audio/ogg, .opus audio/ogg, .flac audio/flac, .m4a audio/mp4, .mp3 audio/mpeg)
  /file/NAME?type=T           …with Content-Type T instead ('' for none): a station that names its format wrongly
  /live/NAME?speed=X          the file over and over, paced at X times its real-time byte rate (a live station;
                              the rate is the file's size over its duration, given as &seconds=S)
  /stall/NAME?after=N         headers and the first N bytes of the file, then silence forever
  /corrupt/NAME?after=N       the first N bytes of the file, then pseudo-random bytes for ever, paced as /live
"""
import http.server, os, random, sys, time, urllib.parse
from local_server import serve

ROOT = sys.argv[1]
TYPES = {'.aac': 'audio/aac', '.ogg': 'audio/ogg', '.opus': 'audio/ogg', '.flac': 'audio/flac', '.m4a': 'audio/mp4',
         '.mp3': 'audio/mpeg', '.wma': 'audio/x-ms-wma'}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'

    def log_message(self, *a):
        pass

    def do_GET(self):
        u = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        parts = u.path.split('/', 2)
        if len(parts) != 3 or '/' in parts[2] or parts[2].startswith('.'):
            self.send_error(404)
            return
        kind, name = parts[1], parts[2]
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, 'rb').read()
        ctype = q['type'][0] if 'type' in q else TYPES.get(os.path.splitext(name)[1], 'application/octet-stream')
        self.send_response(200)
        if ctype:
            self.send_header('Content-Type', ctype)
        if kind == 'file':
            self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        try:
            if kind == 'file':
                self.wfile.write(data)
            elif kind == 'stall':
                self.wfile.write(data[:int(q.get('after', ['4096'])[0])])
                self.wfile.flush()
                time.sleep(3600)
            elif kind in ('live', 'corrupt'):
                rate = len(data) / float(q.get('seconds', ['10'])[0]) * float(q.get('speed', ['1'])[0])
                after = int(q.get('after', ['0'])[0])
                noise, sent, began, chunk = random.Random(7), 0, time.monotonic(), 4096
                while True:
                    for i in range(0, len(data), chunk):
                        piece = data[i:i + chunk]
                        if kind == 'corrupt' and sent >= after:
                            piece = bytes(noise.getrandbits(8) for _ in range(chunk))
                        self.wfile.write(piece)
                        sent += len(piece)
                        ahead = sent / rate - (time.monotonic() - began)
                        if ahead > 0:
                            time.sleep(ahead)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass


serve(Handler)
