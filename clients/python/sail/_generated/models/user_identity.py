from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.identity_record import IdentityRecord


T = TypeVar("T", bound="UserIdentity")


@_attrs_define
class UserIdentity:
    """
    Attributes:
        records (list[IdentityRecord]):
        user_id (str):
    """

    records: list[IdentityRecord]
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "records": records,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.identity_record import IdentityRecord

        d = dict(src_dict)
        records = []
        _records = d.pop("records")
        for records_item_data in _records:
            records_item = IdentityRecord.from_dict(records_item_data)

            records.append(records_item)

        user_id = d.pop("user_id")

        user_identity = cls(
            records=records,
            user_id=user_id,
        )

        return user_identity
