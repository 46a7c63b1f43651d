from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_endpoint_status import WebhookEndpointStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        created_at (datetime.datetime):
        events (list[str]): Event types delivered; empty means every type.
        id (str): `whe_` + UUIDv7 hex.
        status (WebhookEndpointStatus):
        url (str):
        secret (str | Unset): `whsec_…`: only in the response that created the endpoint.
    """

    created_at: datetime.datetime
    events: list[str]
    id: str
    status: WebhookEndpointStatus
    url: str
    secret: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        events = self.events

        id = self.id

        status = self.status.value

        url = self.url

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "events": events,
                "id": id,
                "status": status,
                "url": url,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        events = cast(list[str], d.pop("events"))

        id = d.pop("id")

        status = WebhookEndpointStatus(d.pop("status"))

        url = d.pop("url")

        secret = d.pop("secret", UNSET)

        webhook_endpoint = cls(
            created_at=created_at,
            events=events,
            id=id,
            status=status,
            url=url,
            secret=secret,
        )

        return webhook_endpoint
