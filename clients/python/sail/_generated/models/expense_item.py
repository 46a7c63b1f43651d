from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.expense_item_status import ExpenseItemStatus

T = TypeVar("T", bound="ExpenseItem")


@_attrs_define
class ExpenseItem:
    """
    Attributes:
        amount (float):
        category (str):
        description (str):
        status (ExpenseItemStatus):
    """

    amount: float
    category: str
    description: str
    status: ExpenseItemStatus

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        category = self.category

        description = self.description

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "category": category,
                "description": description,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        category = d.pop("category")

        description = d.pop("description")

        status = ExpenseItemStatus(d.pop("status"))

        expense_item = cls(
            amount=amount,
            category=category,
            description=description,
            status=status,
        )

        return expense_item
