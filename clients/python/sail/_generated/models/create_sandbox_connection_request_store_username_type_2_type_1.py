from enum import StrEnum


class CreateSandboxConnectionRequestStoreUsernameType2Type1(StrEnum):
    USER_ERROR = "user_error"
    USER_GOOD = "user_good"

    def __str__(self) -> str:
        return str(self.value)
