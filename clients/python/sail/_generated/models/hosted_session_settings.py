from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.hosted_session_settings_connection_type_type_1 import (
    HostedSessionSettingsConnectionTypeType1,
)
from ..models.hosted_session_settings_connection_type_type_2_type_1 import (
    HostedSessionSettingsConnectionTypeType2Type1,
)
from ..models.hosted_session_settings_connection_type_type_3_type_1 import (
    HostedSessionSettingsConnectionTypeType3Type1,
)

T = TypeVar("T", bound="HostedSessionSettings")


@_attrs_define
class HostedSessionSettings:
    """The options a session was created with.

    Attributes:
        administrator_id (None | str):
        connection_id (None | str):
        connection_type (HostedSessionSettingsConnectionTypeType1 | HostedSessionSettingsConnectionTypeType2Type1 |
            HostedSessionSettingsConnectionTypeType3Type1 | None):
        expense_id (None | str):
        merchant_id (None | str):
        modal (bool):
    """

    administrator_id: None | str
    connection_id: None | str
    connection_type: (
        HostedSessionSettingsConnectionTypeType1
        | HostedSessionSettingsConnectionTypeType2Type1
        | HostedSessionSettingsConnectionTypeType3Type1
        | None
    )
    expense_id: None | str
    merchant_id: None | str
    modal: bool

    def to_dict(self) -> dict[str, Any]:
        administrator_id: None | str
        administrator_id = self.administrator_id

        connection_id: None | str
        connection_id = self.connection_id

        connection_type: None | str
        if (
            isinstance(self.connection_type, HostedSessionSettingsConnectionTypeType1)
            or isinstance(
                self.connection_type, HostedSessionSettingsConnectionTypeType2Type1
            )
            or isinstance(
                self.connection_type, HostedSessionSettingsConnectionTypeType3Type1
            )
        ):
            connection_type = self.connection_type.value
        else:
            connection_type = self.connection_type

        expense_id: None | str
        expense_id = self.expense_id

        merchant_id: None | str
        merchant_id = self.merchant_id

        modal = self.modal

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "administrator_id": administrator_id,
                "connection_id": connection_id,
                "connection_type": connection_type,
                "expense_id": expense_id,
                "merchant_id": merchant_id,
                "modal": modal,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_administrator_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        administrator_id = _parse_administrator_id(d.pop("administrator_id"))

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        def _parse_connection_type(
            data: object,
        ) -> (
            HostedSessionSettingsConnectionTypeType1
            | HostedSessionSettingsConnectionTypeType2Type1
            | HostedSessionSettingsConnectionTypeType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_1 = HostedSessionSettingsConnectionTypeType1(data)

                return connection_type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_2_type_1 = (
                    HostedSessionSettingsConnectionTypeType2Type1(data)
                )

                return connection_type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                connection_type_type_3_type_1 = (
                    HostedSessionSettingsConnectionTypeType3Type1(data)
                )

                return connection_type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                HostedSessionSettingsConnectionTypeType1
                | HostedSessionSettingsConnectionTypeType2Type1
                | HostedSessionSettingsConnectionTypeType3Type1
                | None,
                data,
            )

        connection_type = _parse_connection_type(d.pop("connection_type"))

        def _parse_expense_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expense_id = _parse_expense_id(d.pop("expense_id"))

        def _parse_merchant_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merchant_id = _parse_merchant_id(d.pop("merchant_id"))

        modal = d.pop("modal")

        hosted_session_settings = cls(
            administrator_id=administrator_id,
            connection_id=connection_id,
            connection_type=connection_type,
            expense_id=expense_id,
            merchant_id=merchant_id,
            modal=modal,
        )

        return hosted_session_settings
