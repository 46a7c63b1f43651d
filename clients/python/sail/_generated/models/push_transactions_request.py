from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pushed_transaction import PushedTransaction


T = TypeVar("T", bound="PushTransactionsRequest")


@_attrs_define
class PushTransactionsRequest:
    """
    Attributes:
        transactions (list[PushedTransaction]): 1 to 500 transactions.
    """

    transactions: list[PushedTransaction]

    def to_dict(self) -> dict[str, Any]:
        transactions = []
        for transactions_item_data in self.transactions:
            transactions_item = transactions_item_data.to_dict()
            transactions.append(transactions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "transactions": transactions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pushed_transaction import PushedTransaction

        d = dict(src_dict)
        transactions = []
        _transactions = d.pop("transactions")
        for transactions_item_data in _transactions:
            transactions_item = PushedTransaction.from_dict(transactions_item_data)

            transactions.append(transactions_item)

        push_transactions_request = cls(
            transactions=transactions,
        )

        return push_transactions_request
