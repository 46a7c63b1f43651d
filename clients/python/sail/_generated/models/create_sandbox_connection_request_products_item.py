from enum import StrEnum


class CreateSandboxConnectionRequestProductsItem(StrEnum):
    ACCOUNT_NUMBERS = "account_numbers"
    BENEFIT_ACCOUNT = "benefit_account"
    EXPENSES = "expenses"
    IDENTITY = "identity"

    def __str__(self) -> str:
        return str(self.value)
