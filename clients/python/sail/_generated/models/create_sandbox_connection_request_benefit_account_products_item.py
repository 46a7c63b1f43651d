from enum import StrEnum


class CreateSandboxConnectionRequestBenefitAccountProductsItem(StrEnum):
    ACCOUNT_NUMBERS = "account_numbers"
    BENEFIT_ACCOUNT = "benefit_account"
    IDENTITY = "identity"

    def __str__(self) -> str:
        return str(self.value)
