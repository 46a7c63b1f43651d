from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.connection_products_item import ConnectionProductsItem
from ..models.connection_status import ConnectionStatus
from ..models.connection_type import ConnectionType

if TYPE_CHECKING:
    from ..models.account_summary import AccountSummary
    from ..models.connection_error import ConnectionError_
    from ..models.provider import Provider


T = TypeVar("T", bound="Connection")


@_attrs_define
class Connection:
    """
    Attributes:
        accounts (list[AccountSummary]):
        created_at (datetime.datetime):
        error (ConnectionError_ | None): Present only in the error state; null otherwise.
        id (str):
        last_sync_at (datetime.datetime | None):
        products (list[ConnectionProductsItem]): Capabilities enabled.
        provider (Provider): The external party behind a connection.
        status (ConnectionStatus): Sync and authentication status.
        type_ (ConnectionType): Kind of data source.
        updated_at (datetime.datetime):
        user_id (str):
    """

    accounts: list[AccountSummary]
    created_at: datetime.datetime
    error: ConnectionError_ | None
    id: str
    last_sync_at: datetime.datetime | None
    products: list[ConnectionProductsItem]
    provider: Provider
    status: ConnectionStatus
    type_: ConnectionType
    updated_at: datetime.datetime
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_error import ConnectionError_

        accounts = []
        for accounts_item_data in self.accounts:
            accounts_item = accounts_item_data.to_dict()
            accounts.append(accounts_item)

        created_at = self.created_at.isoformat()

        error: dict[str, Any] | None
        if isinstance(self.error, ConnectionError_):
            error = self.error.to_dict()
        else:
            error = self.error

        id = self.id

        last_sync_at: None | str
        if isinstance(self.last_sync_at, datetime.datetime):
            last_sync_at = self.last_sync_at.isoformat()
        else:
            last_sync_at = self.last_sync_at

        products = []
        for products_item_data in self.products:
            products_item = products_item_data.value
            products.append(products_item)

        provider = self.provider.to_dict()

        status = self.status.value

        type_ = self.type_.value

        updated_at = self.updated_at.isoformat()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accounts": accounts,
                "created_at": created_at,
                "error": error,
                "id": id,
                "last_sync_at": last_sync_at,
                "products": products,
                "provider": provider,
                "status": status,
                "type": type_,
                "updated_at": updated_at,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account_summary import AccountSummary
        from ..models.connection_error import ConnectionError_
        from ..models.provider import Provider

        d = dict(src_dict)
        accounts = []
        _accounts = d.pop("accounts")
        for accounts_item_data in _accounts:
            accounts_item = AccountSummary.from_dict(accounts_item_data)

            accounts.append(accounts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_error(data: object) -> ConnectionError_ | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ConnectionError_.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConnectionError_ | None, data)

        error = _parse_error(d.pop("error"))

        id = d.pop("id")

        def _parse_last_sync_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_sync_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_sync_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_sync_at = _parse_last_sync_at(d.pop("last_sync_at"))

        products = []
        _products = d.pop("products")
        for products_item_data in _products:
            products_item = ConnectionProductsItem(products_item_data)

            products.append(products_item)

        provider = Provider.from_dict(d.pop("provider"))

        status = ConnectionStatus(d.pop("status"))

        type_ = ConnectionType(d.pop("type"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        user_id = d.pop("user_id")

        connection = cls(
            accounts=accounts,
            created_at=created_at,
            error=error,
            id=id,
            last_sync_at=last_sync_at,
            products=products,
            provider=provider,
            status=status,
            type_=type_,
            updated_at=updated_at,
            user_id=user_id,
        )

        return connection
