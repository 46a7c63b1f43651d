from enum import StrEnum


class EventDeliveryStatus(StrEnum):
    CANCELLED = "cancelled"
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
