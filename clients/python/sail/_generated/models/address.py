from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.address_country_type_1 import AddressCountryType1
from ..models.address_country_type_2_type_1 import AddressCountryType2Type1
from ..models.address_country_type_3_type_1 import AddressCountryType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="Address")


@_attrs_define
class Address:
    """
    Attributes:
        city (None | str | Unset):
        country (AddressCountryType1 | AddressCountryType2Type1 | AddressCountryType3Type1 | None | Unset): ISO 3166-1
            alpha-2, in upper or lower case.
        state (None | str | Unset): State or region.
        street (None | str | Unset):
        zip_ (None | str | Unset): Postal code.
    """

    city: None | str | Unset = UNSET
    country: (
        AddressCountryType1
        | AddressCountryType2Type1
        | AddressCountryType3Type1
        | None
        | Unset
    ) = UNSET
    state: None | str | Unset = UNSET
    street: None | str | Unset = UNSET
    zip_: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        city: None | str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        country: None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        elif (
            isinstance(self.country, AddressCountryType1)
            or isinstance(self.country, AddressCountryType2Type1)
            or isinstance(self.country, AddressCountryType3Type1)
        ):
            country = self.country.value
        else:
            country = self.country

        state: None | str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        street: None | str | Unset
        if isinstance(self.street, Unset):
            street = UNSET
        else:
            street = self.street

        zip_: None | str | Unset
        if isinstance(self.zip_, Unset):
            zip_ = UNSET
        else:
            zip_ = self.zip_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if city is not UNSET:
            field_dict["city"] = city
        if country is not UNSET:
            field_dict["country"] = country
        if state is not UNSET:
            field_dict["state"] = state
        if street is not UNSET:
            field_dict["street"] = street
        if zip_ is not UNSET:
            field_dict["zip"] = zip_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_city(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        city = _parse_city(d.pop("city", UNSET))

        def _parse_country(
            data: object,
        ) -> (
            AddressCountryType1
            | AddressCountryType2Type1
            | AddressCountryType3Type1
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
                country_type_1 = AddressCountryType1(data)

                return country_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                country_type_2_type_1 = AddressCountryType2Type1(data)

                return country_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                country_type_3_type_1 = AddressCountryType3Type1(data)

                return country_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AddressCountryType1
                | AddressCountryType2Type1
                | AddressCountryType3Type1
                | None
                | Unset,
                data,
            )

        country = _parse_country(d.pop("country", UNSET))

        def _parse_state(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        state = _parse_state(d.pop("state", UNSET))

        def _parse_street(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        street = _parse_street(d.pop("street", UNSET))

        def _parse_zip_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        zip_ = _parse_zip_(d.pop("zip", UNSET))

        address = cls(
            city=city,
            country=country,
            state=state,
            street=street,
            zip_=zip_,
        )

        return address
