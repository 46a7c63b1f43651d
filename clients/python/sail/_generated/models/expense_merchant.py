from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ExpenseMerchant")


@_attrs_define
class ExpenseMerchant:
    """
    Attributes:
        id (None | str): A merchant of GET /merchants, when the purchase resolved to one.
        name (str):
    """

    id: None | str
    name: str

    def to_dict(self) -> dict[str, Any]:
        id: None | str
        id = self.id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))

        name = d.pop("name")

        expense_merchant = cls(
            id=id,
            name=name,
        )

        return expense_merchant
