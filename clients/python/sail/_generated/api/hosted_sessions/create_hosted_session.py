from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_hosted_session_request_connect_account import (
    CreateHostedSessionRequestConnectAccount,
)
from ...models.create_hosted_session_request_reconnect import (
    CreateHostedSessionRequestReconnect,
)
from ...models.create_hosted_session_request_upload_receipt import (
    CreateHostedSessionRequestUploadReceipt,
)
from ...models.error import Error
from ...models.hosted_session import HostedSession
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateHostedSessionRequestConnectAccount
    | CreateHostedSessionRequestReconnect
    | CreateHostedSessionRequestUploadReceipt,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/hosted-sessions",
    }

    if isinstance(body, CreateHostedSessionRequestConnectAccount) or isinstance(
        body, CreateHostedSessionRequestReconnect
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | HostedSession | None:
    if response.status_code == 201:
        response_201 = HostedSession.from_dict(response.json())

        return response_201

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Error | HostedSession]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateHostedSessionRequestConnectAccount
    | CreateHostedSessionRequestReconnect
    | CreateHostedSessionRequestUploadReceipt,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | HostedSession]:
    """Creates a hosted session and its URL.

     Creates a hosted session and its URL. The scope follows the flow:
    `connect_account` needs `expenses` for card and store, `benefit_account`
    for benefit_account; `reconnect` the scope of the connection's type;
    `upload_receipt` needs `expenses` (checked per request; the option
    admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateHostedSessionRequestConnectAccount | CreateHostedSessionRequestReconnect |
            CreateHostedSessionRequestUploadReceipt):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | HostedSession]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateHostedSessionRequestConnectAccount
    | CreateHostedSessionRequestReconnect
    | CreateHostedSessionRequestUploadReceipt,
    idempotency_key: str | Unset = UNSET,
) -> Error | HostedSession | None:
    """Creates a hosted session and its URL.

     Creates a hosted session and its URL. The scope follows the flow:
    `connect_account` needs `expenses` for card and store, `benefit_account`
    for benefit_account; `reconnect` the scope of the connection's type;
    `upload_receipt` needs `expenses` (checked per request; the option
    admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateHostedSessionRequestConnectAccount | CreateHostedSessionRequestReconnect |
            CreateHostedSessionRequestUploadReceipt):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | HostedSession
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateHostedSessionRequestConnectAccount
    | CreateHostedSessionRequestReconnect
    | CreateHostedSessionRequestUploadReceipt,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | HostedSession]:
    """Creates a hosted session and its URL.

     Creates a hosted session and its URL. The scope follows the flow:
    `connect_account` needs `expenses` for card and store, `benefit_account`
    for benefit_account; `reconnect` the scope of the connection's type;
    `upload_receipt` needs `expenses` (checked per request; the option
    admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateHostedSessionRequestConnectAccount | CreateHostedSessionRequestReconnect |
            CreateHostedSessionRequestUploadReceipt):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | HostedSession]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateHostedSessionRequestConnectAccount
    | CreateHostedSessionRequestReconnect
    | CreateHostedSessionRequestUploadReceipt,
    idempotency_key: str | Unset = UNSET,
) -> Error | HostedSession | None:
    """Creates a hosted session and its URL.

     Creates a hosted session and its URL. The scope follows the flow:
    `connect_account` needs `expenses` for card and store, `benefit_account`
    for benefit_account; `reconnect` the scope of the connection's type;
    `upload_receipt` needs `expenses` (checked per request; the option
    admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateHostedSessionRequestConnectAccount | CreateHostedSessionRequestReconnect |
            CreateHostedSessionRequestUploadReceipt):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | HostedSession
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
