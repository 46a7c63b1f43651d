from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.expense_status import ExpenseStatus

if TYPE_CHECKING:
    from ..models.expense_evidence import ExpenseEvidence
    from ..models.expense_item import ExpenseItem
    from ..models.expense_merchant import ExpenseMerchant
    from ..models.expense_reason import ExpenseReason
    from ..models.receipt import Receipt


T = TypeVar("T", bound="Expense")


@_attrs_define
class Expense:
    """
    Attributes:
        adjudicated_at (datetime.datetime | None):
        amount (float):
        category (None | str):
        connection_id (str):
        created_at (datetime.datetime):
        currency (str):
        date (datetime.date):
        description (str):
        eligible_amount (float | None): The part of `amount` substantiated as eligible.
        evidence (list[ExpenseEvidence]): The facts that decided the status, strongest first: the merchant, words
            or category code. Empty while pending and when nothing was found.
        external_transaction_id (str):
        id (str):
        items (list[ExpenseItem]): Per-item outcomes, for purchases with item-level data.
        merchant (ExpenseMerchant | None):
        reason (ExpenseReason | None):
        receipts (list[Receipt]):
        rule (None | str): The engine rule that decided the status.
        status (ExpenseStatus):
        updated_at (datetime.datetime):
        user_id (str):
    """

    adjudicated_at: datetime.datetime | None
    amount: float
    category: None | str
    connection_id: str
    created_at: datetime.datetime
    currency: str
    date: datetime.date
    description: str
    eligible_amount: float | None
    evidence: list[ExpenseEvidence]
    external_transaction_id: str
    id: str
    items: list[ExpenseItem]
    merchant: ExpenseMerchant | None
    reason: ExpenseReason | None
    receipts: list[Receipt]
    rule: None | str
    status: ExpenseStatus
    updated_at: datetime.datetime
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.expense_merchant import ExpenseMerchant
        from ..models.expense_reason import ExpenseReason

        adjudicated_at: None | str
        if isinstance(self.adjudicated_at, datetime.datetime):
            adjudicated_at = self.adjudicated_at.isoformat()
        else:
            adjudicated_at = self.adjudicated_at

        amount = self.amount

        category: None | str
        category = self.category

        connection_id = self.connection_id

        created_at = self.created_at.isoformat()

        currency = self.currency

        date = self.date.isoformat()

        description = self.description

        eligible_amount: float | None
        eligible_amount = self.eligible_amount

        evidence = []
        for evidence_item_data in self.evidence:
            evidence_item = evidence_item_data.to_dict()
            evidence.append(evidence_item)

        external_transaction_id = self.external_transaction_id

        id = self.id

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        merchant: dict[str, Any] | None
        if isinstance(self.merchant, ExpenseMerchant):
            merchant = self.merchant.to_dict()
        else:
            merchant = self.merchant

        reason: dict[str, Any] | None
        if isinstance(self.reason, ExpenseReason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason

        receipts = []
        for receipts_item_data in self.receipts:
            receipts_item = receipts_item_data.to_dict()
            receipts.append(receipts_item)

        rule: None | str
        rule = self.rule

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "adjudicated_at": adjudicated_at,
                "amount": amount,
                "category": category,
                "connection_id": connection_id,
                "created_at": created_at,
                "currency": currency,
                "date": date,
                "description": description,
                "eligible_amount": eligible_amount,
                "evidence": evidence,
                "external_transaction_id": external_transaction_id,
                "id": id,
                "items": items,
                "merchant": merchant,
                "reason": reason,
                "receipts": receipts,
                "rule": rule,
                "status": status,
                "updated_at": updated_at,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.expense_evidence import ExpenseEvidence
        from ..models.expense_item import ExpenseItem
        from ..models.expense_merchant import ExpenseMerchant
        from ..models.expense_reason import ExpenseReason
        from ..models.receipt import Receipt

        d = dict(src_dict)

        def _parse_adjudicated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                adjudicated_at_type_0 = datetime.datetime.fromisoformat(data)

                return adjudicated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        adjudicated_at = _parse_adjudicated_at(d.pop("adjudicated_at"))

        amount = d.pop("amount")

        def _parse_category(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        category = _parse_category(d.pop("category"))

        connection_id = d.pop("connection_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        currency = d.pop("currency")

        date = datetime.date.fromisoformat(d.pop("date"))

        description = d.pop("description")

        def _parse_eligible_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        eligible_amount = _parse_eligible_amount(d.pop("eligible_amount"))

        evidence = []
        _evidence = d.pop("evidence")
        for evidence_item_data in _evidence:
            evidence_item = ExpenseEvidence.from_dict(evidence_item_data)

            evidence.append(evidence_item)

        external_transaction_id = d.pop("external_transaction_id")

        id = d.pop("id")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = ExpenseItem.from_dict(items_item_data)

            items.append(items_item)

        def _parse_merchant(data: object) -> ExpenseMerchant | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                merchant_type_0 = ExpenseMerchant.from_dict(data)

                return merchant_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExpenseMerchant | None, data)

        merchant = _parse_merchant(d.pop("merchant"))

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

        receipts = []
        _receipts = d.pop("receipts")
        for receipts_item_data in _receipts:
            receipts_item = Receipt.from_dict(receipts_item_data)

            receipts.append(receipts_item)

        def _parse_rule(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rule = _parse_rule(d.pop("rule"))

        status = ExpenseStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        user_id = d.pop("user_id")

        expense = cls(
            adjudicated_at=adjudicated_at,
            amount=amount,
            category=category,
            connection_id=connection_id,
            created_at=created_at,
            currency=currency,
            date=date,
            description=description,
            eligible_amount=eligible_amount,
            evidence=evidence,
            external_transaction_id=external_transaction_id,
            id=id,
            items=items,
            merchant=merchant,
            reason=reason,
            receipts=receipts,
            rule=rule,
            status=status,
            updated_at=updated_at,
            user_id=user_id,
        )

        return expense
