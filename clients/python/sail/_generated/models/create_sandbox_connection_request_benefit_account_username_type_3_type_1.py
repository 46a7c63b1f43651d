from enum import StrEnum


class CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1(StrEnum):
    USER_ERROR = "user_error"
    USER_GOOD = "user_good"

    def __str__(self) -> str:
        return str(self.value)
