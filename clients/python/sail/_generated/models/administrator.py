from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.administrator_account_types_item import AdministratorAccountTypesItem

if TYPE_CHECKING:
    from ..models.directory_urls import DirectoryUrls


T = TypeVar("T", bound="Administrator")


@_attrs_define
class Administrator:
    """
    Attributes:
        account_types (list[AdministratorAccountTypesItem]): The account types it holds.
        id (str): `adm_` + UUIDv7 hex; the value of `options.administrator_id`.
        name (str):
        urls (DirectoryUrls):
    """

    account_types: list[AdministratorAccountTypesItem]
    id: str
    name: str
    urls: DirectoryUrls

    def to_dict(self) -> dict[str, Any]:
        account_types = []
        for account_types_item_data in self.account_types:
            account_types_item = account_types_item_data.value
            account_types.append(account_types_item)

        id = self.id

        name = self.name

        urls = self.urls.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_types": account_types,
                "id": id,
                "name": name,
                "urls": urls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.directory_urls import DirectoryUrls

        d = dict(src_dict)
        account_types = []
        _account_types = d.pop("account_types")
        for account_types_item_data in _account_types:
            account_types_item = AdministratorAccountTypesItem(account_types_item_data)

            account_types.append(account_types_item)

        id = d.pop("id")

        name = d.pop("name")

        urls = DirectoryUrls.from_dict(d.pop("urls"))

        administrator = cls(
            account_types=account_types,
            id=id,
            name=name,
            urls=urls,
        )

        return administrator
