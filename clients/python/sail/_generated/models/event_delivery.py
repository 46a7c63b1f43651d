from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_delivery_status import EventDeliveryStatus

T = TypeVar("T", bound="EventDelivery")


@_attrs_define
class EventDelivery:
    """
    Attributes:
        attempts (int):
        delivered_at (datetime.datetime | None):
        endpoint_id (str):
        next_attempt_at (datetime.datetime | None):
        status (EventDeliveryStatus):
    """

    attempts: int
    delivered_at: datetime.datetime | None
    endpoint_id: str
    next_attempt_at: datetime.datetime | None
    status: EventDeliveryStatus

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        endpoint_id = self.endpoint_id

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempts": attempts,
                "delivered_at": delivered_at,
                "endpoint_id": endpoint_id,
                "next_attempt_at": next_attempt_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        endpoint_id = d.pop("endpoint_id")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        status = EventDeliveryStatus(d.pop("status"))

        event_delivery = cls(
            attempts=attempts,
            delivered_at=delivered_at,
            endpoint_id=endpoint_id,
            next_attempt_at=next_attempt_at,
            status=status,
        )

        return event_delivery
