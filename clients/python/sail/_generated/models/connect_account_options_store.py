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

T = TypeVar("T", bound="ConnectAccountOptionsStore")


@_attrs_define
class ConnectAccountOptionsStore:
    """Links a store login.

    Attributes:
        connection_type (Literal['store']): The kind of connection to make.
        merchant_id (None | str | Unset): With `store`: skips the merchant choice.
        modal (bool | None | Unset): A layout for an overlay (no page chrome).
    """

    connection_type: Literal["store"]
    merchant_id: None | str | Unset = UNSET
    modal: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_type = self.connection_type

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

        field_dict.update(
            {
                "connection_type": connection_type,
            }
        )
        if merchant_id is not UNSET:
            field_dict["merchant_id"] = merchant_id
        if modal is not UNSET:
            field_dict["modal"] = modal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_type = cast(Literal["store"], d.pop("connection_type"))
        if connection_type != "store":
            raise ValueError(
                f"connection_type must match const 'store', got '{connection_type}'"
            )

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

        connect_account_options_store = cls(
            connection_type=connection_type,
            merchant_id=merchant_id,
            modal=modal,
        )

        return connect_account_options_store
