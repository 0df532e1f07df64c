"""A schemathesis check for the run without a token, from another machine: every request is refused — 401 (a
change, or a wrong pairing code), 403 (a read, or the pairing code only the clock's own screen may show), 429
(the address locked out after too many wrong codes), or for a malformed pairing request the refusal of its form (400,
413, 415, 422), or for a method the document does not give the path 405 — but for the public OpenAPI document."""

import schemathesis

PUBLIC = {("GET", "/api/v1/openapi.json")}
REFUSALS = {401, 403, 429}
# Pairing needs no token (it is how a phone gets one), so a malformed pairing request is refused for its form before any
# code is looked at: no code (400), too large (413), not JSON (415), a code of the wrong shape (422).
PAIRING = ("POST", "/api/v1/pair")
MALFORMED = {400, 413, 415, 422}


@schemathesis.check
def refused_without_a_token(ctx, response, case):
    if (case.method.upper(), case.operation.path) in PUBLIC:
        return
    pairing = (case.method.upper(), case.operation.path) == PAIRING
    allowed = REFUSALS | (MALFORMED if pairing else set())
    # A method the document does not give the path (the coverage phase sends TRACE): the route is never reached,
    # so it is refused as a method the path does not take (405 with Allow), token or none (R39).
    if case.method.upper() != case.operation.method.upper():
        allowed = allowed | {405}
    if response.status_code not in allowed:
        raise AssertionError(
            f"{case.method.upper()} {case.operation.path} without a token answered {response.status_code}, "
            f"not one of {sorted(allowed)}")
