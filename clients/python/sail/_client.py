"""The client partners use: resources by area, a method per operation,
over the operations and models generated from Sail's OpenAPI document
(``sail._generated``, made by ``scripts/generate-clients.sh``; never edited
by hand). This layer adds what the generator cannot know: plain Python
arguments in, typed models out, errors raised as exceptions, list methods
that follow pages, and (beneath, in ``_transport``) retries with idempotency
keys."""

from __future__ import annotations

import datetime
import enum
import functools
import importlib
import inspect
import mimetypes
import os
import pkgutil
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import httpx

from . import _errors, _generated
from ._generated import models as _models  # noqa: F401 - loads every model
from ._generated import api
from ._generated.types import UNSET, File
from ._transport import RetryingTransport

# Every generated operation module, so `api.users.create_user` resolves.
for _module in pkgutil.walk_packages(api.__path__, api.__name__ + "."):
    importlib.import_module(_module.name)

DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1"

T = TypeVar("T")


@functools.cache
def _signature(operation: types.ModuleType) -> inspect.Signature:
    """A generated operation's parameters, read once."""
    return inspect.signature(operation.sync_detailed)


def _coerce(annotation: Any, value: Any) -> Any:
    """A plain value as the generated signature wants it: an enum member
    for a string, a date for an ISO date string."""
    candidates = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    for candidate in candidates:
        if isinstance(candidate, type) and issubclass(candidate, enum.Enum) and not isinstance(value, candidate):
            return candidate(value)
        if candidate is datetime.date and isinstance(value, str):
            return datetime.date.fromisoformat(value)
    return value


def _dropped(sent: Any, kept: Any, at: str = "") -> str | None:
    """The first field of ``sent`` (dotted) that the model ``kept`` left
    out: a field the request does not take. ``None`` counts as not sent."""
    if isinstance(sent, dict) and isinstance(kept, dict):
        for name, value in sent.items():
            if value is None:
                continue
            if name not in kept:
                return f"{at}{name}"
            inner = _dropped(value, kept[name], f"{at}{name}.")
            if inner:
                return inner
    if isinstance(sent, list) and isinstance(kept, list):
        for index, (value, model) in enumerate(zip(sent, kept)):
            inner = _dropped(value, model, f"{at}{index}.")
            if inner:
                return inner
    return None


def _body(name: str, annotation: Any, body: dict) -> Any:
    """A request body as the generated model the operation takes. Where the
    document gives a request one shape per value of a field (a hosted
    session's ``flow``, a sandbox connection's ``type``), the annotation is
    a union and the shape is the member that takes the body whole; a field
    no shape takes raises ``TypeError`` naming it, as an unknown keyword
    argument does."""
    members = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    # Why each shape refused the body; a shape of another value (the
    # generated models say "must match const") explains least.
    refusals: list[TypeError] = []
    for member in members:
        try:
            model = member.from_dict(body)
        except KeyError as missing:
            refusals.append(TypeError(f"{name}() is missing the field {missing.args[0]!r}"))
            continue
        except (TypeError, ValueError, AttributeError) as wrong:
            refusals.append(TypeError(f"{name}(): {wrong}"))
            continue
        extra = _dropped(body, model.to_dict())
        if extra is None:
            return model
        refusals.append(TypeError(f"{name}() takes no field {extra!r} here"))
    refusals.sort(key=lambda refusal: "must match const" in str(refusal))
    raise refusals[0] if refusals else TypeError(f"{name}(): the body matches no shape of the request")


