from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_counts import EventCounts


T = TypeVar("T", bound="TransactionsIngestedData")


@_attrs_define
class TransactionsIngestedData:
    """A pushed batch has been adjudicated.

    Attributes:
        accepted (int): Rows stored by the push.
        connection_id (str):
        counts (EventCounts): How many of a batch's expenses were decided each way.
        duplicates_updated (int): Rows that replaced an earlier push of the same external id.
        job_id (str):
        user_id (str):
        failed (int | Unset): Rows that failed on their own after the `202` (see `GET /jobs/{job_id}`'s
            `failures`); absent when none did.
    """

    accepted: int
    connection_id: str
    counts: EventCounts
    duplicates_updated: int
    job_id: str
    user_id: str
    failed: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        connection_id = self.connection_id

        counts = self.counts.to_dict()

        duplicates_updated = self.duplicates_updated

        job_id = self.job_id

        user_id = self.user_id

        failed = self.failed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "connection_id": connection_id,
                "counts": counts,
                "duplicates_updated": duplicates_updated,
                "job_id": job_id,
                "user_id": user_id,
            }
        )
        if failed is not UNSET:
            field_dict["failed"] = failed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_counts import EventCounts

        d = dict(src_dict)
        accepted = d.pop("accepted")

        connection_id = d.pop("connection_id")

        counts = EventCounts.from_dict(d.pop("counts"))

        duplicates_updated = d.pop("duplicates_updated")

        job_id = d.pop("job_id")

        user_id = d.pop("user_id")

        failed = d.pop("failed", UNSET)

        transactions_ingested_data = cls(
            accepted=accepted,
            connection_id=connection_id,
            counts=counts,
            duplicates_updated=duplicates_updated,
            job_id=job_id,
            user_id=user_id,
            failed=failed,
        )

        return transactions_ingested_data
