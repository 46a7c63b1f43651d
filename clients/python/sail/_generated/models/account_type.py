from enum import StrEnum


class AccountType(StrEnum):
    CHECKING = "checking"
    CREDIT_CARD = "credit_card"
    FSA = "fsa"
    HRA = "hra"
    HSA = "hsa"
    SAVINGS = "savings"

    def __str__(self) -> str:
        return str(self.value)
