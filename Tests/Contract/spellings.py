"""Every operation of the clock's OpenAPI document asked for under other spellings of its path (R39), as an attacker
on the network would try them; run by fuzz.py inside its network namespace, so it is "another machine" to the clock.

    python3 spellings.py <base-url> [token]

For each operation (its path parameters filled in) the path is sent as it is and spelled with a doubled or tripled
leading slash, doubled inner slashes, '/./', '..', a trailing slash, percent-encoded slashes and letters, and other
letter cases. Judged:
- any spelling but the plain one: 404, with or without a token (the router takes a path in one spelling only);
- the plain spelling, asked for without a token only: refused (401, 403, 429; a malformed pairing request for its form: 400, 413,
  415, 422), but for the public document.
Prints each finding and a closing line 'spellings: N passed, M failed'; exits 1 when anything failed.
"""

import http.client
import json
import sys
from urllib.parse import urlsplit

PUBLIC = {("GET", "/api/v1/openapi.json")}
REFUSALS = {401, 403, 429}
PAIRING = ("POST", "/api/v1/pair")
MALFORMED = {400, 413, 415, 422}
SAMPLES = {"id": "1", "name": "News"}


def spellings(path):
    rest = path[len("/api/v1/"):]
    first = f"%{ord(rest[0]):02X}"
    return ["/" + path, "//" + path, "/api//v1/" + rest, "/api/v1//" + rest, "/." + path, "/api/./v1/" + rest,
            "/api/v1/./" + rest, "/api/x/../v1/" + rest, path + "/", path + "//", "/api%2Fv1/" + rest,
            "/api%2fv1/" + rest, "/%61pi/v1/" + rest, "/api/v1/" + first + rest[1:], "/API/v1/" + rest,
            "/Api/V1/" + rest[:1].upper() + rest[1:]]


def ask(host, port, method, path, token):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    headers = {"Host": f"{host}:{port}", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = None if method == "GET" else b"{}"
    # skip_host/skip_accept_encoding: the path and the headers go out exactly as written here.
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    status = connection.getresponse().status
    connection.close()
    return status


def main():
    base = urlsplit(sys.argv[1])
    token = sys.argv[2] if len(sys.argv) > 2 else None
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=30)
    connection.request("GET", "/api/v1/openapi.json", headers={"Host": f"{base.hostname}:{base.port}"})
    document = json.loads(connection.getresponse().read())
    passed, failed = 0, []
    for template, item in sorted(document["paths"].items()):
        path = template
        for name, value in SAMPLES.items():
            path = path.replace("{" + name + "}", value)
        for method in sorted(m.upper() for m in item if m != "parameters"):
            # With a token the plain spelling is the fuzzer's own business (it would change the clock here).
            for spelled in ([] if token else [path]) + spellings(path):
                status = ask(base.hostname, base.port, method, spelled, token)
                if spelled != path:
                    allowed = {404}
                elif (method, template) in PUBLIC:
                    allowed = {200}
                else:
                    allowed = REFUSALS | (MALFORMED if (method, template) == PAIRING else set())
                if status in allowed:
                    passed += 1
                else:
                    failed.append(f"{method} {spelled} {'with' if token else 'without'} a token answered {status}, "
                                  f"not one of {sorted(allowed)}")
    for line in failed:
        print("FAIL:", line, flush=True)
    print(f"spellings: {passed} passed, {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
