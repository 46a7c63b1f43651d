from enum import StrEnum


class IdentityRecordSource(StrEnum):
    CONNECTION = "connection"
    PROFILE = "profile"

    def __str__(self) -> str:
        return str(self.value)
