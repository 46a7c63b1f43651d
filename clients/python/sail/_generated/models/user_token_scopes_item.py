from enum import StrEnum


class UserTokenScopesItem(StrEnum):
    ACCOUNT_NUMBERS = "account_numbers"
    IDENTITY = "identity"

    def __str__(self) -> str:
        return str(self.value)
