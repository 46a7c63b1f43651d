from enum import StrEnum


class PushTransactionsResponseStatus(StrEnum):
    QUEUED = "queued"

    def __str__(self) -> str:
        return str(self.value)
