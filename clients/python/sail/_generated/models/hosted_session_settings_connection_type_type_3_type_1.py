from enum import StrEnum


class HostedSessionSettingsConnectionTypeType3Type1(StrEnum):
    BENEFIT_ACCOUNT = "benefit_account"
    CARD = "card"
    STORE = "store"

    def __str__(self) -> str:
        return str(self.value)
