from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Pagination")


@_attrs_define
class Pagination:
    """Returned as `pagination` by every list operation.

    Attributes:
        has_more (bool): True when more pages follow.
        limit (int): Limit used for this page.
        offset (int): Offset used for this page.
        total (int): Matching records across all pages.
    """

    has_more: bool
    limit: int
    offset: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        limit = self.limit

        offset = self.offset

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "has_more": has_more,
                "limit": limit,
                "offset": offset,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        has_more = d.pop("has_more")

        limit = d.pop("limit")

        offset = d.pop("offset")

        total = d.pop("total")

        pagination = cls(
            has_more=has_more,
            limit=limit,
            offset=offset,
            total=total,
        )

        return pagination
