from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.user_status import UserStatus

T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """
    Attributes:
        created_at (datetime.datetime): RFC 3339, UTC.
        external_user_id (str): Echo of the partner's identifier supplied at creation.
        id (str): `usr_` + UUIDv7 hex.
        status (UserStatus): `active` | `inactive`.
    """

    created_at: datetime.datetime
    external_user_id: str
    id: str
    status: UserStatus

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        external_user_id = self.external_user_id

        id = self.id

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "external_user_id": external_user_id,
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        external_user_id = d.pop("external_user_id")

        id = d.pop("id")

        status = UserStatus(d.pop("status"))

        user = cls(
            created_at=created_at,
            external_user_id=external_user_id,
            id=id,
            status=status,
        )

        return user
