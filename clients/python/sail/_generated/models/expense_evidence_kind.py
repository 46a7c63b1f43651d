from enum import StrEnum


class ExpenseEvidenceKind(StrEnum):
    CATEGORY_CODE = "category_code"
    ITEMS = "items"
    KEYWORD = "keyword"
    MERCHANT = "merchant"

    def __str__(self) -> str:
        return str(self.value)
