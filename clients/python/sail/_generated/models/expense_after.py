from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.expense_after_status import ExpenseAfterStatus

if TYPE_CHECKING:
    from ..models.event_optional_reason import EventOptionalReason


T = TypeVar("T", bound="ExpenseAfter")


@_attrs_define
class ExpenseAfter:
    """An expense as a receipt left it.

    Attributes:
        eligible_amount (float | None): The eligible part, in major units; null unless eligible.
        reason (EventOptionalReason): A reason that may be absent.
        status (ExpenseAfterStatus):
    """

    eligible_amount: float | None
    reason: EventOptionalReason
    status: ExpenseAfterStatus

    def to_dict(self) -> dict[str, Any]:
        eligible_amount: float | None
        eligible_amount = self.eligible_amount

        reason = self.reason.to_dict()

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eligible_amount": eligible_amount,
                "reason": reason,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_optional_reason import EventOptionalReason

        d = dict(src_dict)

        def _parse_eligible_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        eligible_amount = _parse_eligible_amount(d.pop("eligible_amount"))

        reason = EventOptionalReason.from_dict(d.pop("reason"))

        status = ExpenseAfterStatus(d.pop("status"))

        expense_after = cls(
            eligible_amount=eligible_amount,
            reason=reason,
            status=status,
        )

        return expense_after
