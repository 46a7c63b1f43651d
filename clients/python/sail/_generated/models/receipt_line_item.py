from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.receipt_line_item_status import ReceiptLineItemStatus

T = TypeVar("T", bound="ReceiptLineItem")


@_attrs_define
class ReceiptLineItem:
    """One line of a receipt and how it was classified.

    Attributes:
        amount (float):
        category (str): The item rule's category, as an expense item's `category` names it
            (`otc_medicine`, `groceries`…), or `unclassified` when no term of the
            product lexicon names the line, or `store_goods` when none names it and
            the purchase's category code is of a store that sells nothing for
            medical care (docs/receipts.md). At such a store a line whose category
            is care is `needs_review`: a person decides.
        description (str):
        reason (str): The same value as `category`, under its first name: kept for
            integrations that read it; read `category`.
        status (ReceiptLineItemStatus):
    """

    amount: float
    category: str
    description: str
    reason: str
    status: ReceiptLineItemStatus

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        category = self.category

        description = self.description

        reason = self.reason

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "category": category,
                "description": description,
                "reason": reason,
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

        reason = d.pop("reason")

        status = ReceiptLineItemStatus(d.pop("status"))

        receipt_line_item = cls(
            amount=amount,
            category=category,
            description=description,
            reason=reason,
            status=status,
        )

        return receipt_line_item
