from enum import StrEnum


class CreateConnectionRequestType(StrEnum):
    EXTERNAL = "external"

    def __str__(self) -> str:
        return str(self.value)
