from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ach_numbers import AchNumbers


T = TypeVar("T", bound="AccountNumbers")


@_attrs_define
class AccountNumbers:
    """The account numbers of one account.

    Attributes:
        account_id (str):
        ach (AchNumbers): The numbers that move money into an account by ACH.
        connection_id (str):
    """

    account_id: str
    ach: AchNumbers
    connection_id: str

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        ach = self.ach.to_dict()

        connection_id = self.connection_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_id": account_id,
                "ach": ach,
                "connection_id": connection_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ach_numbers import AchNumbers

        d = dict(src_dict)
        account_id = d.pop("account_id")

        ach = AchNumbers.from_dict(d.pop("ach"))

        connection_id = d.pop("connection_id")

        account_numbers = cls(
            account_id=account_id,
            ach=ach,
            connection_id=connection_id,
        )

        return account_numbers
