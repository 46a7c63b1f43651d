from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_sandbox_event_request_type import CreateSandboxEventRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateSandboxEventRequest")


@_attrs_define
class CreateSandboxEventRequest:
    """
    Attributes:
        type_ (CreateSandboxEventRequestType): The event type to fire.
        user_id (None | str | Unset): A user of the partner for the event to name; absent, an id made for
            the test. An unknown user is `404 not_found`.
    """

    type_: CreateSandboxEventRequestType
    user_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = CreateSandboxEventRequestType(d.pop("type"))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        create_sandbox_event_request = cls(
            type_=type_,
            user_id=user_id,
        )

        return create_sandbox_event_request
