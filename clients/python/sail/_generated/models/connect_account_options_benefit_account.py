from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ConnectAccountOptionsBenefitAccount")


@_attrs_define
class ConnectAccountOptionsBenefitAccount:
    """Links an HSA/FSA administrator.

    Attributes:
        connection_type (Literal['benefit_account']): The kind of connection to make.
        administrator_id (None | str | Unset): With `benefit_account`: skips the administrator choice.
        modal (bool | None | Unset): A layout for an overlay (no page chrome).
    """

    connection_type: Literal["benefit_account"]
    administrator_id: None | str | Unset = UNSET
    modal: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_type = self.connection_type

        administrator_id: None | str | Unset
        if isinstance(self.administrator_id, Unset):
            administrator_id = UNSET
        else:
            administrator_id = self.administrator_id

        modal: bool | None | Unset
        if isinstance(self.modal, Unset):
            modal = UNSET
        else:
            modal = self.modal

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_type": connection_type,
            }
        )
        if administrator_id is not UNSET:
            field_dict["administrator_id"] = administrator_id
        if modal is not UNSET:
            field_dict["modal"] = modal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_type = cast(Literal["benefit_account"], d.pop("connection_type"))
        if connection_type != "benefit_account":
            raise ValueError(
                f"connection_type must match const 'benefit_account', got '{connection_type}'"
            )

        def _parse_administrator_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        administrator_id = _parse_administrator_id(d.pop("administrator_id", UNSET))

        def _parse_modal(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        modal = _parse_modal(d.pop("modal", UNSET))

        connect_account_options_benefit_account = cls(
            connection_type=connection_type,
            administrator_id=administrator_id,
            modal=modal,
        )

        return connect_account_options_benefit_account
