from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.user_token_scopes_item import UserTokenScopesItem
from ..models.user_token_status import UserTokenStatus

T = TypeVar("T", bound="UserToken")


@_attrs_define
class UserToken:
    """A user token. `token` is present only in the response that minted it.

    Attributes:
        created_at (datetime.datetime):
        expires_at (datetime.datetime): RFC 3339, UTC: the first second at which the token is refused.
        id (str): `utok_` + UUIDv7 hex: names the token in a revocation and in the audit
            trail; it is not the credential.
        revoked_at (datetime.datetime | None): When the token was revoked; null while it is not.
        scopes (list[UserTokenScopesItem]): What the token opens: `identity`, `account_numbers`.
        status (UserTokenStatus): `active`, `expired` or `revoked`, as of this response.
        token (None | str): The credential, `ut_` + 43 base62 characters; null except in the
            response that minted it.
        user_created (bool): True when this exchange created the user (by `external_user_id`).
        user_id (str): The user the token opens.
    """

    created_at: datetime.datetime
    expires_at: datetime.datetime
    id: str
    revoked_at: datetime.datetime | None
    scopes: list[UserTokenScopesItem]
    status: UserTokenStatus
    token: None | str
    user_created: bool
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        id = self.id

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        status = self.status.value

        token: None | str
        token = self.token

        user_created = self.user_created

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "expires_at": expires_at,
                "id": id,
                "revoked_at": revoked_at,
                "scopes": scopes,
                "status": status,
                "token": token,
                "user_created": user_created,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = d.pop("id")

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = UserTokenScopesItem(scopes_item_data)

            scopes.append(scopes_item)

        status = UserTokenStatus(d.pop("status"))

        def _parse_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token = _parse_token(d.pop("token"))

        user_created = d.pop("user_created")

        user_id = d.pop("user_id")

        user_token = cls(
            created_at=created_at,
            expires_at=expires_at,
            id=id,
            revoked_at=revoked_at,
            scopes=scopes,
            status=status,
            token=token,
            user_created=user_created,
            user_id=user_id,
        )

        return user_token
