from enum import StrEnum


class ExpenseAfterStatus(StrEnum):
    ELIGIBLE = "eligible"
    INELIGIBLE = "ineligible"
    NEEDS_REVIEW = "needs_review"

    def __str__(self) -> str:
        return str(self.value)
