from enum import StrEnum


class CreateSandboxConnectionRequestCardUsernameType1(StrEnum):
    USER_ERROR = "user_error"
    USER_GOOD = "user_good"

    def __str__(self) -> str:
        return str(self.value)
