from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from .. import types
from ..types import File

T = TypeVar("T", bound="CreateReceiptBody")


@_attrs_define
class CreateReceiptBody:
    """
    Attributes:
        file (File): The file, with its filename. PDF, PNG, JPEG, WebP or plain text, recognised from its bytes; at most
            10 MiB.
    """

    file: File

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "file": file,
            }
        )

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

        create_receipt_body = cls(
            file=file,
        )

        return create_receipt_body
