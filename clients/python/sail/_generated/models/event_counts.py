from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EventCounts")


@_attrs_define
class EventCounts:
    """How many of a batch's expenses were decided each way.

    Attributes:
        eligible (int):
        ineligible (int):
        needs_review (int):
    """

    eligible: int
    ineligible: int
    needs_review: int

    def to_dict(self) -> dict[str, Any]:
        eligible = self.eligible

        ineligible = self.ineligible

        needs_review = self.needs_review

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eligible": eligible,
                "ineligible": ineligible,
                "needs_review": needs_review,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        eligible = d.pop("eligible")

        ineligible = d.pop("ineligible")

        needs_review = d.pop("needs_review")

        event_counts = cls(
            eligible=eligible,
            ineligible=ineligible,
            needs_review=needs_review,
        )

        return event_counts
