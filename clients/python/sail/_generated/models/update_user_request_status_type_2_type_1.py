from enum import StrEnum


class UpdateUserRequestStatusType2Type1(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)
