from enum import StrEnum


class CreateSandboxConnectionRequestStoreProductsItem(StrEnum):
    EXPENSES = "expenses"

    def __str__(self) -> str:
        return str(self.value)
