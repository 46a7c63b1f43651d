from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.expense_before_status import ExpenseBeforeStatus

T = TypeVar("T", bound="ExpenseBefore")


@_attrs_define
class ExpenseBefore:
    """An expense's status before a receipt decided it again.

    Attributes:
        status (ExpenseBeforeStatus):
    """

    status: ExpenseBeforeStatus

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = ExpenseBeforeStatus(d.pop("status"))

        expense_before = cls(
            status=status,
        )

        return expense_before
