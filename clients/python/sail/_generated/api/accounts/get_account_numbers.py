from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.account_numbers import AccountNumbers
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    user_id: str,
    account_id: str,
    *,
    sail_user_token: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Sail-User-Token"] = sail_user_token

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/users/{user_id}/accounts/{account_id}/numbers".format(
            user_id=quote(str(user_id), safe=""),
            account_id=quote(str(account_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AccountNumbers | Error | None:
    if response.status_code == 200:
        response_200 = AccountNumbers.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AccountNumbers | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    account_id: str,
    *,
    client: AuthenticatedClient,
    sail_user_token: str,
) -> Response[AccountNumbers | Error]:
    """The ACH numbers of a deposit account (docs/pii.md).

     The ACH numbers of a deposit account (docs/pii.md). Personal data: it
    needs a key with the `account_numbers` scope and a user token for the
    same user with the `account_numbers` scope, and the owning connection
    must have the `account_numbers` product (`403 product_not_enabled`
    otherwise). Every read is recorded in the audit trail.

    Needs a key with scope `account_numbers`. Also needs a user token with scope `account_numbers` in
    the `Sail-User-Token` header.

    Args:
        user_id (str):
        account_id (str):
        sail_user_token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountNumbers | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        account_id=account_id,
        sail_user_token=sail_user_token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    account_id: str,
    *,
    client: AuthenticatedClient,
    sail_user_token: str,
) -> AccountNumbers | Error | None:
    """The ACH numbers of a deposit account (docs/pii.md).

     The ACH numbers of a deposit account (docs/pii.md). Personal data: it
    needs a key with the `account_numbers` scope and a user token for the
    same user with the `account_numbers` scope, and the owning connection
    must have the `account_numbers` product (`403 product_not_enabled`
    otherwise). Every read is recorded in the audit trail.

    Needs a key with scope `account_numbers`. Also needs a user token with scope `account_numbers` in
    the `Sail-User-Token` header.

    Args:
        user_id (str):
        account_id (str):
        sail_user_token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountNumbers | Error
    """

    return sync_detailed(
        user_id=user_id,
        account_id=account_id,
        client=client,
        sail_user_token=sail_user_token,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    account_id: str,
    *,
    client: AuthenticatedClient,
    sail_user_token: str,
) -> Response[AccountNumbers | Error]:
    """The ACH numbers of a deposit account (docs/pii.md).

     The ACH numbers of a deposit account (docs/pii.md). Personal data: it
    needs a key with the `account_numbers` scope and a user token for the
    same user with the `account_numbers` scope, and the owning connection
    must have the `account_numbers` product (`403 product_not_enabled`
    otherwise). Every read is recorded in the audit trail.

    Needs a key with scope `account_numbers`. Also needs a user token with scope `account_numbers` in
    the `Sail-User-Token` header.

    Args:
        user_id (str):
        account_id (str):
        sail_user_token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountNumbers | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        account_id=account_id,
        sail_user_token=sail_user_token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    account_id: str,
    *,
    client: AuthenticatedClient,
    sail_user_token: str,
) -> AccountNumbers | Error | None:
    """The ACH numbers of a deposit account (docs/pii.md).

     The ACH numbers of a deposit account (docs/pii.md). Personal data: it
    needs a key with the `account_numbers` scope and a user token for the
    same user with the `account_numbers` scope, and the owning connection
    must have the `account_numbers` product (`403 product_not_enabled`
    otherwise). Every read is recorded in the audit trail.

    Needs a key with scope `account_numbers`. Also needs a user token with scope `account_numbers` in
    the `Sail-User-Token` header.

    Args:
        user_id (str):
        account_id (str):
        sail_user_token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountNumbers | Error
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            account_id=account_id,
            client=client,
            sail_user_token=sail_user_token,
        )
    ).parsed
