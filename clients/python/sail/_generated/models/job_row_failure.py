from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="JobRowFailure")


@_attrs_define
class JobRowFailure:
    """One row of a pushed batch that failed on its own after the `202`.

    Attributes:
        code (str): An error code of the envelope's vocabulary (`internal_error`).
        external_transaction_id (str):
        index (int): Position of the row in the pushed `transactions` array.
        message (str):
    """

    code: str
    external_transaction_id: str
    index: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        external_transaction_id = self.external_transaction_id

        index = self.index

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "external_transaction_id": external_transaction_id,
                "index": index,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        external_transaction_id = d.pop("external_transaction_id")

        index = d.pop("index")

        message = d.pop("message")

        job_row_failure = cls(
            code=code,
            external_transaction_id=external_transaction_id,
            index=index,
            message=message,
        )

        return job_row_failure
