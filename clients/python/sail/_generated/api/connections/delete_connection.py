from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connection import Connection
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    user_id: str,
    connection_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/users/{user_id}/connections/{connection_id}".format(
            user_id=quote(str(user_id), safe=""),
            connection_id=quote(str(connection_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Connection | Error | None:
    if response.status_code == 200:
        response_200 = Connection.from_dict(response.json())

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
) -> Response[Connection | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Connection | Error]:
    """Disconnects: status `disconnected`, kept for history, no longer syncing.

     Disconnects: status `disconnected`, kept for history, no longer syncing.

    Needs a key with scope `connections` or `expenses` or `benefit_account`.

    Args:
        user_id (str):
        connection_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Connection | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
) -> Connection | Error | None:
    """Disconnects: status `disconnected`, kept for history, no longer syncing.

     Disconnects: status `disconnected`, kept for history, no longer syncing.

    Needs a key with scope `connections` or `expenses` or `benefit_account`.

    Args:
        user_id (str):
        connection_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Connection | Error
    """

    return sync_detailed(
        user_id=user_id,
        connection_id=connection_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Connection | Error]:
    """Disconnects: status `disconnected`, kept for history, no longer syncing.

     Disconnects: status `disconnected`, kept for history, no longer syncing.

    Needs a key with scope `connections` or `expenses` or `benefit_account`.

    Args:
        user_id (str):
        connection_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Connection | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
) -> Connection | Error | None:
    """Disconnects: status `disconnected`, kept for history, no longer syncing.

     Disconnects: status `disconnected`, kept for history, no longer syncing.

    Needs a key with scope `connections` or `expenses` or `benefit_account`.

    Args:
        user_id (str):
        connection_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Connection | Error
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            connection_id=connection_id,
            client=client,
        )
    ).parsed
