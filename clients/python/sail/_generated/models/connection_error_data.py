from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.event_connection_error import EventConnectionError


T = TypeVar("T", bound="ConnectionErrorData")


@_attrs_define
class ConnectionErrorData:
    """A connection entered the `error` state.

    Attributes:
        connection_id (str):
        error (EventConnectionError): Why a connection is in `error`.
        type_ (str):
        user_id (str):
    """

    connection_id: str
    error: EventConnectionError
    type_: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        error = self.error.to_dict()

        type_ = self.type_

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
                "error": error,
                "type": type_,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_connection_error import EventConnectionError

        d = dict(src_dict)
        connection_id = d.pop("connection_id")

        error = EventConnectionError.from_dict(d.pop("error"))

        type_ = d.pop("type")

        user_id = d.pop("user_id")

        connection_error_data = cls(
            connection_id=connection_id,
            error=error,
            type_=type_,
            user_id=user_id,
        )

        return connection_error_data
