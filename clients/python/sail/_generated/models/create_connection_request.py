from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_connection_request_products_item import (
    CreateConnectionRequestProductsItem,
)
from ..models.create_connection_request_type import CreateConnectionRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateConnectionRequest")


@_attrs_define
class CreateConnectionRequest:
    """
    Attributes:
        provider_label (str): The customer's label of the upstream source, shown wherever a provider
            name would appear.
        type_ (CreateConnectionRequestType): Must be `external`: only customer-managed connections are created here.
        products (list[CreateConnectionRequestProductsItem] | Unset): Only `expenses`; empty (or absent) means the
            default, `["expenses"]`.
    """

    provider_label: str
    type_: CreateConnectionRequestType
    products: list[CreateConnectionRequestProductsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider_label = self.provider_label

        type_ = self.type_.value

        products: list[str] | Unset = UNSET
        if not isinstance(self.products, Unset):
            products = []
            for products_item_data in self.products:
                products_item = products_item_data.value
                products.append(products_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider_label": provider_label,
                "type": type_,
            }
        )
        if products is not UNSET:
            field_dict["products"] = products

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider_label = d.pop("provider_label")

        type_ = CreateConnectionRequestType(d.pop("type"))

        _products = d.pop("products", UNSET)
        products: list[CreateConnectionRequestProductsItem] | Unset = UNSET
        if _products is not UNSET:
            products = []
            for products_item_data in _products:
                products_item = CreateConnectionRequestProductsItem(products_item_data)

                products.append(products_item)

        create_connection_request = cls(
            provider_label=provider_label,
            type_=type_,
            products=products,
        )

        return create_connection_request
