"""The client against a real `sail serve` (scripts/python-client-test.sh
starts it and exports SAIL_URL, SAIL_KEY, SAIL_TOKEN_ADMIN_KEY,
SAIL_LIMITED_KEY and SAIL_ORPHAN_URL): every operation, retries, the
idempotency key across them, pagination, each error class from a real
refusal, and a real delivered webhook verified from its raw bytes."""

from __future__ import annotations

import http.server
import json
import logging
import os
import sqlite3
import subprocess
import threading
import time
import uuid

import httpx
import pytest

import sail

URL = os.environ["SAIL_URL"]
KEY = os.environ["SAIL_KEY"]


def client(**options) -> sail.Client:
    return sail.Client(api_key=options.pop("api_key", KEY), base_url=options.pop("base_url", URL), **options)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


class Receiver:
    """A webhook endpoint on localhost that keeps each delivery's raw bytes."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers["content-length"]))
                outer.deliveries.append((raw, {k.lower(): v for k, v in self.headers.items()}))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.server.server_address[1]}/hooks"

    def wait_for(self, event_type: str, timeout: float = 30) -> tuple[bytes, dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for raw, headers in self.deliveries:
                if json.loads(raw)["type"] == event_type:
                    return raw, headers
            time.sleep(0.05)
        raise AssertionError(f"no {event_type} delivery")


def wait_for_job(api: sail.Client, job_id: str):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job = api.jobs.get(job_id)
        if job.status.value in ("completed", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish")


def test_every_operation_on_a_partners_first_afternoon_and_a_verified_webhook():
    api = client()
    admin = client(api_key=os.environ["SAIL_TOKEN_ADMIN_KEY"])
    receiver = Receiver()
    endpoint = api.webhook_endpoints.create(url=receiver.url)
    assert endpoint.secret.startswith("whsec_")
    assert any(e.id == endpoint.id for e in api.webhook_endpoints.list())

    user = api.users.create(external_user_id=unique("py"), email="jane@example.com")
    assert api.users.get(user.id).external_user_id == user.external_user_id
    assert api.users.update(user.id, first_name="Jane").id == user.id
    assert any(u.id == user.id for u in api.users.list(status="active"))

    connection = api.connections.create(user.id, type="external", provider_label="Partner Bank")
    assert api.connections.get(user.id, connection.id).id == connection.id
    pushed = api.transactions.push(user.id, connection.id, transactions=[
        {"external_transaction_id": "t-1", "date": "2026-11-01", "amount": 24.99,
         "description": "CVS PHARMACY #123", "mcc": "5912"},
    ])
    assert pushed.accepted == 1
    assert wait_for_job(api, pushed.job_id).status.value == "completed"

    # The webhook the push caused, verified from the raw bytes it came in.
    raw, headers = receiver.wait_for("transactions.ingested")
    event = sail.webhooks.construct_event(raw, headers["sail-signature"], endpoint.secret)
    assert event.type == "transactions.ingested"
    assert event.data.job_id == pushed.job_id and event.data.accepted == 1
    sail.webhooks.verify(endpoint.secret, headers["sail-signature"], raw)
    # The same event parsed and serialised again is other bytes: refused.
    reserialised = json.dumps(json.loads(raw), indent=2).encode()
    with pytest.raises(sail.SignatureVerificationError):
        sail.webhooks.verify(endpoint.secret, headers["sail-signature"], reserialised)
    with pytest.raises(sail.SignatureVerificationError):
        sail.webhooks.verify("whsec_wrong", headers["sail-signature"], raw)

    expenses = list(api.expenses.list(user.id, from_="2026-10-01"))
    expense = api.expenses.get(user.id, expenses[0].id)
    assert expense.external_transaction_id == "t-1"
    receipt = api.receipts.upload(user.id, expense.id, file=b"CVS PHARMACY\nIBUPROFEN 200MG   24.99\nTOTAL 24.99\n",
                                  file_name="receipt.txt")
    assert api.receipts.get(user.id, expense.id, receipt.id).id == receipt.id

    # An administrator that holds only HSAs, whose accounts have ACH numbers.
    administrator = api.administrators.list(search="Fidelity Investments", limit=1).page().data[0]
    card = api.sandbox.create_connection(user_id=user.id, type="benefit_account", provider_id=administrator.id)
    assert card.user_id == user.id
    assert any(c.id == card.id for c in api.connections.list(user.id))
    deadline = time.monotonic() + 30
    while not (accounts := list(api.accounts.list(user.id, connection_id=card.id))):
        assert time.monotonic() < deadline, "the sandbox sync filled no accounts"
        time.sleep(0.1)
    assert api.accounts.get(user.id, accounts[0].id).id == accounts[0].id

    token = admin.user_tokens.create(user_id=user.id, scopes=["identity", "account_numbers"])
    personal = client(user_token=token.token)
    assert personal.identity.get(user.id) is not None
    export = personal.users.export(user.id)
    assert export.user.id == user.id
    hsa = next(a for a in accounts if a.type_.value == "hsa")
    numbers = personal.accounts.numbers(user.id, hsa.id)
    assert numbers.account_id == hsa.id
    assert admin.user_tokens.delete(token.id).id == token.id

    session = api.hosted_sessions.create(user_id=user.id, flow="connect_account",
                                         options={"connection_type": "card"})
    assert api.hosted_sessions.get(session.id).id == session.id
    assert any(s.id == session.id for s in api.hosted_sessions.list(user_id=user.id))

    assert api.merchants.list(search="walgreens", limit=3).page().data
    listed = api.events.list(type="transactions.ingested").page().data
    assert any(e.id == event.id for e in listed)
    assert api.events.get(event.id).id == event.id
    api.events.redeliver(event.id)

    # A test event of a type no call above caused, delivered and typed.
    fired = api.sandbox.create_event(type="user.deactivated", user_id=user.id)
    raw, headers = receiver.wait_for("user.deactivated")
    test_event = sail.webhooks.construct_event(raw, headers["sail-signature"], endpoint.secret)
    assert test_event.id == fired.id and test_event.data.user_id == user.id

    assert api.connections.delete(user.id, connection.id).id == connection.id
    assert api.webhook_endpoints.delete(endpoint.id).id == endpoint.id
    assert api.users.delete(user.id).deleted is True
    with pytest.raises(sail.NotFoundError):
        api.users.get(user.id)


def test_lists_follow_pages():
    counted: list[str] = []

    class Counting(httpx.BaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.HTTPTransport()

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            if request.method == "GET":
                counted.append(str(request.url))
            return self.inner.handle_request(request)

    api = client(transport=Counting())
    made = {api.users.create(external_user_id=unique("page")).id for _ in range(5)}
    first = api.users.list(limit=2).page()
    assert len(first) == 2 and first.pagination.has_more and first.pagination.total >= 5
    counted.clear()
    seen = [u.id for u in api.users.list(limit=2)]
    assert made <= set(seen)
    assert len(seen) == len(set(seen)) == first.pagination.total
    assert len(counted) >= 3, counted
    assert "offset=2" in counted[1] and "offset=4" in counted[2]


def test_a_retried_post_keeps_its_idempotency_key_and_creates_once():
    sent: list[str] = []

    class LosesTheFirstAnswer(httpx.BaseTransport):
        """The first POST reaches Sail, but its answer never comes back."""

        def __init__(self) -> None:
            self.inner = httpx.HTTPTransport()

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = self.inner.handle_request(request)
            if request.method == "POST":
                sent.append(request.headers["idempotency-key"])
                if len(sent) == 1:
                    response.read()
                    response.close()
                    raise httpx.ReadError("connection reset", request=request)
            return response

    api = client(transport=LosesTheFirstAnswer())
    external = unique("once")
    user = api.users.create(external_user_id=external)
    # At least the lost attempt and its retry (a 429 on the way adds more),
    # all under one key.
    assert len(sent) >= 2 and len(set(sent)) == 1, sent
    assert [u.id for u in client().users.list() if u.external_user_id == external] == [user.id]
    # A key of the caller's own is used as given.
    mine = str(uuid.uuid4())
    again = client().users.create(external_user_id=unique("mine"), idempotency_key=mine)
    assert client().users.create(external_user_id=again.external_user_id, idempotency_key=mine).id == again.id


def test_a_post_whose_first_attempt_never_finished_is_retried_after_retry_after(caplog):
    key = str(uuid.uuid4())
    user = client().users.create(external_user_id=unique("cut-off"), idempotency_key=key)
    # As if the first attempt's process died before keeping its reply: the
    # key stays reserved, with nothing to replay, until it goes stale.
    path = os.environ["SAIL_DATABASE_URL"].removeprefix("sqlite://").split("?")[0]
    with sqlite3.connect(path, timeout=10) as db:
        db.execute("UPDATE idempotency_keys SET response_hex = NULL "
                   "WHERE created_at = (SELECT max(created_at) FROM idempotency_keys)")
    with caplog.at_level(logging.INFO, logger="sail"), pytest.raises(sail.ConflictError) as conflict:
        client(max_retries=2).users.create(external_user_id=user.external_user_id, idempotency_key=key)
    assert conflict.value.code == "idempotency_key_reused" and "still in progress" in conflict.value.message
    assert sum("answered 409" in message for message in caplog.messages) == 2, caplog.messages


def test_a_429_is_retried_after_retry_after(caplog):
    limited = os.environ["SAIL_LIMITED_KEY"]
    hasty = client(api_key=limited, max_retries=0)
    with pytest.raises(sail.RateLimitError) as refused:
        for _ in range(200):
            hasty.merchants.list(limit=1).page()
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.request_id
    # Faster than the key's limit, with retries: every call still succeeds,
    # some only after waiting out a 429's Retry-After.
    patient = client(api_key=limited, max_retries=5)
    with caplog.at_level(logging.INFO, logger="sail"):
        for _ in range(80):
            assert patient.merchants.list(limit=1).page().data
    assert any("answered 429" in message for message in caplog.messages), caplog.messages


def test_each_error_class_comes_from_a_real_refusal():
    api = client()
    with pytest.raises(sail.InvalidRequestError) as invalid:
        api.users.create(external_user_id="")
    assert invalid.value.param == "external_user_id" and invalid.value.status == 400
    with pytest.raises(sail.AuthenticationError) as unauthenticated:
        client(api_key="sk_test_not_a_key").users.list().page()
    assert unauthenticated.value.status == 401
    with pytest.raises(sail.PermissionError) as forbidden:
        client(api_key=os.environ["SAIL_TOKEN_ADMIN_KEY"]).users.list().page()
    assert forbidden.value.status == 403
    with pytest.raises(sail.NotFoundError) as missing:
        api.users.get("usr_00000000000000000000000000000000")
    assert missing.value.code == "not_found"
    taken = api.users.create(external_user_id=unique("dup"))
    with pytest.raises(sail.ConflictError) as conflict:
        api.users.create(external_user_id=taken.external_user_id)
    assert conflict.value.status == 409 and conflict.value.param == "external_user_id"
    with pytest.raises(sail.ServiceUnavailableError) as unavailable:
        client(base_url=os.environ["SAIL_ORPHAN_URL"], max_retries=1).users.list().page()
    assert unavailable.value.status == 503 and unavailable.value.code == "service_unavailable"
    for error in (invalid, unauthenticated, forbidden, missing, conflict, unavailable):
        assert isinstance(error.value, sail.ApiError) and error.value.request_id


def test_a_request_with_a_shape_per_value_takes_only_the_fields_of_its_shape():
    """A hosted session's options follow its flow and a sandbox
    connection's products its type: the document gives each value its own
    schema, so the library types each shape and refuses, before any request,
    a field the shape does not take."""
    api = client()
    user = api.users.create(external_user_id=unique("shapes"))
    store = api.merchants.list(search="walgreens", limit=1).page().data[0]
    session = api.hosted_sessions.create(user_id=user.id, flow="connect_account",
                                         options={"connection_type": "store", "merchant_id": store.id, "modal": True})
    assert session.options.connection_type.value == "store" and session.options.merchant_id == store.id
    receipt = api.hosted_sessions.create(user_id=user.id, flow="upload_receipt")
    assert receipt.flow.value == "upload_receipt"
    with pytest.raises(TypeError, match="options.merchant_id"):
        api.hosted_sessions.create(user_id=user.id, flow="connect_account",
                                   options={"connection_type": "card", "merchant_id": store.id})
    with pytest.raises(TypeError, match="options.modal"):
        api.hosted_sessions.create(user_id=user.id, flow="upload_receipt", options={"modal": True})
    with pytest.raises(TypeError, match="options"):
        api.hosted_sessions.create(user_id=user.id, flow="reconnect")
    linked = api.sandbox.create_connection(user_id=user.id, type="card", products=["expenses"])
    assert [p.value for p in linked.products] == ["expenses"]
    with pytest.raises(TypeError, match="identity"):
        api.sandbox.create_connection(user_id=user.id, type="card", products=["identity"])


def test_sail_listen_forwards_a_pushed_batch_that_the_library_verifies():
    """`sail listen` (docs/webhooks.md#local-development) brings a real
    push's transactions.ingested to a receiver on this machine, signed with
    the secret it prints, and sail.webhooks accepts it."""
    receiver = Receiver()
    listen = subprocess.Popen(
        [os.environ["SAIL_BIN"], "listen", "--forward-to", receiver.url, "--events", "transactions.ingested",
         "--poll-ms", "100"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    try:
        secret = None
        for line in listen.stderr:
            if "signing secret " in line:
                secret = line.split("signing secret ", 1)[1].split(")", 1)[0]
                break
        assert secret and secret.startswith("whsec_")
        threading.Thread(target=lambda: [None for _ in listen.stderr], daemon=True).start()

        api = client()
        user = api.users.create(external_user_id=unique("listen"))
        bank = api.connections.create(user.id, type="external", provider_label="Partner Bank")
        pushed = api.transactions.push(user.id, bank.id, transactions=[
            {"external_transaction_id": "t-1", "date": "2026-11-01", "amount": 9.99, "description": "WALGREENS #1",
             "mcc": "5912"},
        ])
        raw, headers = receiver.wait_for("transactions.ingested")
        sail.webhooks.verify(secret, headers["sail-signature"], raw)
        event = sail.webhooks.construct_event(raw, headers["sail-signature"], secret)
        assert event.data.job_id == pushed.job_id and event.data.user_id == user.id
        assert headers["sail-event-id"] == event.id
    finally:
        listen.terminate()
        assert listen.wait(timeout=15) == 0
