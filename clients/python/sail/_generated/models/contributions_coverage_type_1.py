from enum import StrEnum


class ContributionsCoverageType1(StrEnum):
    FAMILY = "family"
    SELF_ONLY = "self_only"

    def __str__(self) -> str:
        return str(self.value)
