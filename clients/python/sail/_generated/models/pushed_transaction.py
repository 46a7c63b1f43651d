from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pushed_transaction_currency_type_1 import PushedTransactionCurrencyType1
from ..models.pushed_transaction_currency_type_2_type_1 import (
    PushedTransactionCurrencyType2Type1,
)
from ..models.pushed_transaction_currency_type_3_type_1 import (
    PushedTransactionCurrencyType3Type1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PushedTransaction")


@_attrs_define
class PushedTransaction:
    """
    Attributes:
        amount (float): Positive, at most two decimals; purchases only.
        date (datetime.date): Transaction date; at most one day in the future.
        description (str): The raw bank descriptor.
        external_transaction_id (str): The pusher's stable id; the idempotency key within the connection.
        currency (None | PushedTransactionCurrencyType1 | PushedTransactionCurrencyType2Type1 |
            PushedTransactionCurrencyType3Type1 | Unset): ISO 4217, in upper or lower case; USD when absent.
        mcc (None | str | Unset): Merchant category code: four digits.
        merchant_name (None | str | Unset): Null when unknown.
    """

    amount: float
    date: datetime.date
    description: str
    external_transaction_id: str
    currency: (
        None
        | PushedTransactionCurrencyType1
        | PushedTransactionCurrencyType2Type1
        | PushedTransactionCurrencyType3Type1
        | Unset
    ) = UNSET
    mcc: None | str | Unset = UNSET
    merchant_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        date = self.date.isoformat()

        description = self.description

        external_transaction_id = self.external_transaction_id

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        elif (
            isinstance(self.currency, PushedTransactionCurrencyType1)
            or isinstance(self.currency, PushedTransactionCurrencyType2Type1)
            or isinstance(self.currency, PushedTransactionCurrencyType3Type1)
        ):
            currency = self.currency.value
        else:
            currency = self.currency

        mcc: None | str | Unset
        if isinstance(self.mcc, Unset):
            mcc = UNSET
        else:
            mcc = self.mcc

        merchant_name: None | str | Unset
        if isinstance(self.merchant_name, Unset):
            merchant_name = UNSET
        else:
            merchant_name = self.merchant_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "date": date,
                "description": description,
                "external_transaction_id": external_transaction_id,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if mcc is not UNSET:
            field_dict["mcc"] = mcc
        if merchant_name is not UNSET:
            field_dict["merchant_name"] = merchant_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        date = datetime.date.fromisoformat(d.pop("date"))

        description = d.pop("description")

        external_transaction_id = d.pop("external_transaction_id")

        def _parse_currency(
            data: object,
        ) -> (
            None
            | PushedTransactionCurrencyType1
            | PushedTransactionCurrencyType2Type1
            | PushedTransactionCurrencyType3Type1
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_1 = PushedTransactionCurrencyType1(data)

                return currency_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_2_type_1 = PushedTransactionCurrencyType2Type1(data)

                return currency_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_3_type_1 = PushedTransactionCurrencyType3Type1(data)

                return currency_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | PushedTransactionCurrencyType1
                | PushedTransactionCurrencyType2Type1
                | PushedTransactionCurrencyType3Type1
                | Unset,
                data,
            )

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_mcc(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mcc = _parse_mcc(d.pop("mcc", UNSET))

        def _parse_merchant_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        merchant_name = _parse_merchant_name(d.pop("merchant_name", UNSET))

        pushed_transaction = cls(
            amount=amount,
            date=date,
            description=description,
            external_transaction_id=external_transaction_id,
            currency=currency,
            mcc=mcc,
            merchant_name=merchant_name,
        )

        return pushed_transaction
