from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.account import Account
    from ..models.connection import Connection
    from ..models.expense import Expense
    from ..models.identity_record import IdentityRecord
    from ..models.masked_account_numbers import MaskedAccountNumbers
    from ..models.user import User


T = TypeVar("T", bound="UserExport")


@_attrs_define
class UserExport:
    """Everything Sail holds about one user.

    Attributes:
        account_numbers (list[MaskedAccountNumbers]):
        accounts (list[Account]):
        connections (list[Connection]):
        expenses (list[Expense]): Newest purchase first, each with its receipts.
        exported_at (datetime.datetime): When the export was read, RFC 3339, UTC.
        identity (list[IdentityRecord]): The profile first, then one record per connection that reported one.
        user (User):
    """

    account_numbers: list[MaskedAccountNumbers]
    accounts: list[Account]
    connections: list[Connection]
    expenses: list[Expense]
    exported_at: datetime.datetime
    identity: list[IdentityRecord]
    user: User

    def to_dict(self) -> dict[str, Any]:
        account_numbers = []
        for account_numbers_item_data in self.account_numbers:
            account_numbers_item = account_numbers_item_data.to_dict()
            account_numbers.append(account_numbers_item)

        accounts = []
        for accounts_item_data in self.accounts:
            accounts_item = accounts_item_data.to_dict()
            accounts.append(accounts_item)

        connections = []
        for connections_item_data in self.connections:
            connections_item = connections_item_data.to_dict()
            connections.append(connections_item)

        expenses = []
        for expenses_item_data in self.expenses:
            expenses_item = expenses_item_data.to_dict()
            expenses.append(expenses_item)

        exported_at = self.exported_at.isoformat()

        identity = []
        for identity_item_data in self.identity:
            identity_item = identity_item_data.to_dict()
            identity.append(identity_item)

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_numbers": account_numbers,
                "accounts": accounts,
                "connections": connections,
                "expenses": expenses,
                "exported_at": exported_at,
                "identity": identity,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account import Account
        from ..models.connection import Connection
        from ..models.expense import Expense
        from ..models.identity_record import IdentityRecord
        from ..models.masked_account_numbers import MaskedAccountNumbers
        from ..models.user import User

        d = dict(src_dict)
        account_numbers = []
        _account_numbers = d.pop("account_numbers")
        for account_numbers_item_data in _account_numbers:
            account_numbers_item = MaskedAccountNumbers.from_dict(
                account_numbers_item_data
            )

            account_numbers.append(account_numbers_item)

        accounts = []
        _accounts = d.pop("accounts")
        for accounts_item_data in _accounts:
            accounts_item = Account.from_dict(accounts_item_data)

            accounts.append(accounts_item)

        connections = []
        _connections = d.pop("connections")
        for connections_item_data in _connections:
            connections_item = Connection.from_dict(connections_item_data)

            connections.append(connections_item)

        expenses = []
        _expenses = d.pop("expenses")
        for expenses_item_data in _expenses:
            expenses_item = Expense.from_dict(expenses_item_data)

            expenses.append(expenses_item)

        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))

        identity = []
        _identity = d.pop("identity")
        for identity_item_data in _identity:
            identity_item = IdentityRecord.from_dict(identity_item_data)

            identity.append(identity_item)

        user = User.from_dict(d.pop("user"))

        user_export = cls(
            account_numbers=account_numbers,
            accounts=accounts,
            connections=connections,
            expenses=expenses,
            exported_at=exported_at,
            identity=identity,
            user=user,
        )

        return user_export
