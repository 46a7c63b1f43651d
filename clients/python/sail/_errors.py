"""Errors a call raises: one class per family of refusal, each carrying the
envelope's ``code``, ``param`` and ``message``, the HTTP status and the
request id to quote to Sail's support."""

from __future__ import annotations

import json
from typing import Any


class SailError(Exception):
    """Anything this library raises."""


class ApiError(SailError):
    """Sail answered with an error envelope (``{"error": {code, message, param}}``)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        param: str | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.param = param
        self.request_id = request_id

    def __str__(self) -> str:
        where = f" (param: {self.param})" if self.param else ""
        return f"{self.status} {self.code}: {self.message}{where} [request {self.request_id}]"


class InvalidRequestError(ApiError):
    """400 and 422: the request itself is wrong; retrying it as is cannot help."""


class AuthenticationError(ApiError):
    """401: no key, an unknown or revoked key, or a user token that does not open."""


class PermissionError(ApiError):  # noqa: A001 - the name partners look for
    """403: the key lacks a scope, or the user token does not cover the call."""


class NotFoundError(ApiError):
    """404: no such resource for this partner."""


class ConflictError(ApiError):
    """409: the resource exists already, is inactive, or an idempotency key was reused."""


class RateLimitError(ApiError):
    """429 after every retry: the key's rate limit."""


class ServiceUnavailableError(ApiError):
    """503 after every retry (or another 5xx): Sail could not take the call now."""


class SignatureVerificationError(SailError):
    """A webhook whose signature does not verify: drop it."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def from_response(status: int, content: bytes, headers: Any) -> ApiError:
    """The error a refused response stands for."""
    error: dict[str, Any] = {}
    try:
        body = json.loads(content)
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            error = body["error"]
    except ValueError:
        pass
    cls = _BY_STATUS.get(status, ServiceUnavailableError if status >= 500 else ApiError)
    return cls(
        str(error.get("message") or f"HTTP {status}"),
        status=status,
        code=error.get("code"),
        param=error.get("param"),
        request_id=headers.get("request-id") if headers is not None else None,
    )
