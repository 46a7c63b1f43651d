from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UploadReceiptOptions")


@_attrs_define
class UploadReceiptOptions:
    """The options of an `upload_receipt` session. (gRPC carries them as
    HostedSessionOptions; this message only gives the document their shape.)

        Attributes:
            expense_id (None | str | Unset): The user's expense to attach the receipt to; without it the user picks
                one of their `needs_review` expenses.
    """

    expense_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expense_id: None | str | Unset
        if isinstance(self.expense_id, Unset):
            expense_id = UNSET
        else:
            expense_id = self.expense_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expense_id is not UNSET:
            field_dict["expense_id"] = expense_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_expense_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expense_id = _parse_expense_id(d.pop("expense_id", UNSET))

        upload_receipt_options = cls(
            expense_id=expense_id,
        )

        return upload_receipt_options
