from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.connection_synced_data_type import ConnectionSyncedDataType

if TYPE_CHECKING:
    from ..models.event_counts import EventCounts


T = TypeVar("T", bound="ConnectionSyncedData")


@_attrs_define
class ConnectionSyncedData:
    """A card, store or administrator connection finished a sync: its expenses
    or accounts are ready.

        Attributes:
            accepted (int):
            accounts (int): Accounts read (administrators); 0 for cards and stores.
            connection_id (str):
            counts (EventCounts): How many of a batch's expenses were decided each way.
            duplicates_updated (int):
            job_id (str):
            type_ (ConnectionSyncedDataType):
            user_id (str):
    """

    accepted: int
    accounts: int
    connection_id: str
    counts: EventCounts
    duplicates_updated: int
    job_id: str
    type_: ConnectionSyncedDataType
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        accounts = self.accounts

        connection_id = self.connection_id

        counts = self.counts.to_dict()

        duplicates_updated = self.duplicates_updated

        job_id = self.job_id

        type_ = self.type_.value

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "accounts": accounts,
                "connection_id": connection_id,
                "counts": counts,
                "duplicates_updated": duplicates_updated,
                "job_id": job_id,
                "type": type_,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_counts import EventCounts

        d = dict(src_dict)
        accepted = d.pop("accepted")

        accounts = d.pop("accounts")

        connection_id = d.pop("connection_id")

        counts = EventCounts.from_dict(d.pop("counts"))

        duplicates_updated = d.pop("duplicates_updated")

        job_id = d.pop("job_id")

        type_ = ConnectionSyncedDataType(d.pop("type"))

        user_id = d.pop("user_id")

        connection_synced_data = cls(
            accepted=accepted,
            accounts=accounts,
            connection_id=connection_id,
            counts=counts,
            duplicates_updated=duplicates_updated,
            job_id=job_id,
            type_=type_,
            user_id=user_id,
        )

        return connection_synced_data
