from enum import StrEnum


class ListExpensesStatus(StrEnum):
    ELIGIBLE = "eligible"
    INELIGIBLE = "ineligible"
    NEEDS_REVIEW = "needs_review"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
