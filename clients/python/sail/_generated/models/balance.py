from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Balance")


@_attrs_define
class Balance:
    """
    Attributes:
        cash (float): Cash available.
        invested (float | None): Null when the account has no investments.
    """

    cash: float
    invested: float | None

    def to_dict(self) -> dict[str, Any]:
        cash = self.cash

        invested: float | None
        invested = self.invested

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cash": cash,
                "invested": invested,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cash = d.pop("cash")

        def _parse_invested(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        invested = _parse_invested(d.pop("invested"))

        balance = cls(
            cash=cash,
            invested=invested,
        )

        return balance
