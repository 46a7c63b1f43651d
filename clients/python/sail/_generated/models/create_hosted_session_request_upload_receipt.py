from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.upload_receipt_options import UploadReceiptOptions


T = TypeVar("T", bound="CreateHostedSessionRequestUploadReceipt")


@_attrs_define
class CreateHostedSessionRequestUploadReceipt:
    """Attaches a receipt to one of the user's expenses.

    Attributes:
        flow (Literal['upload_receipt']):
        user_id (str):
        options (None | Unset | UploadReceiptOptions):
    """

    flow: Literal["upload_receipt"]
    user_id: str
    options: None | Unset | UploadReceiptOptions = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.upload_receipt_options import UploadReceiptOptions

        flow = self.flow

        user_id = self.user_id

        options: dict[str, Any] | None | Unset
        if isinstance(self.options, Unset):
            options = UNSET
        elif isinstance(self.options, UploadReceiptOptions):
            options = self.options.to_dict()
        else:
            options = self.options

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flow": flow,
                "user_id": user_id,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.upload_receipt_options import UploadReceiptOptions

        d = dict(src_dict)
        flow = cast(Literal["upload_receipt"], d.pop("flow"))
        if flow != "upload_receipt":
            raise ValueError(f"flow must match const 'upload_receipt', got '{flow}'")

        user_id = d.pop("user_id")

        def _parse_options(data: object) -> None | Unset | UploadReceiptOptions:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                options_type_0 = UploadReceiptOptions.from_dict(data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UploadReceiptOptions, data)

        options = _parse_options(d.pop("options", UNSET))

        create_hosted_session_request_upload_receipt = cls(
            flow=flow,
            user_id=user_id,
            options=options,
        )

        return create_hosted_session_request_upload_receipt
