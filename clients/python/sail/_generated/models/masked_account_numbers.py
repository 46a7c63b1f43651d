from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MaskedAccountNumbers")


@_attrs_define
class MaskedAccountNumbers:
    """An account's ACH numbers as an export shows them.

    Attributes:
        account_id (str):
        account_number_last4 (str): The last four digits of the account number.
        routing_number_last4 (str): The last four digits of the routing number.
    """

    account_id: str
    account_number_last4: str
    routing_number_last4: str

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        account_number_last4 = self.account_number_last4

        routing_number_last4 = self.routing_number_last4

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_id": account_id,
                "account_number_last4": account_number_last4,
                "routing_number_last4": routing_number_last4,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        account_number_last4 = d.pop("account_number_last4")

        routing_number_last4 = d.pop("routing_number_last4")

        masked_account_numbers = cls(
            account_id=account_id,
            account_number_last4=account_number_last4,
            routing_number_last4=routing_number_last4,
        )

        return masked_account_numbers
