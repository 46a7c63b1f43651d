from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostalAddress")


@_attrs_define
class PostalAddress:
    """A postal address as a source reports it; parts it does not know are null.

    Attributes:
        city (None | str):
        country (None | str): ISO 3166-1 alpha-2.
        state (None | str): State or region.
        street (None | str):
        zip_ (None | str): Postal code.
    """

    city: None | str
    country: None | str
    state: None | str
    street: None | str
    zip_: None | str

    def to_dict(self) -> dict[str, Any]:
        city: None | str
        city = self.city

        country: None | str
        country = self.country

        state: None | str
        state = self.state

        street: None | str
        street = self.street

        zip_: None | str
        zip_ = self.zip_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "city": city,
                "country": country,
                "state": state,
                "street": street,
                "zip": zip_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_city(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        city = _parse_city(d.pop("city"))

        def _parse_country(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        country = _parse_country(d.pop("country"))

        def _parse_state(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        state = _parse_state(d.pop("state"))

        def _parse_street(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        street = _parse_street(d.pop("street"))

        def _parse_zip_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        zip_ = _parse_zip_(d.pop("zip"))

        postal_address = cls(
            city=city,
            country=country,
            state=state,
            street=street,
            zip_=zip_,
        )

        return postal_address
