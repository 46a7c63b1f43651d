from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.hosted_session_login_failed_data_flow import (
    HostedSessionLoginFailedDataFlow,
)
from ..models.hosted_session_login_failed_data_reason import (
    HostedSessionLoginFailedDataReason,
)

T = TypeVar("T", bound="HostedSessionLoginFailedData")


@_attrs_define
class HostedSessionLoginFailedData:
    """A sign-in on a hosted session's page was refused.

    Attributes:
        flow (HostedSessionLoginFailedDataFlow):
        hosted_session_id (str):
        reason (HostedSessionLoginFailedDataReason):
        user_id (str):
    """

    flow: HostedSessionLoginFailedDataFlow
    hosted_session_id: str
    reason: HostedSessionLoginFailedDataReason
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        flow = self.flow.value

        hosted_session_id = self.hosted_session_id

        reason = self.reason.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flow": flow,
                "hosted_session_id": hosted_session_id,
                "reason": reason,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        flow = HostedSessionLoginFailedDataFlow(d.pop("flow"))

        hosted_session_id = d.pop("hosted_session_id")

        reason = HostedSessionLoginFailedDataReason(d.pop("reason"))

        user_id = d.pop("user_id")

        hosted_session_login_failed_data = cls(
            flow=flow,
            hosted_session_id=hosted_session_id,
            reason=reason,
            user_id=user_id,
        )

        return hosted_session_login_failed_data
