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

from ..models.create_sandbox_connection_request_benefit_account_products_item import (
    CreateSandboxConnectionRequestBenefitAccountProductsItem,
)
from ..models.create_sandbox_connection_request_benefit_account_username_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType1,
)
from ..models.create_sandbox_connection_request_benefit_account_username_type_2_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1,
)
from ..models.create_sandbox_connection_request_benefit_account_username_type_3_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateSandboxConnectionRequestBenefitAccount")


@_attrs_define
class CreateSandboxConnectionRequestBenefitAccount:
    """A sandbox HSA/FSA administrator.

    Attributes:
        type_ (Literal['benefit_account']):
        user_id (str):
        products (list[CreateSandboxConnectionRequestBenefitAccountProductsItem] | Unset): The products to enable, as a
            partner chooses them when it opens a
            connect_account session; absent or empty means every product the type
            offers (card and store: `expenses`; benefit_account: `benefit_account`,
            `account_numbers`, `identity`). A product the type does not offer is
            `400 invalid_request` naming it.
        provider_id (None | str | Unset): A merchant (store), administrator (benefit_account) or sandbox card
            issuer (card) id; defaults to the first of that directory.
        username (CreateSandboxConnectionRequestBenefitAccountUsernameType1 |
            CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1 |
            CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1 | None | Unset): `user_good` (the default) links;
            `user_error` links a connection that
            lands in a recoverable `error`. `user_bad` stands for credentials the
            provider refuses: it is answered `400 invalid_request` naming
            `username`, as a refused login is on the hosted page.
    """

    type_: Literal["benefit_account"]
    user_id: str
    products: list[CreateSandboxConnectionRequestBenefitAccountProductsItem] | Unset = (
        UNSET
    )
    provider_id: None | str | Unset = UNSET
    username: (
        CreateSandboxConnectionRequestBenefitAccountUsernameType1
        | CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1
        | CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1
        | None
        | Unset
    ) = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        user_id = self.user_id

        products: list[str] | Unset = UNSET
        if not isinstance(self.products, Unset):
            products = []
            for products_item_data in self.products:
                products_item = products_item_data.value
                products.append(products_item)

        provider_id: None | str | Unset
        if isinstance(self.provider_id, Unset):
            provider_id = UNSET
        else:
            provider_id = self.provider_id

        username: None | str | Unset
        if isinstance(self.username, Unset):
            username = UNSET
        elif (
            isinstance(
                self.username, CreateSandboxConnectionRequestBenefitAccountUsernameType1
            )
            or isinstance(
                self.username,
                CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1,
            )
            or isinstance(
                self.username,
                CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1,
            )
        ):
            username = self.username.value
        else:
            username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "user_id": user_id,
            }
        )
        if products is not UNSET:
            field_dict["products"] = products
        if provider_id is not UNSET:
            field_dict["provider_id"] = provider_id
        if username is not UNSET:
            field_dict["username"] = username

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["benefit_account"], d.pop("type"))
        if type_ != "benefit_account":
            raise ValueError(f"type must match const 'benefit_account', got '{type_}'")

        user_id = d.pop("user_id")

        _products = d.pop("products", UNSET)
        products: (
            list[CreateSandboxConnectionRequestBenefitAccountProductsItem] | Unset
        ) = UNSET
        if _products is not UNSET:
            products = []
            for products_item_data in _products:
                products_item = (
                    CreateSandboxConnectionRequestBenefitAccountProductsItem(
                        products_item_data
                    )
                )

                products.append(products_item)

        def _parse_provider_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider_id = _parse_provider_id(d.pop("provider_id", UNSET))

        def _parse_username(
            data: object,
        ) -> (
            CreateSandboxConnectionRequestBenefitAccountUsernameType1
            | CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1
            | CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1
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
                username_type_1 = (
                    CreateSandboxConnectionRequestBenefitAccountUsernameType1(data)
                )

                return username_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                username_type_2_type_1 = (
                    CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1(data)
                )

                return username_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                username_type_3_type_1 = (
                    CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1(data)
                )

                return username_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CreateSandboxConnectionRequestBenefitAccountUsernameType1
                | CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1
                | CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1
                | None
                | Unset,
                data,
            )

        username = _parse_username(d.pop("username", UNSET))

        create_sandbox_connection_request_benefit_account = cls(
            type_=type_,
            user_id=user_id,
            products=products,
            provider_id=provider_id,
            username=username,
        )

        return create_sandbox_connection_request_benefit_account
