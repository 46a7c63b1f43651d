from enum import StrEnum


class HostedSessionLoginFailedDataFlow(StrEnum):
    CONNECT_ACCOUNT = "connect_account"
    RECONNECT = "reconnect"
    UPLOAD_RECEIPT = "upload_receipt"

    def __str__(self) -> str:
        return str(self.value)
