from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.hosted_session_completed_data_flow import HostedSessionCompletedDataFlow

T = TypeVar("T", bound="HostedSessionCompletedData")


@_attrs_define
class HostedSessionCompletedData:
    """A hosted session produced its outcome: a connection linked or repaired,
    a receipt attached.

        Attributes:
            connection_id (None | str):
            expense_id (None | str):
            flow (HostedSessionCompletedDataFlow):
            hosted_session_id (str):
            receipt_id (None | str):
            user_id (str):
    """

    connection_id: None | str
    expense_id: None | str
    flow: HostedSessionCompletedDataFlow
    hosted_session_id: str
    receipt_id: None | str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        connection_id: None | str
        connection_id = self.connection_id

        expense_id: None | str
        expense_id = self.expense_id

        flow = self.flow.value

        hosted_session_id = self.hosted_session_id

        receipt_id: None | str
        receipt_id = self.receipt_id

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
                "expense_id": expense_id,
                "flow": flow,
                "hosted_session_id": hosted_session_id,
                "receipt_id": receipt_id,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        def _parse_expense_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expense_id = _parse_expense_id(d.pop("expense_id"))

        flow = HostedSessionCompletedDataFlow(d.pop("flow"))

        hosted_session_id = d.pop("hosted_session_id")

        def _parse_receipt_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        receipt_id = _parse_receipt_id(d.pop("receipt_id"))

        user_id = d.pop("user_id")

        hosted_session_completed_data = cls(
            connection_id=connection_id,
            expense_id=expense_id,
            flow=flow,
            hosted_session_id=hosted_session_id,
            receipt_id=receipt_id,
            user_id=user_id,
        )

        return hosted_session_completed_data
