from enum import StrEnum


class CreateConnectionRequestProductsItem(StrEnum):
    EXPENSES = "expenses"

    def __str__(self) -> str:
        return str(self.value)
