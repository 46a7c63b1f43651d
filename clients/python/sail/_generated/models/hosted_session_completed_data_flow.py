from enum import StrEnum


class HostedSessionCompletedDataFlow(StrEnum):
    CONNECT_ACCOUNT = "connect_account"
    RECONNECT = "reconnect"
    UPLOAD_RECEIPT = "upload_receipt"

    def __str__(self) -> str:
        return str(self.value)
