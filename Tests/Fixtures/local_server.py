"""What every test server here shares: listen on 127.0.0.1 on a free port, print the port as the first line (the
tests read it), and serve each request on a thread of its own until killed."""
import http.server, socketserver


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(handler):
    srv = Server(('127.0.0.1', 0), handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()
