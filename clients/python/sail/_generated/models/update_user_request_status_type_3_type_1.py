from enum import StrEnum


class UpdateUserRequestStatusType3Type1(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)
