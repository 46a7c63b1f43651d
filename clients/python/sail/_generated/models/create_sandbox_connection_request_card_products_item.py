from enum import StrEnum


class CreateSandboxConnectionRequestCardProductsItem(StrEnum):
    EXPENSES = "expenses"

    def __str__(self) -> str:
        return str(self.value)
