from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.account_type import AccountType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.balance import Balance


T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        connection_id (str):
        end_date (datetime.date | None): Plan-year end for plan-bound accounts (FSA, HRA); null for HSAs.
        external_id (str): The administrator's identifier for the account.
        id (str):
        last_sync_at (datetime.datetime | None):
        name (str):
        start_date (datetime.date): Effective date.
        type_ (AccountType):
        balance (Balance | Unset):
    """

    connection_id: str
    end_date: datetime.date | None
    external_id: str
    id: str
    last_sync_at: datetime.datetime | None
    name: str
    start_date: datetime.date
    type_: AccountType
    balance: Balance | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        end_date: None | str
        if isinstance(self.end_date, datetime.date):
            end_date = self.end_date.isoformat()
        else:
            end_date = self.end_date

        external_id = self.external_id

        id = self.id

        last_sync_at: None | str
        if isinstance(self.last_sync_at, datetime.datetime):
            last_sync_at = self.last_sync_at.isoformat()
        else:
            last_sync_at = self.last_sync_at

        name = self.name

        start_date = self.start_date.isoformat()

        type_ = self.type_.value

        balance: dict[str, Any] | Unset = UNSET
        if not isinstance(self.balance, Unset):
            balance = self.balance.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
                "end_date": end_date,
                "external_id": external_id,
                "id": id,
                "last_sync_at": last_sync_at,
                "name": name,
                "start_date": start_date,
                "type": type_,
            }
        )
        if balance is not UNSET:
            field_dict["balance"] = balance

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.balance import Balance

        d = dict(src_dict)
        connection_id = d.pop("connection_id")

        def _parse_end_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_date_type_0 = datetime.date.fromisoformat(data)

                return end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        end_date = _parse_end_date(d.pop("end_date"))

        external_id = d.pop("external_id")

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

        name = d.pop("name")

        start_date = datetime.date.fromisoformat(d.pop("start_date"))

        type_ = AccountType(d.pop("type"))

        _balance = d.pop("balance", UNSET)
        balance: Balance | Unset
        if isinstance(_balance, Unset):
            balance = UNSET
        else:
            balance = Balance.from_dict(_balance)

        account = cls(
            connection_id=connection_id,
            end_date=end_date,
            external_id=external_id,
            id=id,
            last_sync_at=last_sync_at,
            name=name,
            start_date=start_date,
            type_=type_,
            balance=balance,
        )

        return account
