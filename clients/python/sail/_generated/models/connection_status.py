from enum import StrEnum


class ConnectionStatus(StrEnum):
    ACTIVE = "active"
    AGGREGATING = "aggregating"
    DISCONNECTED = "disconnected"
    ERROR = "error"
    USER_INPUT_REQUIRED = "user_input_required"

    def __str__(self) -> str:
        return str(self.value)
