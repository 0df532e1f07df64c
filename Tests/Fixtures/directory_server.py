"""A stand-in for the radio-browser API on 127.0.0.1, for the directory tests (no test reaches the internet).

usage: directory_server.py MODE STATIONS_JSON LOG [MP3]
  MODE ok     answers like a mirror:
                /json/stations/search   name (substring, any case), countrycode, tag, codec, hidebroken, order=clickcount,
                                        reverse, limit — as the real API reads them
                /json/stations/byuuid   ?uuids=a,b,c
                /json/url/<uuid>        a click's receipt
                /logo/<file>            the bytes of STATIONS_JSON's folder's <file> (a station's logo)
                /stream.mp3             MP3 (the file given), for playing a station found here
       html   every path answers a web page (a mirror behind a captive portal)
       junk   every path answers 200 application/json that is not JSON
STATIONS_JSON is read again at each request (a test moves a station's address by rewriting it), in the directory's
own field names. Each request is appended to LOG as one JSON line: path, query, User-Agent.
Prints the port it listens on, then serves until killed.
"""
import http.server, json, os, sys, urllib.parse
from local_server import serve

MODE, STATIONS, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
MP3 = open(sys.argv[4], 'rb').read() if len(sys.argv) > 4 else b''

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.0'
    def log_message(self, *a): pass

    def send(self, status, ctype, body):
        self.send_response(status)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        u = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(u.query)
        with open(LOG, 'a') as log:
            log.write(json.dumps({'path': u.path, 'query': {k: v[0] for k, v in q.items()},
                                  'agent': self.headers.get('User-Agent', '')}) + '\n')
        if MODE == 'html':
            return self.send(200, 'text/html', b'<!DOCTYPE html><html><body>Welcome to the hotel Wi-Fi</body></html>')
        if MODE == 'junk':
            return self.send(200, 'application/json', b'Service temporarily unavailable')
        stations = json.load(open(STATIONS))
        one = lambda k: q.get(k, [''])[0]
        if u.path == '/json/stations/search':
            found = [s for s in stations
                     if one('name').lower() in s['name'].lower()
                     and (not one('countrycode') or s.get('countrycode', '').upper() == one('countrycode').upper())
                     and (not one('tag') or one('tag').lower() in [t.strip() for t in s.get('tags', '').lower().split(',')])
                     and (not one('codec') or s.get('codec', '').upper() == one('codec').upper())
                     and (one('hidebroken') != 'true' or s.get('lastcheckok', 1) == 1)]
            if one('order') == 'clickcount':
                found.sort(key=lambda s: s.get('clickcount', 0), reverse=one('reverse') == 'true')
            found = found[:int(one('limit') or 100000)]
            return self.send(200, 'application/json', json.dumps(found).encode())
        if u.path == '/json/stations/byuuid':
            ids = one('uuids').split(',')
            return self.send(200, 'application/json', json.dumps([s for s in stations if s['stationuuid'] in ids]).encode())
        if u.path.startswith('/json/url/'):
            uuid = u.path.rsplit('/', 1)[1]
            match = [s for s in stations if s['stationuuid'] == uuid]
            body = {'ok': bool(match), 'message': 'retrieved station url' if match else 'station not found',
                    'stationuuid': uuid, 'name': match[0]['name'] if match else '', 'url': match[0]['url_resolved'] if match else ''}
            return self.send(200, 'application/json', json.dumps(body).encode())
        if u.path.startswith('/logo/'):
            path = os.path.join(os.path.dirname(STATIONS), os.path.basename(u.path))
            if os.path.exists(path):
                return self.send(200, 'image/png', open(path, 'rb').read())
            return self.send(404, 'text/plain', b'no such logo')
        if u.path == '/stream.mp3':
            return self.send(200, 'audio/mpeg', MP3)
        self.send(404, 'text/plain', b'unknown path')

serve(Handler)
