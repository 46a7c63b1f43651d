from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UserDeactivatedData")


@_attrs_define
class UserDeactivatedData:
    """A user was made `inactive` (`PATCH /users/{user_id}`): its syncs stop and
    pushes, new connections and hosted sessions for it are refused.

        Attributes:
            user_id (str):
    """

    user_id: str

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        user_deactivated_data = cls(
            user_id=user_id,
        )

        return user_deactivated_data
