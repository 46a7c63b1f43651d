from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """
    Attributes:
        attempted_at (datetime.datetime):
        delivered (bool):
        endpoint_id (str):
        error (None | str): Why the attempt failed, and only that: `connection_failed`, `timeout`,
            or `http_<status>` for a non-2xx answer; null when delivered.
        latency_ms (int):
        status_code (int | None):
    """

    attempted_at: datetime.datetime
    delivered: bool
    endpoint_id: str
    error: None | str
    latency_ms: int
    status_code: int | None

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        delivered = self.delivered

        endpoint_id = self.endpoint_id

        error: None | str
        error = self.error

        latency_ms = self.latency_ms

        status_code: int | None
        status_code = self.status_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempted_at": attempted_at,
                "delivered": delivered,
                "endpoint_id": endpoint_id,
                "error": error,
                "latency_ms": latency_ms,
                "status_code": status_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        delivered = d.pop("delivered")

        endpoint_id = d.pop("endpoint_id")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        latency_ms = d.pop("latency_ms")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        delivery_attempt = cls(
            attempted_at=attempted_at,
            delivered=delivered,
            endpoint_id=endpoint_id,
            error=error,
            latency_ms=latency_ms,
            status_code=status_code,
        )

        return delivery_attempt
