from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.holding import Holding


T = TypeVar("T", bound="Investments")


@_attrs_define
class Investments:
    """
    Attributes:
        holdings (list[Holding]):
        total (float):
    """

    holdings: list[Holding]
    total: float

    def to_dict(self) -> dict[str, Any]:
        holdings = []
        for holdings_item_data in self.holdings:
            holdings_item = holdings_item_data.to_dict()
            holdings.append(holdings_item)

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "holdings": holdings,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.holding import Holding

        d = dict(src_dict)
        holdings = []
        _holdings = d.pop("holdings")
        for holdings_item_data in _holdings:
            holdings_item = Holding.from_dict(holdings_item_data)

            holdings.append(holdings_item)

        total = d.pop("total")

        investments = cls(
            holdings=holdings,
            total=total,
        )

        return investments
