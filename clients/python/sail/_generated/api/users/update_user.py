from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.update_user_request import UpdateUserRequest
from ...models.user import User
from ...types import Response


def _get_kwargs(
    user_id: str,
    *,
    body: UpdateUserRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/users/{user_id}".format(
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | User | None:
    if response.status_code == 200:
        response_200 = User.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | User]:
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
    body: UpdateUserRequest,
) -> Response[Error | User]:
    """Changes a user's status or the profile given at creation.

     Changes a user's status or the profile given at creation. Fields left
    out (or null) keep their value; an address replaces only the parts it
    gives. `inactive` stops the user's syncs and refuses pushes, new
    connections and hosted sessions for the user with `409 user_inactive`
    while every read still works; `active` again resumes the syncs. A change
    of status sends `user.deactivated` or `user.reactivated`.

    Needs any data key (any key that is not a `token_admin` key).

    Args:
        user_id (str):
        body (UpdateUserRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | User]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateUserRequest,
) -> Error | User | None:
    """Changes a user's status or the profile given at creation.

     Changes a user's status or the profile given at creation. Fields left
    out (or null) keep their value; an address replaces only the parts it
    gives. `inactive` stops the user's syncs and refuses pushes, new
    connections and hosted sessions for the user with `409 user_inactive`
    while every read still works; `active` again resumes the syncs. A change
    of status sends `user.deactivated` or `user.reactivated`.

    Needs any data key (any key that is not a `token_admin` key).

    Args:
        user_id (str):
        body (UpdateUserRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | User
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateUserRequest,
) -> Response[Error | User]:
    """Changes a user's status or the profile given at creation.

     Changes a user's status or the profile given at creation. Fields left
    out (or null) keep their value; an address replaces only the parts it
    gives. `inactive` stops the user's syncs and refuses pushes, new
    connections and hosted sessions for the user with `409 user_inactive`
    while every read still works; `active` again resumes the syncs. A change
    of status sends `user.deactivated` or `user.reactivated`.

    Needs any data key (any key that is not a `token_admin` key).

    Args:
        user_id (str):
        body (UpdateUserRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | User]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateUserRequest,
) -> Error | User | None:
    """Changes a user's status or the profile given at creation.

     Changes a user's status or the profile given at creation. Fields left
    out (or null) keep their value; an address replaces only the parts it
    gives. `inactive` stops the user's syncs and refuses pushes, new
    connections and hosted sessions for the user with `409 user_inactive`
    while every read still works; `active` again resumes the syncs. A change
    of status sends `user.deactivated` or `user.reactivated`.

    Needs any data key (any key that is not a `token_admin` key).

    Args:
        user_id (str):
        body (UpdateUserRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | User
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            body=body,
        )
    ).parsed
