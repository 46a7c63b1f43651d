from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.expense_after import ExpenseAfter
    from ..models.expense_before import ExpenseBefore


T = TypeVar("T", bound="ExpenseReadjudicatedData")


@_attrs_define
class ExpenseReadjudicatedData:
    """An expense was decided again after a receipt (docs/receipts.md).

    Attributes:
        after (ExpenseAfter): An expense as a receipt left it.
        before (ExpenseBefore): An expense's status before a receipt decided it again.
        expense_id (str):
        receipt_id (str):
        user_id (str):
    """

    after: ExpenseAfter
    before: ExpenseBefore
    expense_id: str
    receipt_id: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        after = self.after.to_dict()

        before = self.before.to_dict()

        expense_id = self.expense_id

        receipt_id = self.receipt_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "after": after,
                "before": before,
                "expense_id": expense_id,
                "receipt_id": receipt_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense_after import ExpenseAfter
        from ..models.expense_before import ExpenseBefore

        d = dict(src_dict)
        after = ExpenseAfter.from_dict(d.pop("after"))

        before = ExpenseBefore.from_dict(d.pop("before"))

        expense_id = d.pop("expense_id")

        receipt_id = d.pop("receipt_id")

        user_id = d.pop("user_id")

        expense_readjudicated_data = cls(
            after=after,
            before=before,
            expense_id=expense_id,
            receipt_id=receipt_id,
            user_id=user_id,
        )

        return expense_readjudicated_data
