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

if TYPE_CHECKING:
    from ..models.connect_account_options_benefit_account import (
        ConnectAccountOptionsBenefitAccount,
    )
    from ..models.connect_account_options_card import ConnectAccountOptionsCard
    from ..models.connect_account_options_store import ConnectAccountOptionsStore


T = TypeVar("T", bound="CreateHostedSessionRequestConnectAccount")


@_attrs_define
class CreateHostedSessionRequestConnectAccount:
    """Links a card, a store login or an HSA/FSA administrator.

    Attributes:
        flow (Literal['connect_account']):
        options (ConnectAccountOptionsBenefitAccount | ConnectAccountOptionsCard | ConnectAccountOptionsStore): The
            options of a `connect_account` session. (gRPC carries them as
            HostedSessionOptions; this message only gives the document their shape.)
        user_id (str):
    """

    flow: Literal["connect_account"]
    options: (
        ConnectAccountOptionsBenefitAccount
        | ConnectAccountOptionsCard
        | ConnectAccountOptionsStore
    )
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.connect_account_options_card import ConnectAccountOptionsCard
        from ..models.connect_account_options_store import ConnectAccountOptionsStore

        flow = self.flow

        options: dict[str, Any]
        if isinstance(self.options, ConnectAccountOptionsCard) or isinstance(
            self.options, ConnectAccountOptionsStore
        ):
            options = self.options.to_dict()
        else:
            options = self.options.to_dict()

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flow": flow,
                "options": options,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connect_account_options_benefit_account import (
            ConnectAccountOptionsBenefitAccount,
        )
        from ..models.connect_account_options_card import ConnectAccountOptionsCard
        from ..models.connect_account_options_store import ConnectAccountOptionsStore

        d = dict(src_dict)
        flow = cast(Literal["connect_account"], d.pop("flow"))
        if flow != "connect_account":
            raise ValueError(f"flow must match const 'connect_account', got '{flow}'")

        def _parse_options(
            data: object,
        ) -> (
            ConnectAccountOptionsBenefitAccount
            | ConnectAccountOptionsCard
            | ConnectAccountOptionsStore
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_connect_account_options_type_0 = (
                    ConnectAccountOptionsCard.from_dict(data)
                )

                return componentsschemas_connect_account_options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_connect_account_options_type_1 = (
                    ConnectAccountOptionsStore.from_dict(data)
                )

                return componentsschemas_connect_account_options_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_connect_account_options_type_2 = (
                ConnectAccountOptionsBenefitAccount.from_dict(data)
            )

            return componentsschemas_connect_account_options_type_2

        options = _parse_options(d.pop("options"))

        user_id = d.pop("user_id")

        create_hosted_session_request_connect_account = cls(
            flow=flow,
            options=options,
            user_id=user_id,
        )

        return create_hosted_session_request_connect_account
