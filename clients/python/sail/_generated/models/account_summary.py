from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.account_summary_type import AccountSummaryType

T = TypeVar("T", bound="AccountSummary")


@_attrs_define
class AccountSummary:
    """
    Attributes:
        id (str):
        name (str):
        type_ (AccountSummaryType):
    """

    id: str
    name: str
    type_: AccountSummaryType

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        type_ = AccountSummaryType(d.pop("type"))

        account_summary = cls(
            id=id,
            name=name,
            type_=type_,
        )

        return account_summary
