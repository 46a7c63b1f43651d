from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.job_status import JobStatus

if TYPE_CHECKING:
    from ..models.job_row_failure import JobRowFailure


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """
    Attributes:
        accepted (int):
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        duplicates_updated (int):
        failed (int): Rows that could not be stored, each on its own: every other row of the
            batch was stored and adjudicated. Zero unless something went wrong on
            Sail's side after the `202`; push such rows again to retry them.
        failures (list[JobRowFailure]): The rows counted in `failed`, in batch order.
        id (str):
        processed (int): Transactions adjudicated by this job.
        status (JobStatus):
    """

    accepted: int
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    duplicates_updated: int
    failed: int
    failures: list[JobRowFailure]
    id: str
    processed: int
    status: JobStatus

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        duplicates_updated = self.duplicates_updated

        failed = self.failed

        failures = []
        for failures_item_data in self.failures:
            failures_item = failures_item_data.to_dict()
            failures.append(failures_item)

        id = self.id

        processed = self.processed

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "completed_at": completed_at,
                "created_at": created_at,
                "duplicates_updated": duplicates_updated,
                "failed": failed,
                "failures": failures,
                "id": id,
                "processed": processed,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_row_failure import JobRowFailure

        d = dict(src_dict)
        accepted = d.pop("accepted")

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

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        duplicates_updated = d.pop("duplicates_updated")

        failed = d.pop("failed")

        failures = []
        _failures = d.pop("failures")
        for failures_item_data in _failures:
            failures_item = JobRowFailure.from_dict(failures_item_data)

            failures.append(failures_item)

        id = d.pop("id")

        processed = d.pop("processed")

        status = JobStatus(d.pop("status"))

        job = cls(
            accepted=accepted,
            completed_at=completed_at,
            created_at=created_at,
            duplicates_updated=duplicates_updated,
            failed=failed,
            failures=failures,
            id=id,
            processed=processed,
            status=status,
        )

        return job
