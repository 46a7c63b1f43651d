from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.identity_record_source import IdentityRecordSource

if TYPE_CHECKING:
    from ..models.postal_address import PostalAddress


T = TypeVar("T", bound="IdentityRecord")


@_attrs_define
class IdentityRecord:
    """What one source says about the person.

    Attributes:
        addresses (list[PostalAddress]):
        connection_id (None | str): The connection that reported it; null for the profile.
        emails (list[str]):
        names (list[str]): Full names as the source spells them.
        phone_numbers (list[str]):
        provider_name (None | str): The provider's display name; null for the profile.
        source (IdentityRecordSource): `profile`: given by the partner when the user was created;
            `connection`: reported by the provider behind `connection_id`.
    """

    addresses: list[PostalAddress]
    connection_id: None | str
    emails: list[str]
    names: list[str]
    phone_numbers: list[str]
    provider_name: None | str
    source: IdentityRecordSource

    def to_dict(self) -> dict[str, Any]:
        addresses = []
        for addresses_item_data in self.addresses:
            addresses_item = addresses_item_data.to_dict()
            addresses.append(addresses_item)

        connection_id: None | str
        connection_id = self.connection_id

        emails = self.emails

        names = self.names

        phone_numbers = self.phone_numbers

        provider_name: None | str
        provider_name = self.provider_name

        source = self.source.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "addresses": addresses,
                "connection_id": connection_id,
                "emails": emails,
                "names": names,
                "phone_numbers": phone_numbers,
                "provider_name": provider_name,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.postal_address import PostalAddress

        d = dict(src_dict)
        addresses = []
        _addresses = d.pop("addresses")
        for addresses_item_data in _addresses:
            addresses_item = PostalAddress.from_dict(addresses_item_data)

            addresses.append(addresses_item)

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        emails = cast(list[str], d.pop("emails"))

        names = cast(list[str], d.pop("names"))

        phone_numbers = cast(list[str], d.pop("phone_numbers"))

        def _parse_provider_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_name = _parse_provider_name(d.pop("provider_name"))

        source = IdentityRecordSource(d.pop("source"))

        identity_record = cls(
            addresses=addresses,
            connection_id=connection_id,
            emails=emails,
            names=names,
            phone_numbers=phone_numbers,
            provider_name=provider_name,
            source=source,
        )

        return identity_record
