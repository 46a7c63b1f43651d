from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.update_user_request_status_type_1 import UpdateUserRequestStatusType1
from ..models.update_user_request_status_type_2_type_1 import (
    UpdateUserRequestStatusType2Type1,
)
from ..models.update_user_request_status_type_3_type_1 import (
    UpdateUserRequestStatusType3Type1,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.address import Address


T = TypeVar("T", bound="UpdateUserRequest")


@_attrs_define
class UpdateUserRequest:
    """
    Attributes:
        address (Address | None | Unset):
        email (None | str | Unset):
        first_name (None | str | Unset):
        last_name (None | str | Unset):
        phone (None | str | Unset): E.164 or national digits, e.g. `+15125550100`.
        status (None | Unset | UpdateUserRequestStatusType1 | UpdateUserRequestStatusType2Type1 |
            UpdateUserRequestStatusType3Type1): `active` | `inactive`.
    """

    address: Address | None | Unset = UNSET
    email: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    status: (
        None
        | Unset
        | UpdateUserRequestStatusType1
        | UpdateUserRequestStatusType2Type1
        | UpdateUserRequestStatusType3Type1
    ) = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.address import Address

        address: dict[str, Any] | None | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        elif isinstance(self.address, Address):
            address = self.address.to_dict()
        else:
            address = self.address

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif (
            isinstance(self.status, UpdateUserRequestStatusType1)
            or isinstance(self.status, UpdateUserRequestStatusType2Type1)
            or isinstance(self.status, UpdateUserRequestStatusType3Type1)
        ):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if address is not UNSET:
            field_dict["address"] = address
        if email is not UNSET:
            field_dict["email"] = email
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if phone is not UNSET:
            field_dict["phone"] = phone
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.address import Address

        d = dict(src_dict)

        def _parse_address(data: object) -> Address | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                address_type_0 = Address.from_dict(data)

                return address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Address | None | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_status(
            data: object,
        ) -> (
            None
            | Unset
            | UpdateUserRequestStatusType1
            | UpdateUserRequestStatusType2Type1
            | UpdateUserRequestStatusType3Type1
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = UpdateUserRequestStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_2_type_1 = UpdateUserRequestStatusType2Type1(data)

                return status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_3_type_1 = UpdateUserRequestStatusType3Type1(data)

                return status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | Unset
                | UpdateUserRequestStatusType1
                | UpdateUserRequestStatusType2Type1
                | UpdateUserRequestStatusType3Type1,
                data,
            )

        status = _parse_status(d.pop("status", UNSET))

        update_user_request = cls(
            address=address,
            email=email,
            first_name=first_name,
            last_name=last_name,
            phone=phone,
            status=status,
        )

        return update_user_request
