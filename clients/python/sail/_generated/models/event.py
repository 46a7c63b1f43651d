from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.connection_error_data import ConnectionErrorData
    from ..models.connection_recovered_data import ConnectionRecoveredData
    from ..models.connection_synced_data import ConnectionSyncedData
    from ..models.delivery_attempt import DeliveryAttempt
    from ..models.event_delivery import EventDelivery
    from ..models.expense_readjudicated_data import ExpenseReadjudicatedData
    from ..models.hosted_session_completed_data import HostedSessionCompletedData
    from ..models.hosted_session_login_failed_data import HostedSessionLoginFailedData
    from ..models.job_failed_data import JobFailedData
    from ..models.receipt_unreadable_data import ReceiptUnreadableData
    from ..models.transactions_ingested_data import TransactionsIngestedData
    from ..models.user_deactivated_data import UserDeactivatedData
    from ..models.user_deleted_data import UserDeletedData
    from ..models.user_reactivated_data import UserReactivatedData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """
    Attributes:
        created_at (datetime.datetime):
        data (ConnectionErrorData | ConnectionRecoveredData | ConnectionSyncedData | ExpenseReadjudicatedData |
            HostedSessionCompletedData | HostedSessionLoginFailedData | JobFailedData | ReceiptUnreadableData |
            TransactionsIngestedData | UserDeactivatedData | UserDeletedData | UserReactivatedData): The event's data: the
            object of its type (the `webhooks` section lists each).
        deliveries (list[EventDelivery]):
        delivery_attempts (list[DeliveryAttempt]):
        id (str): `evt_` + UUIDv7 hex.
        type_ (str):
    """

    created_at: datetime.datetime
    data: (
        ConnectionErrorData
        | ConnectionRecoveredData
        | ConnectionSyncedData
        | ExpenseReadjudicatedData
        | HostedSessionCompletedData
        | HostedSessionLoginFailedData
        | JobFailedData
        | ReceiptUnreadableData
        | TransactionsIngestedData
        | UserDeactivatedData
        | UserDeletedData
        | UserReactivatedData
    )
    deliveries: list[EventDelivery]
    delivery_attempts: list[DeliveryAttempt]
    id: str
    type_: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_error_data import ConnectionErrorData
        from ..models.connection_recovered_data import ConnectionRecoveredData
        from ..models.connection_synced_data import ConnectionSyncedData
        from ..models.expense_readjudicated_data import ExpenseReadjudicatedData
        from ..models.hosted_session_completed_data import HostedSessionCompletedData
        from ..models.hosted_session_login_failed_data import (
            HostedSessionLoginFailedData,
        )
        from ..models.job_failed_data import JobFailedData
        from ..models.receipt_unreadable_data import ReceiptUnreadableData
        from ..models.transactions_ingested_data import TransactionsIngestedData
        from ..models.user_deactivated_data import UserDeactivatedData
        from ..models.user_deleted_data import UserDeletedData

        created_at = self.created_at.isoformat()

        data: dict[str, Any]
        if (
            isinstance(self.data, ConnectionErrorData)
            or isinstance(self.data, ConnectionRecoveredData)
            or isinstance(self.data, ConnectionSyncedData)
            or isinstance(self.data, ExpenseReadjudicatedData)
            or isinstance(self.data, HostedSessionCompletedData)
            or isinstance(self.data, HostedSessionLoginFailedData)
            or isinstance(self.data, JobFailedData)
            or isinstance(self.data, ReceiptUnreadableData)
            or isinstance(self.data, TransactionsIngestedData)
            or isinstance(self.data, UserDeactivatedData)
            or isinstance(self.data, UserDeletedData)
        ):
            data = self.data.to_dict()
        else:
            data = self.data.to_dict()

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        delivery_attempts = []
        for delivery_attempts_item_data in self.delivery_attempts:
            delivery_attempts_item = delivery_attempts_item_data.to_dict()
            delivery_attempts.append(delivery_attempts_item)

        id = self.id

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "data": data,
                "deliveries": deliveries,
                "delivery_attempts": delivery_attempts,
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connection_error_data import ConnectionErrorData
        from ..models.connection_recovered_data import ConnectionRecoveredData
        from ..models.connection_synced_data import ConnectionSyncedData
        from ..models.delivery_attempt import DeliveryAttempt
        from ..models.event_delivery import EventDelivery
        from ..models.expense_readjudicated_data import ExpenseReadjudicatedData
        from ..models.hosted_session_completed_data import HostedSessionCompletedData
        from ..models.hosted_session_login_failed_data import (
            HostedSessionLoginFailedData,
        )
        from ..models.job_failed_data import JobFailedData
        from ..models.receipt_unreadable_data import ReceiptUnreadableData
        from ..models.transactions_ingested_data import TransactionsIngestedData
        from ..models.user_deactivated_data import UserDeactivatedData
        from ..models.user_deleted_data import UserDeletedData
        from ..models.user_reactivated_data import UserReactivatedData

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_data(
            data: object,
        ) -> (
            ConnectionErrorData
            | ConnectionRecoveredData
            | ConnectionSyncedData
            | ExpenseReadjudicatedData
            | HostedSessionCompletedData
            | HostedSessionLoginFailedData
            | JobFailedData
            | ReceiptUnreadableData
            | TransactionsIngestedData
            | UserDeactivatedData
            | UserDeletedData
            | UserReactivatedData
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = ConnectionErrorData.from_dict(data)

                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_1 = ConnectionRecoveredData.from_dict(data)

                return data_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_2 = ConnectionSyncedData.from_dict(data)

                return data_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_3 = ExpenseReadjudicatedData.from_dict(data)

                return data_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_4 = HostedSessionCompletedData.from_dict(data)

                return data_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_5 = HostedSessionLoginFailedData.from_dict(data)

                return data_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_6 = JobFailedData.from_dict(data)

                return data_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_7 = ReceiptUnreadableData.from_dict(data)

                return data_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_8 = TransactionsIngestedData.from_dict(data)

                return data_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_9 = UserDeactivatedData.from_dict(data)

                return data_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_10 = UserDeletedData.from_dict(data)

                return data_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            data_type_11 = UserReactivatedData.from_dict(data)

            return data_type_11

        data = _parse_data(d.pop("data"))

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = EventDelivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        delivery_attempts = []
        _delivery_attempts = d.pop("delivery_attempts")
        for delivery_attempts_item_data in _delivery_attempts:
            delivery_attempts_item = DeliveryAttempt.from_dict(
                delivery_attempts_item_data
            )

            delivery_attempts.append(delivery_attempts_item)

        id = d.pop("id")

        type_ = d.pop("type")

        event = cls(
            created_at=created_at,
            data=data,
            deliveries=deliveries,
            delivery_attempts=delivery_attempts,
            id=id,
            type_=type_,
        )

        return event
