from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.provider_kind import ProviderKind

T = TypeVar("T", bound="Provider")


@_attrs_define
class Provider:
    """The external party behind a connection.

    Attributes:
        icon_url (None | str):
        id (None | str): Merchant (`mer_`), administrator (`adm_`) or card issuer (`fin_`) id;
            null for `external` connections.
        kind (ProviderKind):
        name (str):
    """

    icon_url: None | str
    id: None | str
    kind: ProviderKind
    name: str

    def to_dict(self) -> dict[str, Any]:
        icon_url: None | str
        icon_url = self.icon_url

        id: None | str
        id = self.id

        kind = self.kind.value

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "icon_url": icon_url,
                "id": id,
                "kind": kind,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_icon_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        icon_url = _parse_icon_url(d.pop("icon_url"))

        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))

        kind = ProviderKind(d.pop("kind"))

        name = d.pop("name")

        provider = cls(
            icon_url=icon_url,
            id=id,
            kind=kind,
            name=name,
        )

        return provider
