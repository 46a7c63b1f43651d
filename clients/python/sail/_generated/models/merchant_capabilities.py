from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MerchantCapabilities")


@_attrs_define
class MerchantCapabilities:
    """
    Attributes:
        item_level_receipts (bool): True when the merchant supplies item-level purchase data through a store
            connection.
    """

    item_level_receipts: bool

    def to_dict(self) -> dict[str, Any]:
        item_level_receipts = self.item_level_receipts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "item_level_receipts": item_level_receipts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        item_level_receipts = d.pop("item_level_receipts")

        merchant_capabilities = cls(
            item_level_receipts=item_level_receipts,
        )

        return merchant_capabilities
