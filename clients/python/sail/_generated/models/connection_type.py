from enum import StrEnum


class ConnectionType(StrEnum):
    BENEFIT_ACCOUNT = "benefit_account"
    CARD = "card"
    EXTERNAL = "external"
    STORE = "store"

    def __str__(self) -> str:
        return str(self.value)
