from enum import StrEnum


class JobFailedDataKind(StrEnum):
    INGEST_TRANSACTIONS = "ingest_transactions"
    SYNC_CONNECTION = "sync_connection"

    def __str__(self) -> str:
        return str(self.value)
