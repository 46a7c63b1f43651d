from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_hosted_session_request_flow import CreateHostedSessionRequestFlow
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.hosted_session_options import HostedSessionOptions


T = TypeVar("T", bound="CreateHostedSessionRequest")


@_attrs_define
class CreateHostedSessionRequest:
    """
    Attributes:
        flow (CreateHostedSessionRequestFlow):
        user_id (str):
        options (HostedSessionOptions | None | Unset):
    """

    flow: CreateHostedSessionRequestFlow
    user_id: str
    options: HostedSessionOptions | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.hosted_session_options import HostedSessionOptions

        flow = self.flow.value

        user_id = self.user_id

        options: dict[str, Any] | None | Unset
        if isinstance(self.options, Unset):
            options = UNSET
        elif isinstance(self.options, HostedSessionOptions):
            options = self.options.to_dict()
        else:
            options = self.options

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flow": flow,
                "user_id": user_id,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.hosted_session_options import HostedSessionOptions

        d = dict(src_dict)
        flow = CreateHostedSessionRequestFlow(d.pop("flow"))

        user_id = d.pop("user_id")

        def _parse_options(data: object) -> HostedSessionOptions | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                options_type_0 = HostedSessionOptions.from_dict(data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HostedSessionOptions | None | Unset, data)

        options = _parse_options(d.pop("options", UNSET))

        create_hosted_session_request = cls(
            flow=flow,
            user_id=user_id,
            options=options,
        )

        return create_hosted_session_request
