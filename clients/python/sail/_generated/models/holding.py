from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Holding")


@_attrs_define
class Holding:
    """
    Attributes:
        name (str):
        symbol (str):
        value (float):
    """

    name: str
    symbol: str
    value: float

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        symbol = self.symbol

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "symbol": symbol,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        symbol = d.pop("symbol")

        value = d.pop("value")

        holding = cls(
            name=name,
            symbol=symbol,
            value=value,
        )

        return holding
