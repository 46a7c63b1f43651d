from enum import StrEnum


class ListHostedSessionsStatus(StrEnum):
    COMPLETED = "completed"
    EXPIRED = "expired"
    OPENED = "opened"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
