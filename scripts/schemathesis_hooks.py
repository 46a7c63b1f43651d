"""Rules of the Sail API that JSON Schema cannot state, taught to
schemathesis so that the data it calls valid is valid (scripts/schemathesis.sh
loads this module). Each rule is documented on its field in proto/ and in
docs/openapi.json.

- `GET /users/{user_id}/expenses`: `from` must not be after `to`.
- `POST .../transactions`: a transaction's `date` is at most one day ahead.
- `POST /sandbox/connections`: `products` must be ones the `type` offers
  (card and store: expenses; benefit_account: benefit_account,
  account_numbers, identity).
- Disconnecting (`DELETE` on a connection) keeps the connection, with status
  `disconnected`, for the history of its expenses: it reads back, and it
  takes no more transactions (`400 invalid_request` naming `connection_id`).
  Two failures that follow from this contract, and only these, are dropped.
- `POST /hosted-sessions`: each flow takes its own options
  (docs/hosted-sessions.md): `connect_account` needs `connection_type`,
  `merchant_id` goes with `store` and `administrator_id` with
  `benefit_account`; `reconnect` needs `connection_id`; an option of another
  flow is refused. Generated bodies are filtered by that rule; a body the
  stateful phase completed from a link (a `connection_id` taken from a
  created connection and put into a `connect_account` session, say) is
  filtered before the link fills it in, so its refusal is dropped only when
  the completed body breaks the same rule.
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


OFFERED_PRODUCTS = {
    "card": {"expenses"},
    "store": {"expenses"},
    "benefit_account": {"benefit_account", "account_numbers", "identity"},
}


FLOW_OPTIONS = {
    "connect_account": {"connection_type", "merchant_id", "administrator_id", "modal"},
    "reconnect": {"connection_id", "modal"},
    "upload_receipt": {"expense_id"},
}


def _hosted_session_ok(body):
    flow = body.get("flow")
    options = body.get("options") or {}
    if flow not in FLOW_OPTIONS or not isinstance(options, dict):
        return True
    given = {k for k, v in options.items() if v is not None}
    if not given <= FLOW_OPTIONS[flow]:
        return False
    if flow == "connect_account":
        kind = options.get("connection_type")
        if kind is None:
            return False
        if options.get("merchant_id") is not None and kind != "store":
            return False
        if options.get("administrator_id") is not None and kind != "benefit_account":
            return False
    if flow == "reconnect" and options.get("connection_id") is None:
        return False
    return True


@schemathesis.hook
def filter_body(ctx, body):
    if not ctx.operation or not isinstance(body, dict):
        return True
    if ctx.operation.path == "/hosted-sessions":
        return _hosted_session_ok(body)
    if ctx.operation.path.endswith("/sandbox/connections"):
        offered = OFFERED_PRODUCTS.get(body.get("type"))
        products = body.get("products")
        if offered is None or not isinstance(products, list):
            return True
        return all(p in offered for p in products)
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
    if kind == "RejectedPositiveData" and path == "/hosted-sessions" and response.status_code == 400:
        # Links fill fields in after `filter_body` has seen the body.
        return not (isinstance(case.body, dict) and not _hosted_session_ok(case.body))
    if kind == "RejectedPositiveData" and path.endswith("/receipts") and response.status_code == 400:
        error = body.get("error") or {}
        return not (error.get("param") == "file" and "is not a PDF, PNG, JPEG, WebP or plain-text file" in str(error.get("message")))
    if kind == "RejectedPositiveData" and path == "/webhook-endpoints" and response.status_code == 400:
        # A partner has at most 16 endpoints: a valid URL is refused once
        # the run has made that many (docs/webhooks.md).
        error = body.get("error") or {}
        return "at most 16 webhook endpoints" not in str(error.get("message"))
    return True
