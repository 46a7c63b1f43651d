from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.hosted_session_options_connection_type_type_1 import (
    HostedSessionOptionsConnectionTypeType1,
)
from ..models.hosted_session_options_connection_type_type_2_type_1 import (
    HostedSessionOptionsConnectionTypeType2Type1,
)
from ..models.hosted_session_options_connection_type_type_3_type_1 import (
    HostedSessionOptionsConnectionTypeType3Type1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="HostedSessionOptions")


@_attrs_define
class HostedSessionOptions:
    """Flow-specific options of a new session.

    Attributes:
        administrator_id (None | str | Unset): connect_account with `benefit_account`: skips the administrator choice.
        connection_id (None | str | Unset): reconnect (required there): a Sail-managed connection of the user.
        connection_type (HostedSessionOptionsConnectionTypeType1 | HostedSessionOptionsConnectionTypeType2Type1 |
            HostedSessionOptionsConnectionTypeType3Type1 | None | Unset): connect_account (required there): the kind of
            connection to make.
        expense_id (None | str | Unset): upload_receipt: the user's expense to attach the receipt to; without
            it the user picks one of their `needs_review` expenses.
        merchant_id (None | str | Unset): connect_account with `store`: skips the merchant choice.
        modal (bool | None | Unset): connect_account, reconnect: a layout for an overlay (no page chrome).
    """

    administrator_id: None | str | Unset = UNSET
    connection_id: None | str | Unset = UNSET
    connection_type: (
        HostedSessionOptionsConnectionTypeType1
        | HostedSessionOptionsConnectionTypeType2Type1
        | HostedSessionOptionsConnectionTypeType3Type1
        | None
        | Unset
    ) = UNSET
    expense_id: None | str | Unset = UNSET
    merchant_id: None | str | Unset = UNSET
    modal: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        administrator_id: None | str | Unset
        if isinstance(self.administrator_id, Unset):
            administrator_id = UNSET
        else:
            administrator_id = self.administrator_id

        connection_id: None | str | Unset
        if isinstance(self.connection_id, Unset):
            connection_id = UNSET
        else:
            connection_id = self.connection_id

        connection_type: None | str | Unset
        if isinstance(self.connection_type, Unset):
            connection_type = UNSET
        elif (
            isinstance(self.connection_type, HostedSessionOptionsConnectionTypeType1)
            or isinstance(
                self.connection_type, HostedSessionOptionsConnectionTypeType2Type1
            )
            or isinstance(
                self.connection_type, HostedSessionOptionsConnectionTypeType3Type1
            )
        ):
            connection_type = self.connection_type.value
        else:
            connection_type = self.connection_type

        expense_id: None | str | Unset
        if isinstance(self.expense_id, Unset):
            expense_id = UNSET
        else:
            expense_id = self.expense_id

        merchant_id: None | str | Unset
        if isinstance(self.merchant_id, Unset):
            merchant_id = UNSET
        else:
            merchant_id = self.merchant_id

        modal: bool | None | Unset
        if isinstance(self.modal, Unset):
            modal = UNSET
        else:
            modal = self.modal

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if administrator_id is not UNSET:
            field_dict["administrator_id"] = administrator_id
        if connection_id is not UNSET:
            field_dict["connection_id"] = connection_id
        if connection_type is not UNSET:
            field_dict["connection_type"] = connection_type
        if expense_id is not UNSET:
            field_dict["expense_id"] = expense_id
        if merchant_id is not UNSET:
            field_dict["merchant_id"] = merchant_id
        if modal is not UNSET:
            field_dict["modal"] = modal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_administrator_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        administrator_id = _parse_administrator_id(d.pop("administrator_id", UNSET))

        def _parse_connection_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        connection_id = _parse_connection_id(d.pop("connection_id", UNSET))

        def _parse_connection_type(
            data: object,
        ) -> (
            HostedSessionOptionsConnectionTypeType1
            | HostedSessionOptionsConnectionTypeType2Type1
            | HostedSessionOptionsConnectionTypeType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_1 = HostedSessionOptionsConnectionTypeType1(data)

                return connection_type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_2_type_1 = (
                    HostedSessionOptionsConnectionTypeType2Type1(data)
                )

                return connection_type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_3_type_1 = (
                    HostedSessionOptionsConnectionTypeType3Type1(data)
                )

                return connection_type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                HostedSessionOptionsConnectionTypeType1
                | HostedSessionOptionsConnectionTypeType2Type1
                | HostedSessionOptionsConnectionTypeType3Type1
                | None
                | Unset,
                data,
            )

        connection_type = _parse_connection_type(d.pop("connection_type", UNSET))

        def _parse_expense_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expense_id = _parse_expense_id(d.pop("expense_id", UNSET))

        def _parse_merchant_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        merchant_id = _parse_merchant_id(d.pop("merchant_id", UNSET))

        def _parse_modal(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        modal = _parse_modal(d.pop("modal", UNSET))

        hosted_session_options = cls(
            administrator_id=administrator_id,
            connection_id=connection_id,
            connection_type=connection_type,
            expense_id=expense_id,
            merchant_id=merchant_id,
            modal=modal,
        )

        return hosted_session_options
