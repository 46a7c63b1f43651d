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

T = TypeVar("T", bound="ConnectAccountOptionsCard")


@_attrs_define
class ConnectAccountOptionsCard:
    """Links a card.

    Attributes:
        connection_type (Literal['card']): The kind of connection to make.
        modal (bool | None | Unset): A layout for an overlay (no page chrome).
    """

    connection_type: Literal["card"]
    modal: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_type = self.connection_type

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
        if modal is not UNSET:
            field_dict["modal"] = modal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_type = cast(Literal["card"], d.pop("connection_type"))
        if connection_type != "card":
            raise ValueError(
                f"connection_type must match const 'card', got '{connection_type}'"
            )

        def _parse_modal(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        modal = _parse_modal(d.pop("modal", UNSET))

        connect_account_options_card = cls(
            connection_type=connection_type,
            modal=modal,
        )

        return connect_account_options_card
