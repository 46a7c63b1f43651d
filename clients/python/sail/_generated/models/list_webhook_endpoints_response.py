from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pagination import Pagination
    from ..models.webhook_endpoint import WebhookEndpoint


T = TypeVar("T", bound="ListWebhookEndpointsResponse")


@_attrs_define
class ListWebhookEndpointsResponse:
    """
    Attributes:
        data (list[WebhookEndpoint]):
        pagination (Pagination): Returned as `pagination` by every list operation.
    """

    data: list[WebhookEndpoint]
    pagination: Pagination

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        pagination = self.pagination.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "pagination": pagination,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pagination import Pagination
        from ..models.webhook_endpoint import WebhookEndpoint

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = WebhookEndpoint.from_dict(data_item_data)

            data.append(data_item)

        pagination = Pagination.from_dict(d.pop("pagination"))

        list_webhook_endpoints_response = cls(
            data=data,
            pagination=pagination,
        )

        return list_webhook_endpoints_response
