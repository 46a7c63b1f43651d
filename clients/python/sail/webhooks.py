"""Webhook verification: check ``Sail-Signature`` against the raw bytes of
the request body, exactly as received. Never verify a body you parsed and
serialised again: the bytes differ, and the signature with them.

``Sail-Signature: t=<unix seconds>,v1=<hex>`` where ``v1`` is
HMAC-SHA256(secret, ``"<t>." + raw body``); a ``t`` further than
``tolerance`` seconds from now is refused, so a captured delivery cannot be
replayed later.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

from . import _generated
from ._errors import SignatureVerificationError

DEFAULT_TOLERANCE_S = 300


def verify(secret: str, signature_header: str, raw_body: bytes | str, tolerance: int = DEFAULT_TOLERANCE_S) -> None:
    """Raises :class:`SignatureVerificationError` unless the signature holds."""
    if isinstance(raw_body, str):
        raw_body = raw_body.encode()
    timestamp: int | None = None
    candidates: list[str] = []
    for part in (signature_header or "").split(","):
        key, _, value = part.strip().partition("=")
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                timestamp = None
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not candidates:
        raise SignatureVerificationError("Sail-Signature is not of the form t=<unix seconds>,v1=<hex>")
    if abs(time.time() - timestamp) > tolerance:
        raise SignatureVerificationError(f"the signature's timestamp is more than {tolerance} s from now")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, candidate) for candidate in candidates):
        raise SignatureVerificationError("no v1 signature matches the body and secret")


@dataclass(frozen=True)
class WebhookEvent:
    """A delivered event: ``data`` is the generated model of its ``type``
    (``TransactionsIngestedData`` for ``transactions.ingested``, …), or the
    plain dict for a type this version of the library does not know."""

    id: str
    type: str
    created_at: datetime.datetime
    data: Any
    raw: dict


def data_model(event_type: str) -> type | None:
    """The generated model of an event type's ``data``."""
    name = "".join(word.capitalize() for part in event_type.split(".") for word in part.split("_")) + "Data"
    return getattr(_generated.models, name, None)


def construct_event(raw_body: bytes | str, signature_header: str, secret: str,
                    tolerance: int = DEFAULT_TOLERANCE_S) -> WebhookEvent:
    """Verifies the delivery, then parses it into a typed event."""
    verify(secret, signature_header, raw_body, tolerance)
    body = json.loads(raw_body)
    model = data_model(body["type"])
    data = model.from_dict(body["data"]) if model is not None else body["data"]
    created_at = datetime.datetime.fromisoformat(body["created_at"].replace("Z", "+00:00"))
    return WebhookEvent(id=body["id"], type=body["type"], created_at=created_at, data=data, raw=body)
