from enum import StrEnum


class ProviderKind(StrEnum):
    ADMINISTRATOR = "administrator"
    EXTERNAL = "external"
    FINANCIAL_INSTITUTION = "financial_institution"
    MERCHANT = "merchant"

    def __str__(self) -> str:
        return str(self.value)
