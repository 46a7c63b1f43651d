from enum import StrEnum


class ReceiptStatus(StrEnum):
    PROCESSING = "processing"
    READ = "read"
    UNREADABLE = "unreadable"

    def __str__(self) -> str:
        return str(self.value)
