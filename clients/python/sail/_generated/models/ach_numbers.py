from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AchNumbers")


@_attrs_define
class AchNumbers:
    """The numbers that move money into an account by ACH.

    Attributes:
        account_number (str): The account number, digits only.
        routing_number (str): The ABA routing number: nine digits with a valid checksum.
    """

    account_number: str
    routing_number: str

    def to_dict(self) -> dict[str, Any]:
        account_number = self.account_number

        routing_number = self.routing_number

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_number": account_number,
                "routing_number": routing_number,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        account_number = d.pop("account_number")

        routing_number = d.pop("routing_number")

        ach_numbers = cls(
            account_number=account_number,
            routing_number=routing_number,
        )

        return ach_numbers
