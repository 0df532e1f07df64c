"""A schemathesis check for the run without a token, from another machine: every request is refused — 401 (a
change, or a wrong pairing code), 403 (a read, or the pairing code only the clock's own screen may show), 429
(the address locked out after too many wrong codes), or for pairing without a code 400 — but for the public OpenAPI
document."""

import schemathesis

PUBLIC = {("GET", "/api/v1/openapi.json")}
REFUSALS = {401, 403, 429}
# Pairing needs no token (it is how a phone gets one): a request without a code is refused as malformed (400).
PAIRING = ("POST", "/api/v1/pair")


@schemathesis.check
def refused_without_a_token(ctx, response, case):
    if (case.method.upper(), case.operation.path) in PUBLIC:
        return
    if response.status_code not in REFUSALS | ({400} if (case.method.upper(), case.operation.path) == PAIRING else set()):
        raise AssertionError(
            f"{case.method.upper()} {case.operation.path} without a token answered {response.status_code}, "
            f"not 401, 403 or 429")
