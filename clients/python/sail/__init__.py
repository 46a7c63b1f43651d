"""Sail's partner data API, for Python: ``sail.Client`` and its resources,
the errors it raises, and ``sail.webhooks`` to verify deliveries.

    import sail
    client = sail.Client(api_key="sk_…", base_url="http://127.0.0.1:8080/api/v1")
    user = client.users.create(external_user_id="partner-user-42")
    for expense in client.expenses.list(user.id):
        print(expense.status)
"""

from . import webhooks
from ._client import Client, ListIterator, Page
from ._errors import (
    ApiError,
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionError,
    RateLimitError,
    SailError,
    ServiceUnavailableError,
    SignatureVerificationError,
)

__all__ = [
    "ApiError",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "InvalidRequestError",
    "ListIterator",
    "NotFoundError",
    "Page",
    "PermissionError",
    "RateLimitError",
    "SailError",
    "ServiceUnavailableError",
    "SignatureVerificationError",
    "webhooks",
]