class Page(Generic[T]):
    """One page of a list: ``data`` and its ``pagination`` (``total``,
    ``limit``, ``offset``, ``has_more``)."""

    def __init__(self, data: list[T], pagination: Any) -> None:
        self.data = data
        self.pagination = pagination

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class ListIterator(Generic[T]):
    """Every item of a list, fetched a page at a time as iteration needs
    them (following ``has_more`` and ``offset``); ``.page()`` is the first
    page alone."""

    def __init__(self, fetch: Callable[[int], Any], offset: int = 0) -> None:
        self._fetch = fetch
        self._offset = offset

    def page(self) -> Page[T]:
        reply = self._fetch(self._offset)
        return Page(list(reply.data), reply.pagination)

    def __iter__(self) -> Iterator[T]:
        offset = self._offset
        while True:
            reply = self._fetch(offset)
            yield from reply.data
            if not reply.pagination.has_more or not reply.data:
                return
            offset += len(reply.data)


class _Resource:
    def __init__(self, client: Client) -> None:
        self._client = client

    def _call(self, operation: types.ModuleType, *path: str, body: dict | None = None, **query: Any) -> Any:
        return self._client._call(operation, path, body, query)

    def _list(self, operation: types.ModuleType, *path: str, limit: int | None = None, offset: int = 0,
              **query: Any) -> ListIterator:
        def fetch(at: int) -> Any:
            return self._call(operation, *path, limit=limit, offset=at or None, **query)

        return ListIterator(fetch, offset)


def _fields(**fields: Any) -> dict:
    """A request body of the fields given (``None`` means not sent)."""
    return {name: value for name, value in fields.items() if value is not None}


class Users(_Resource):
    def create(self, *, external_user_id: str, email: str | None = None, phone: str | None = None,
               idempotency_key: str | None = None, **more: Any):
        return self._call(api.users.create_user, body=_fields(external_user_id=external_user_id, email=email,
                                                             phone=phone, **more),
                          idempotency_key=idempotency_key)

    def get(self, user_id: str):
        return self._call(api.users.get_user, user_id)

    def list(self, *, status: str | None = None, limit: int | None = None) -> ListIterator:
        return self._list(api.users.list_users, status=status, limit=limit)

    def update(self, user_id: str, **fields: Any):
        return self._call(api.users.update_user, user_id, body=_fields(**fields))

    def delete(self, user_id: str):
        return self._call(api.users.delete_user, user_id)

    def export(self, user_id: str, *, user_token: str | None = None):
        return self._call(api.identity.export_user, user_id, sail_user_token=user_token)


class Connections(_Resource):
    def create(self, user_id: str, *, type: str, idempotency_key: str | None = None, **fields: Any):
        return self._call(api.connections.create_connection, user_id, body=_fields(type=type, **fields),
                          idempotency_key=idempotency_key)

    def get(self, user_id: str, connection_id: str):
        return self._call(api.connections.get_connection, user_id, connection_id)

    def list(self, user_id: str, *, limit: int | None = None) -> ListIterator:
        return self._list(api.connections.list_connections, user_id, limit=limit)

    def delete(self, user_id: str, connection_id: str):
        return self._call(api.connections.delete_connection, user_id, connection_id)


class Accounts(_Resource):
    def list(self, user_id: str, *, connection_id: str | None = None, type: str | None = None,
             limit: int | None = None) -> ListIterator:
        return self._list(api.accounts.list_accounts, user_id, connection_id=connection_id, type_=type, limit=limit)

    def get(self, user_id: str, account_id: str):
        return self._call(api.accounts.get_account, user_id, account_id)

    def numbers(self, user_id: str, account_id: str, *, user_token: str | None = None):
        return self._call(api.accounts.get_account_numbers, user_id, account_id, sail_user_token=user_token)


class Identity(_Resource):
    def get(self, user_id: str, *, user_token: str | None = None):
        return self._call(api.identity.get_identity, user_id, sail_user_token=user_token)


class Transactions(_Resource):
    def push(self, user_id: str, connection_id: str, *, transactions: list[dict],
             idempotency_key: str | None = None):
        return self._call(api.transactions.push_transactions, user_id, connection_id,
                          body={"transactions": transactions}, idempotency_key=idempotency_key)


