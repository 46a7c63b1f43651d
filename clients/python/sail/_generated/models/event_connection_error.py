from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EventConnectionError")


@_attrs_define
class EventConnectionError:
    """Why a connection is in `error`.

    Attributes:
        code (str):
        message (str):
        recoverable (bool): True when a `reconnect` hosted session can repair it.
    """

    code: str
    message: str
    recoverable: bool

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        recoverable = self.recoverable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "recoverable": recoverable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        recoverable = d.pop("recoverable")

        event_connection_error = cls(
            code=code,
            message=message,
            recoverable=recoverable,
        )

        return event_connection_error
