"""Rules of the Sail API that JSON Schema cannot state, taught to
schemathesis so that the data it calls valid is valid (scripts/schemathesis.sh
loads this module). docs/contract.md#what-the-schema-cannot-state lists them;
each is documented on its field in proto/ and in docs/openapi.json. Every
rule the schema can state (a hosted session's options per flow, a sandbox
connection's products per type) is in the document, not here.

- `GET /users/{user_id}/expenses`: `from` must not be after `to`.
- `POST .../transactions`: a transaction's `date` is at most one day ahead.
- Disconnecting (`DELETE` on a connection) keeps the connection, with status
  `disconnected`, for the history of its expenses: it reads back, and it
  takes no more transactions (`400 invalid_request` naming `connection_id`).
  Two failures that follow from this contract, and only these, are dropped.
- A receipt upload is read by its bytes (docs/receipts.md): a file that is
  not a PDF, PNG, JPEG, WebP or plain text is refused (`400` naming
  `file`). Random bytes reach that check only when the stateful phase has
  made a real expense to attach them to; that refusal, and only it, is
  dropped.
- A partner has at most 16 webhook endpoints: once the run has made 16, a
  valid registration is refused (`400`, naming the limit); that refusal, and
  only it, is dropped.
"""

import datetime
import uuid

import schemathesis


def _date(value):
    try:
        return datetime.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


@schemathesis.hook
def filter_query(ctx, query):
    if not query or not ctx.operation or not ctx.operation.path.endswith("/expenses"):
        return True
    start, end = _date(query.get("from")), _date(query.get("to"))
    return start is None or end is None or start <= end


@schemathesis.hook
def filter_body(ctx, body):
    if not ctx.operation or not isinstance(body, dict):
        return True
    if not ctx.operation.path.endswith("/transactions"):
        return True
    latest = datetime.date.today() + datetime.timedelta(days=1)
    transactions = body.get("transactions")
    if not isinstance(transactions, list):
        return True
    for transaction in transactions:
        day = _date(transaction.get("date")) if isinstance(transaction, dict) else None
        if day is not None and day > latest:
            return False
    return True


@schemathesis.hook
def map_headers(ctx, headers):
    """An Idempotency-Key names one logical request: a partner sends a fresh
    one per create. Hypothesis reuses short values across unrelated cases,
    and the service then rightly replays an earlier response (whose resource
    may since have been deleted). A well-formed key is made unique here; a
    malformed one is left as it is, to be refused."""
    if not headers or "Idempotency-Key" not in headers:
        return headers
    key = headers["Idempotency-Key"]
    if isinstance(key, str) and 0 < len(key) <= 255 and all(0x21 <= ord(c) <= 0x7E for c in key):
        suffix = "-" + uuid.uuid4().hex
        headers["Idempotency-Key"] = key[: 255 - len(suffix)] + suffix
    return headers


def _error(response):
    try:
        body = response.json()
    except Exception:
        return None
    return body if isinstance(body, dict) else None


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    kind = type(failure).__name__
    body = _error(response) or {}
    path = case.operation.path
    if kind == "UseAfterFree" and path == "/users/{user_id}/connections/{connection_id}":
        # A disconnected connection reads back as such: the contract.
        return body.get("status") != "disconnected"
    if kind == "RejectedPositiveData" and path.endswith("/transactions") and response.status_code == 400:
        error = body.get("error") or {}
        disconnected = error.get("param") == "connection_id" and "is disconnected" in str(error.get("message"))
        return not disconnected
    if kind == "RejectedPositiveData" and path.endswith("/receipts") and response.status_code == 400:
        error = body.get("error") or {}
        return not (error.get("param") == "file" and "is not a PDF, PNG, JPEG, WebP or plain-text file" in str(error.get("message")))
    if kind == "RejectedPositiveData" and path == "/webhook-endpoints" and response.status_code == 400:
        # A partner has at most 16 endpoints: a valid URL is refused once
        # the run has made that many (docs/webhooks.md).
        error = body.get("error") or {}
        return "at most 16 webhook endpoints" not in str(error.get("message"))
    return True