class Expenses(_Resource):
    def list(self, user_id: str, *, status: str | None = None, connection_id: str | None = None,
             from_: str | datetime.date | None = None, to: str | datetime.date | None = None,
             limit: int | None = None) -> ListIterator:
        return self._list(api.expenses.list_expenses, user_id, status=status, connection_id=connection_id,
                          from_=from_, to=to, limit=limit)

    def get(self, user_id: str, expense_id: str):
        return self._call(api.expenses.get_expense, user_id, expense_id)


class Receipts(_Resource):
    def upload(self, user_id: str, expense_id: str, *, file: str | os.PathLike | bytes | typing.BinaryIO,
               file_name: str | None = None, content_type: str | None = None, idempotency_key: str | None = None):
        """Uploads a receipt (a path, bytes, or an open binary file)."""
        if isinstance(file, (str, os.PathLike)):
            file_name = file_name or os.path.basename(os.fspath(file))
            with open(file, "rb") as handle:
                payload = handle.read()
        elif isinstance(file, bytes):
            payload = file
        else:
            payload = file.read()
            file_name = file_name or os.path.basename(getattr(file, "name", "") or "") or None
        file_name = file_name or "receipt"
        content_type = content_type or mimetypes.guess_type(file_name)[0] or "application/octet-stream"
        body = _generated.models.CreateReceiptBody(
            file=File(payload=payload, file_name=file_name, mime_type=content_type))
        return self._client._call(api.receipts.create_receipt, (user_id, expense_id), body,
                                  {"idempotency_key": idempotency_key})

    def get(self, user_id: str, expense_id: str, receipt_id: str):
        return self._call(api.receipts.get_receipt, user_id, expense_id, receipt_id)


class Jobs(_Resource):
    def get(self, job_id: str):
        return self._call(api.jobs.get_job, job_id)


class UserTokens(_Resource):
    def create(self, *, scopes: list[str], user_id: str | None = None, external_user_id: str | None = None,
               ttl_seconds: int | None = None, idempotency_key: str | None = None):
        """Needs a ``token_admin`` key (a client of its own)."""
        body = _fields(scopes=scopes, user_id=user_id, external_user_id=external_user_id, ttl_seconds=ttl_seconds)
        return self._call(api.user_tokens.create_user_token, body=body, idempotency_key=idempotency_key)

    def delete(self, user_token_id: str):
        return self._call(api.user_tokens.delete_user_token, user_token_id)


class HostedSessions(_Resource):
    def create(self, *, user_id: str, flow: str, idempotency_key: str | None = None, **fields: Any):
        return self._call(api.hosted_sessions.create_hosted_session, body=_fields(user_id=user_id, flow=flow, **fields),
                          idempotency_key=idempotency_key)

    def get(self, hosted_session_id: str):
        return self._call(api.hosted_sessions.get_hosted_session, hosted_session_id)

    def list(self, *, user_id: str | None = None, status: str | None = None, limit: int | None = None) -> ListIterator:
        return self._list(api.hosted_sessions.list_hosted_sessions, user_id=user_id, status=status, limit=limit)


class WebhookEndpoints(_Resource):
    def create(self, *, url: str, events: list[str] | None = None, idempotency_key: str | None = None):
        return self._call(api.webhook_endpoints.create_webhook_endpoint, body=_fields(url=url, events=events),
                          idempotency_key=idempotency_key)

    def list(self, *, limit: int | None = None) -> ListIterator:
        return self._list(api.webhook_endpoints.list_webhook_endpoints, limit=limit)

    def delete(self, webhook_endpoint_id: str):
        return self._call(api.webhook_endpoints.delete_webhook_endpoint, webhook_endpoint_id)


class Events(_Resource):
    def list(self, *, type: str | None = None, limit: int | None = None) -> ListIterator:
        return self._list(api.events.list_events, type_=type, limit=limit)

    def get(self, event_id: str):
        return self._call(api.events.get_event, event_id)

    def redeliver(self, event_id: str, *, idempotency_key: str | None = None):
        return self._call(api.events.redeliver_event, event_id, idempotency_key=idempotency_key)


