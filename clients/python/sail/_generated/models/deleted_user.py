from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeletedUser")


@_attrs_define
class DeletedUser:
    """What is left of a deleted user: its id.

    Attributes:
        deleted (bool): Always true.
        id (str): The id the user had.
    """

    deleted: bool
    id: str

    def to_dict(self) -> dict[str, Any]:
        deleted = self.deleted

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deleted": deleted,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        deleted = d.pop("deleted")

        id = d.pop("id")

        deleted_user = cls(
            deleted=deleted,
            id=id,
        )

        return deleted_user
