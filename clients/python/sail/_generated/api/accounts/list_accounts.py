from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_accounts_response import ListAccountsResponse
from ...models.list_accounts_type import ListAccountsType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: str,
    *,
    connection_id: str | Unset = UNSET,
    type_: ListAccountsType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["connection_id"] = connection_id

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_.value

    params["type"] = json_type_

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/users/{user_id}/accounts".format(
            user_id=quote(str(user_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ListAccountsResponse | None:
    if response.status_code == 200:
        response_200 = ListAccountsResponse.from_dict(response.json())

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
) -> Response[Error | ListAccountsResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    connection_id: str | Unset = UNSET,
    type_: ListAccountsType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | ListAccountsResponse]:
    """Accounts across all of a user's connections.

     Accounts across all of a user's connections.

    Needs a key with scope `benefit_account`.

    Args:
        user_id (str):
        connection_id (str | Unset):
        type_ (ListAccountsType | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListAccountsResponse]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
        type_=type_,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    connection_id: str | Unset = UNSET,
    type_: ListAccountsType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | ListAccountsResponse | None:
    """Accounts across all of a user's connections.

     Accounts across all of a user's connections.

    Needs a key with scope `benefit_account`.

    Args:
        user_id (str):
        connection_id (str | Unset):
        type_ (ListAccountsType | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListAccountsResponse
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        connection_id=connection_id,
        type_=type_,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    connection_id: str | Unset = UNSET,
    type_: ListAccountsType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | ListAccountsResponse]:
    """Accounts across all of a user's connections.

     Accounts across all of a user's connections.

    Needs a key with scope `benefit_account`.

    Args:
        user_id (str):
        connection_id (str | Unset):
        type_ (ListAccountsType | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListAccountsResponse]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
        type_=type_,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    connection_id: str | Unset = UNSET,
    type_: ListAccountsType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | ListAccountsResponse | None:
    """Accounts across all of a user's connections.

     Accounts across all of a user's connections.

    Needs a key with scope `benefit_account`.

    Args:
        user_id (str):
        connection_id (str | Unset):
        type_ (ListAccountsType | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListAccountsResponse
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            connection_id=connection_id,
            type_=type_,
            limit=limit,
            offset=offset,
        )
    ).parsed
