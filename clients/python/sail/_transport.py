"""Retries, and the idempotency key that makes them safe, as an httpx
transport beneath the generated operations: every call gets them without
knowing.

- Every ``POST`` carries an ``Idempotency-Key``: the caller's, or a UUID
  made here once per call, so each retry of one call sends the same key and
  Sail answers a repeat with the first answer instead of acting twice.
- A connection error, a timeout, a ``429`` or a ``503`` is retried up to
  ``max_retries`` times, after the server's ``Retry-After`` when it gives one,
  else after an exponential backoff with full jitter (0.5 s doubling, at most
  8 s). So is a ``409`` that carries ``Retry-After``: the key's first request
  is still in progress (or was cut off, and its key is not yet free), and a
  retry will be answered. Each retry is logged on the ``sail`` logger at
  INFO.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
import uuid

import httpx

logger = logging.getLogger("sail")

RETRIED_STATUSES = frozenset({429, 503})
INITIAL_BACKOFF_S = 0.5
MAX_BACKOFF_S = 8.0
# A Retry-After longer than this is not waited out inside one call.
MAX_RETRY_AFTER_S = 60.0


def retry_after(response: httpx.Response) -> float | None:
    """Seconds the server asked to wait, from ``Retry-After`` (seconds or an HTTP date)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def retried(response: httpx.Response) -> bool:
    """Whether a retry of this answer's request may be answered otherwise."""
    in_progress = response.status_code == 409 and "retry-after" in response.headers
    return response.status_code in RETRIED_STATUSES or in_progress


def backoff(attempt: int) -> float:
    """Full jitter: a random wait up to the doubled base for this attempt."""
    return random.uniform(0, min(MAX_BACKOFF_S, INITIAL_BACKOFF_S * (2**attempt)))


class RetryingTransport(httpx.BaseTransport):
    """Wraps a transport with idempotency keys on POST and bounded retries."""

    def __init__(self, inner: httpx.BaseTransport, max_retries: int, sleep=time.sleep) -> None:
        self._inner = inner
        self._max_retries = max(0, max_retries)
        self._sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and "idempotency-key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        # A body that can be sent again: the generated operations build
        # requests from bytes, but a stream is read once here to be sure.
        request.read()
        attempt = 0
        while True:
            try:
                response = self._inner.handle_request(request)
            except (httpx.TransportError,) as err:
                if attempt >= self._max_retries:
                    raise
                wait = backoff(attempt)
                logger.info("sail: %s %s failed (%s); retry %d in %.2fs",
                            request.method, request.url.path, type(err).__name__, attempt + 1, wait)
            else:
                if not retried(response) or attempt >= self._max_retries:
                    return response
                response.read()
                response.close()
                asked = retry_after(response)
                wait = asked if asked is not None else backoff(attempt)
                logger.info("sail: %s %s answered %d; retry %d in %.2fs",
                            request.method, request.url.path, response.status_code, attempt + 1, wait)
            self._sleep(wait)
            attempt += 1

    def close(self) -> None:
        self._inner.close()
