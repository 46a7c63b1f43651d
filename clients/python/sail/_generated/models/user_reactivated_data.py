from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UserReactivatedData")


@_attrs_define
class UserReactivatedData:
    """A user was made `active` again: its syncs resume.

    Attributes:
        syncs_queued (int): The syncs queued for its connections.
        user_id (str):
    """

    syncs_queued: int
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        syncs_queued = self.syncs_queued

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "syncs_queued": syncs_queued,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        syncs_queued = d.pop("syncs_queued")

        user_id = d.pop("user_id")

        user_reactivated_data = cls(
            syncs_queued=syncs_queued,
            user_id=user_id,
        )

        return user_reactivated_data
