from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.event_reason import EventReason


T = TypeVar("T", bound="ReceiptUnreadableData")


@_attrs_define
class ReceiptUnreadableData:
    """A receipt gave no text; the codes are in docs/receipts.md.

    Attributes:
        expense_id (str):
        reason (EventReason): A machine-readable code and a human-readable message.
        receipt_id (str):
        user_id (str):
    """

    expense_id: str
    reason: EventReason
    receipt_id: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        expense_id = self.expense_id

        reason = self.reason.to_dict()

        receipt_id = self.receipt_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expense_id": expense_id,
                "reason": reason,
                "receipt_id": receipt_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_reason import EventReason

        d = dict(src_dict)
        expense_id = d.pop("expense_id")

        reason = EventReason.from_dict(d.pop("reason"))

        receipt_id = d.pop("receipt_id")

        user_id = d.pop("user_id")

        receipt_unreadable_data = cls(
            expense_id=expense_id,
            reason=reason,
            receipt_id=receipt_id,
            user_id=user_id,
        )

        return receipt_unreadable_data