class Merchants(_Resource):
    def list(self, *, search: str | None = None, limit: int | None = None) -> ListIterator:
        return self._list(api.merchants.list_merchants, search=search, limit=limit)


class Administrators(_Resource):
    def list(self, *, search: str | None = None, limit: int | None = None) -> ListIterator:
        return self._list(api.administrators.list_administrators, search=search, limit=limit)


class Sandbox(_Resource):
    def create_connection(self, *, user_id: str, type: str, idempotency_key: str | None = None, **fields: Any):
        return self._call(api.sandbox.create_sandbox_connection, body=_fields(user_id=user_id, type=type, **fields),
                          idempotency_key=idempotency_key)

    def create_event(self, *, type: str, user_id: str | None = None, idempotency_key: str | None = None):
        """Fires a test event of ``type`` to your endpoints (sandbox mode)."""
        return self._call(api.sandbox.create_sandbox_event, body=_fields(type=type, user_id=user_id),
                          idempotency_key=idempotency_key)


class Client:
    """A Sail client for one API key.

    ``Client(api_key="sk_…", base_url="https://…/api/v1", user_token=None,
    max_retries=2, timeout=30)``. ``user_token`` is sent on the calls that
    read personal data (identity, account numbers, export) unless a call
    names its own.
    """

    def __init__(self, api_key: str | None = None, *, base_url: str | None = None, user_token: str | None = None,
                 max_retries: int = 2, timeout: float = 30.0, transport: httpx.BaseTransport | None = None) -> None:
        api_key = api_key or os.environ.get("SAIL_KEY")
        if not api_key:
            raise _errors.SailError("an API key is needed: Client(api_key=...) or SAIL_KEY")
        base_url = (base_url or os.environ.get("SAIL_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.user_token = user_token
        self._http = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {api_key}", "User-Agent": "sail-python/0.1.0"},
            timeout=timeout,
            transport=RetryingTransport(transport or httpx.HTTPTransport(), max_retries),
        )
        self._generated = _generated.AuthenticatedClient(base_url=base_url, token=api_key)
        self._generated.set_httpx_client(self._http)
        self.users = Users(self)
        self.connections = Connections(self)
        self.accounts = Accounts(self)
        self.identity = Identity(self)
        self.transactions = Transactions(self)
        self.expenses = Expenses(self)
        self.receipts = Receipts(self)
        self.jobs = Jobs(self)
        self.user_tokens = UserTokens(self)
        self.hosted_sessions = HostedSessions(self)
        self.webhook_endpoints = WebhookEndpoints(self)
        self.events = Events(self)
        self.merchants = Merchants(self)
        self.administrators = Administrators(self)
        self.sandbox = Sandbox(self)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, operation: types.ModuleType, path: tuple, body: Any, query: dict) -> Any:
        """Calls one generated operation; raises the refusal as an ApiError."""
        signature = _signature(operation)
        kwargs: dict[str, Any] = {}
        if "sail_user_token" in signature.parameters:
            query = {**query, "sail_user_token": query.get("sail_user_token") or self.user_token}
        for name, value in query.items():
            if value is None:
                continue
            if name not in signature.parameters:
                raise TypeError(f"{operation.__name__.rsplit('.', 1)[-1]}() takes no argument {name!r}")
            kwargs[name] = _coerce(signature.parameters[name].annotation, value)
        if body is not None:
            name = operation.__name__.rsplit(".", 1)[-1]
            annotation = signature.parameters["body"].annotation
            kwargs["body"] = body if not isinstance(body, dict) else _body(name, annotation, body)
        response = operation.sync_detailed(*path, client=self._generated, **kwargs)
        if response.status_code >= 400:
            raise _errors.from_response(int(response.status_code), response.content, response.headers)
        return response.parsed
