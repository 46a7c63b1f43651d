from enum import StrEnum


class AdministratorAccountTypesItem(StrEnum):
    FSA = "fsa"
    HRA = "hra"
    HSA = "hsa"

    def __str__(self) -> str:
        return str(self.value)
