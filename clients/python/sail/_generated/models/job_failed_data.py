from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.job_failed_data_kind import JobFailedDataKind

if TYPE_CHECKING:
    from ..models.event_reason import EventReason


T = TypeVar("T", bound="JobFailedData")


@_attrs_define
class JobFailedData:
    """A push or a sync failed five times and Sail stopped trying: push the rows
    again to retry.

        Attributes:
            attempts (int):
            connection_id (None | str):
            error (EventReason): A machine-readable code and a human-readable message.
            job_id (str):
            kind (JobFailedDataKind):
            user_id (None | str):
    """

    attempts: int
    connection_id: None | str
    error: EventReason
    job_id: str
    kind: JobFailedDataKind
    user_id: None | str

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        connection_id: None | str
        connection_id = self.connection_id

        error = self.error.to_dict()

        job_id = self.job_id

        kind = self.kind.value

        user_id: None | str
        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempts": attempts,
                "connection_id": connection_id,
                "error": error,
                "job_id": job_id,
                "kind": kind,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_reason import EventReason

        d = dict(src_dict)
        attempts = d.pop("attempts")

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        error = EventReason.from_dict(d.pop("error"))

        job_id = d.pop("job_id")

        kind = JobFailedDataKind(d.pop("kind"))

        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))

        job_failed_data = cls(
            attempts=attempts,
            connection_id=connection_id,
            error=error,
            job_id=job_id,
            kind=kind,
            user_id=user_id,
        )

        return job_failed_data
