from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EventOptionalReason")


@_attrs_define
class EventOptionalReason:
    """A reason that may be absent.

    Attributes:
        code (None | str):
        message (None | str):
    """

    code: None | str
    message: None | str

    def to_dict(self) -> dict[str, Any]:
        code: None | str
        code = self.code

        message: None | str
        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        code = _parse_code(d.pop("code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        event_optional_reason = cls(
            code=code,
            message=message,
        )

        return event_optional_reason
