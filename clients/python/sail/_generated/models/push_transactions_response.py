from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.push_transactions_response_status import PushTransactionsResponseStatus

T = TypeVar("T", bound="PushTransactionsResponse")


@_attrs_define
class PushTransactionsResponse:
    """
    Attributes:
        accepted (int): New transactions queued for adjudication.
        duplicates_updated (int): Rows whose id already existed (or repeated in the batch): updated and
            re-adjudicated.
        job_id (str):
        status (PushTransactionsResponseStatus):
    """

    accepted: int
    duplicates_updated: int
    job_id: str
    status: PushTransactionsResponseStatus

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        duplicates_updated = self.duplicates_updated

        job_id = self.job_id

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "duplicates_updated": duplicates_updated,
                "job_id": job_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        accepted = d.pop("accepted")

        duplicates_updated = d.pop("duplicates_updated")

        job_id = d.pop("job_id")

        status = PushTransactionsResponseStatus(d.pop("status"))

        push_transactions_response = cls(
            accepted=accepted,
            duplicates_updated=duplicates_updated,
            job_id=job_id,
            status=status,
        )

        return push_transactions_response
