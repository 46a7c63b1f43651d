from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ConnectionRecoveredData")


@_attrs_define
class ConnectionRecoveredData:
    """A connection left `error`: a `reconnect` hosted session repaired it.

    Attributes:
        connection_id (str):
        hosted_session_id (str): The hosted session that repaired it.
        type_ (str):
        user_id (str):
    """

    connection_id: str
    hosted_session_id: str
    type_: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        hosted_session_id = self.hosted_session_id

        type_ = self.type_

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
                "hosted_session_id": hosted_session_id,
                "type": type_,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connection_id")

        hosted_session_id = d.pop("hosted_session_id")

        type_ = d.pop("type")

        user_id = d.pop("user_id")

        connection_recovered_data = cls(
            connection_id=connection_id,
            hosted_session_id=hosted_session_id,
            type_=type_,
            user_id=user_id,
        )

        return connection_recovered_data
