from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.reconnect_options import ReconnectOptions


T = TypeVar("T", bound="CreateHostedSessionRequestReconnect")


@_attrs_define
class CreateHostedSessionRequestReconnect:
    """Repairs a Sail-managed connection in `error`.

    Attributes:
        flow (Literal['reconnect']):
        options (ReconnectOptions): The options of a `reconnect` session. (gRPC carries them as
            HostedSessionOptions; this message only gives the document their shape.)
        user_id (str):
    """

    flow: Literal["reconnect"]
    options: ReconnectOptions
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        flow = self.flow

        options = self.options.to_dict()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flow": flow,
                "options": options,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.reconnect_options import ReconnectOptions

        d = dict(src_dict)
        flow = cast(Literal["reconnect"], d.pop("flow"))
        if flow != "reconnect":
            raise ValueError(f"flow must match const 'reconnect', got '{flow}'")

        options = ReconnectOptions.from_dict(d.pop("options"))

        user_id = d.pop("user_id")

        create_hosted_session_request_reconnect = cls(
            flow=flow,
            options=options,
            user_id=user_id,
        )

        return create_hosted_session_request_reconnect
