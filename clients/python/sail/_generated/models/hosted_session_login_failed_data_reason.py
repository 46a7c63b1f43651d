from enum import StrEnum


class HostedSessionLoginFailedDataReason(StrEnum):
    INVALID_CREDENTIALS = "invalid_credentials"

    def __str__(self) -> str:
        return str(self.value)
