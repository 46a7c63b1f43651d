from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.directory_urls import DirectoryUrls
    from ..models.merchant_capabilities import MerchantCapabilities


T = TypeVar("T", bound="Merchant")


@_attrs_define
class Merchant:
    """
    Attributes:
        capabilities (MerchantCapabilities):
        id (str): `mer_` + UUIDv7 hex; also the value of `merchant.id` on an expense.
        name (str):
        urls (DirectoryUrls):
    """

    capabilities: MerchantCapabilities
    id: str
    name: str
    urls: DirectoryUrls

    def to_dict(self) -> dict[str, Any]:
        capabilities = self.capabilities.to_dict()

        id = self.id

        name = self.name

        urls = self.urls.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "capabilities": capabilities,
                "id": id,
                "name": name,
                "urls": urls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.directory_urls import DirectoryUrls
        from ..models.merchant_capabilities import MerchantCapabilities

        d = dict(src_dict)
        capabilities = MerchantCapabilities.from_dict(d.pop("capabilities"))

        id = d.pop("id")

        name = d.pop("name")

        urls = DirectoryUrls.from_dict(d.pop("urls"))

        merchant = cls(
            capabilities=capabilities,
            id=id,
            name=name,
            urls=urls,
        )

        return merchant
