from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.hosted_session_flow import HostedSessionFlow
from ..models.hosted_session_status import HostedSessionStatus

if TYPE_CHECKING:
    from ..models.hosted_session_settings import HostedSessionSettings


T = TypeVar("T", bound="HostedSession")


@_attrs_define
class HostedSession:
    """A hosted session. `url` is in the response that created it only: it is
    single-use, and opening it binds the flow to that browser.

        Attributes:
            completed_at (datetime.datetime | None):
            connection_id (None | str): The connection it linked or repaired.
            created_at (datetime.datetime):
            expense_id (None | str): The expense it attached a receipt to, and the receipt.
            expires_at (datetime.datetime): After this instant the URL cannot be opened.
            flow (HostedSessionFlow):
            id (str): `hs_` + UUIDv7 hex.
            opened_at (datetime.datetime | None):
            options (HostedSessionSettings): The options a session was created with.
            receipt_id (None | str):
            status (HostedSessionStatus): `pending` until opened, `opened` while the user is in it, `completed`
                once it produced its outcome, `expired` when it passed `expires_at`
                without one.
            url (None | str): `<public url>/hosted/<token>`: embed or redirect to it.
            user_id (str):
    """

    completed_at: datetime.datetime | None
    connection_id: None | str
    created_at: datetime.datetime
    expense_id: None | str
    expires_at: datetime.datetime
    flow: HostedSessionFlow
    id: str
    opened_at: datetime.datetime | None
    options: HostedSessionSettings
    receipt_id: None | str
    status: HostedSessionStatus
    url: None | str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        connection_id: None | str
        connection_id = self.connection_id

        created_at = self.created_at.isoformat()

        expense_id: None | str
        expense_id = self.expense_id

        expires_at = self.expires_at.isoformat()

        flow = self.flow.value

        id = self.id

        opened_at: None | str
        if isinstance(self.opened_at, datetime.datetime):
            opened_at = self.opened_at.isoformat()
        else:
            opened_at = self.opened_at

        options = self.options.to_dict()

        receipt_id: None | str
        receipt_id = self.receipt_id

        status = self.status.value

        url: None | str
        url = self.url

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "completed_at": completed_at,
                "connection_id": connection_id,
                "created_at": created_at,
                "expense_id": expense_id,
                "expires_at": expires_at,
                "flow": flow,
                "id": id,
                "opened_at": opened_at,
                "options": options,
                "receipt_id": receipt_id,
                "status": status,
                "url": url,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.hosted_session_settings import HostedSessionSettings

        d = dict(src_dict)

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_expense_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expense_id = _parse_expense_id(d.pop("expense_id"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        flow = HostedSessionFlow(d.pop("flow"))

        id = d.pop("id")

        def _parse_opened_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opened_at_type_0 = datetime.datetime.fromisoformat(data)

                return opened_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        opened_at = _parse_opened_at(d.pop("opened_at"))

        options = HostedSessionSettings.from_dict(d.pop("options"))

        def _parse_receipt_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        receipt_id = _parse_receipt_id(d.pop("receipt_id"))

        status = HostedSessionStatus(d.pop("status"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        user_id = d.pop("user_id")

        hosted_session = cls(
            completed_at=completed_at,
            connection_id=connection_id,
            created_at=created_at,
            expense_id=expense_id,
            expires_at=expires_at,
            flow=flow,
            id=id,
            opened_at=opened_at,
            options=options,
            receipt_id=receipt_id,
            status=status,
            url=url,
            user_id=user_id,
        )

        return hosted_session
