from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="UserDeletedData")


@_attrs_define
class UserDeletedData:
    """A user was deleted for good (DELETE /users/{user_id}). Ids only: nothing
    else about the user is left to send.

        Attributes:
            connection_ids (list[str]): The partner's connections of the user that were closed with it.
            user_id (str):
    """

    connection_ids: list[str]
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        connection_ids = self.connection_ids

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_ids": connection_ids,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_ids = cast(list[str], d.pop("connection_ids"))

        user_id = d.pop("user_id")

        user_deleted_data = cls(
            connection_ids=connection_ids,
            user_id=user_id,
        )

        return user_deleted_data
