from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.receipt_content_type import ReceiptContentType
from ..models.receipt_status import ReceiptStatus

if TYPE_CHECKING:
    from ..models.expense_reason import ExpenseReason
    from ..models.receipt_line_item import ReceiptLineItem


T = TypeVar("T", bound="Receipt")


@_attrs_define
class Receipt:
    """An itemized receipt attached to an expense (docs/receipts.md): what Sail
    read from it and what it decided. Fields not yet known are null.

        Attributes:
            content_type (ReceiptContentType): Sniffed from the bytes, never taken from the file name.
            created_at (datetime.datetime):
            date (datetime.date | None): The purchase date the receipt shows.
            eligible_amount (float | None): The eligible part of the receipt's lines.
            expense_id (str):
            id (str): `rcpt_` + UUIDv7 hex.
            line_items (list[ReceiptLineItem]):
            merchant (None | str): The merchant as the receipt names it.
            read_at (datetime.datetime | None):
            reason (ExpenseReason | None): Why the receipt did not decide the expense (unreadable, or another
                purchase); null when it did.
            sha256 (str): Hex SHA-256 of the file.
            size_bytes (int):
            status (ReceiptStatus): `processing` until it has been read, then `read` or `unreadable`.
            total (float | None): The total the receipt shows.
    """

    content_type: ReceiptContentType
    created_at: datetime.datetime
    date: datetime.date | None
    eligible_amount: float | None
    expense_id: str
    id: str
    line_items: list[ReceiptLineItem]
    merchant: None | str
    read_at: datetime.datetime | None
    reason: ExpenseReason | None
    sha256: str
    size_bytes: int
    status: ReceiptStatus
    total: float | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.expense_reason import ExpenseReason

        content_type = self.content_type.value

        created_at = self.created_at.isoformat()

        date: None | str
        if isinstance(self.date, datetime.date):
            date = self.date.isoformat()
        else:
            date = self.date

        eligible_amount: float | None
        eligible_amount = self.eligible_amount

        expense_id = self.expense_id

        id = self.id

        line_items = []
        for line_items_item_data in self.line_items:
            line_items_item = line_items_item_data.to_dict()
            line_items.append(line_items_item)

        merchant: None | str
        merchant = self.merchant

        read_at: None | str
        if isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        reason: dict[str, Any] | None
        if isinstance(self.reason, ExpenseReason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason

        sha256 = self.sha256

        size_bytes = self.size_bytes

        status = self.status.value

        total: float | None
        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content_type": content_type,
                "created_at": created_at,
                "date": date,
                "eligible_amount": eligible_amount,
                "expense_id": expense_id,
                "id": id,
                "line_items": line_items,
                "merchant": merchant,
                "read_at": read_at,
                "reason": reason,
                "sha256": sha256,
                "size_bytes": size_bytes,
                "status": status,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense_reason import ExpenseReason
        from ..models.receipt_line_item import ReceiptLineItem

        d = dict(src_dict)
        content_type = ReceiptContentType(d.pop("content_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_type_0 = datetime.date.fromisoformat(data)

                return date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        date = _parse_date(d.pop("date"))

        def _parse_eligible_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        eligible_amount = _parse_eligible_amount(d.pop("eligible_amount"))

        expense_id = d.pop("expense_id")

        id = d.pop("id")

        line_items = []
        _line_items = d.pop("line_items")
        for line_items_item_data in _line_items:
            line_items_item = ReceiptLineItem.from_dict(line_items_item_data)

            line_items.append(line_items_item)

        def _parse_merchant(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merchant = _parse_merchant(d.pop("merchant"))

        def _parse_read_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)

                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        read_at = _parse_read_at(d.pop("read_at"))

        def _parse_reason(data: object) -> ExpenseReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = ExpenseReason.from_dict(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExpenseReason | None, data)

        reason = _parse_reason(d.pop("reason"))

        sha256 = d.pop("sha256")

        size_bytes = d.pop("size_bytes")

        status = ReceiptStatus(d.pop("status"))

        def _parse_total(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        total = _parse_total(d.pop("total"))

        receipt = cls(
            content_type=content_type,
            created_at=created_at,
            date=date,
            eligible_amount=eligible_amount,
            expense_id=expense_id,
            id=id,
            line_items=line_items,
            merchant=merchant,
            read_at=read_at,
            reason=reason,
            sha256=sha256,
            size_bytes=size_bytes,
            status=status,
            total=total,
        )

        return receipt
