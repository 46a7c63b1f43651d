from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReconnectOptions")


@_attrs_define
class ReconnectOptions:
    """The options of a `reconnect` session. (gRPC carries them as
    HostedSessionOptions; this message only gives the document their shape.)

        Attributes:
            connection_id (str): A Sail-managed connection of the user.
            modal (bool | None | Unset): A layout for an overlay (no page chrome).
    """

    connection_id: str
    modal: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        modal: bool | None | Unset
        if isinstance(self.modal, Unset):
            modal = UNSET
        else:
            modal = self.modal

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
            }
        )
        if modal is not UNSET:
            field_dict["modal"] = modal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connection_id")

        def _parse_modal(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        modal = _parse_modal(d.pop("modal", UNSET))

        reconnect_options = cls(
            connection_id=connection_id,
            modal=modal,
        )

        return reconnect_options
