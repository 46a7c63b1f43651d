from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.error_error_code import ErrorErrorCode

T = TypeVar("T", bound="ErrorError")


@_attrs_define
class ErrorError:
    """
    Attributes:
        code (ErrorErrorCode): Machine-readable; match on this.
        message (str): Human-readable; may change.
        param (None | str): The request field (dotted for nesting) or header at fault; null when none.
    """

    code: ErrorErrorCode
    message: str
    param: None | str

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        param: None | str
        param = self.param

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "param": param,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = ErrorErrorCode(d.pop("code"))

        message = d.pop("message")

        def _parse_param(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        param = _parse_param(d.pop("param"))

        error_error = cls(
            code=code,
            message=message,
            param=param,
        )

        return error_error
