from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_user_token_request_scopes_item import (
    CreateUserTokenRequestScopesItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateUserTokenRequest")


@_attrs_define
class CreateUserTokenRequest:
    """
    Attributes:
        scopes (list[CreateUserTokenRequestScopesItem]): What the token may open, one or both of `identity` and
            `account_numbers`.
        external_user_id (None | str | Unset): Your own id for the user; the user is created when there is none yet.
            Give this or `user_id`, not both.
        ttl_seconds (int | None | Unset): Lifetime in seconds: 1 to 3600, default 900 (15 minutes).
        user_id (None | str | Unset): An existing user of yours. Give this or `external_user_id`, not both.
    """

    scopes: list[CreateUserTokenRequestScopesItem]
    external_user_id: None | str | Unset = UNSET
    ttl_seconds: int | None | Unset = UNSET
    user_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        external_user_id: None | str | Unset
        if isinstance(self.external_user_id, Unset):
            external_user_id = UNSET
        else:
            external_user_id = self.external_user_id

        ttl_seconds: int | None | Unset
        if isinstance(self.ttl_seconds, Unset):
            ttl_seconds = UNSET
        else:
            ttl_seconds = self.ttl_seconds

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scopes": scopes,
            }
        )
        if external_user_id is not UNSET:
            field_dict["external_user_id"] = external_user_id
        if ttl_seconds is not UNSET:
            field_dict["ttl_seconds"] = ttl_seconds
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = CreateUserTokenRequestScopesItem(scopes_item_data)

            scopes.append(scopes_item)

        def _parse_external_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_user_id = _parse_external_user_id(d.pop("external_user_id", UNSET))

        def _parse_ttl_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl_seconds = _parse_ttl_seconds(d.pop("ttl_seconds", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        create_user_token_request = cls(
            scopes=scopes,
            external_user_id=external_user_id,
            ttl_seconds=ttl_seconds,
            user_id=user_id,
        )

        return create_user_token_request
