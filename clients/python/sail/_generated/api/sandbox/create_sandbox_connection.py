from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connection import Connection
from ...models.create_sandbox_connection_request_benefit_account import (
    CreateSandboxConnectionRequestBenefitAccount,
)
from ...models.create_sandbox_connection_request_card import (
    CreateSandboxConnectionRequestCard,
)
from ...models.create_sandbox_connection_request_store import (
    CreateSandboxConnectionRequestStore,
)
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateSandboxConnectionRequestBenefitAccount
    | CreateSandboxConnectionRequestCard
    | CreateSandboxConnectionRequestStore,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sandbox/connections",
    }

    if isinstance(body, CreateSandboxConnectionRequestCard) or isinstance(
        body, CreateSandboxConnectionRequestStore
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Connection | Error | None:
    if response.status_code == 201:
        response_201 = Connection.from_dict(response.json())

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
) -> Response[Connection | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSandboxConnectionRequestBenefitAccount
    | CreateSandboxConnectionRequestCard
    | CreateSandboxConnectionRequestStore,
    idempotency_key: str | Unset = UNSET,
) -> Response[Connection | Error]:
    """Links a sandbox provider exactly as a connect_account hosted session would.

     Links a sandbox provider exactly as a connect_account hosted session
    would. Needs `expenses` for card and store, `benefit_account` for
    benefit_account (checked per request; the option admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSandboxConnectionRequestBenefitAccount | CreateSandboxConnectionRequestCard |
            CreateSandboxConnectionRequestStore):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Connection | Error]
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
    body: CreateSandboxConnectionRequestBenefitAccount
    | CreateSandboxConnectionRequestCard
    | CreateSandboxConnectionRequestStore,
    idempotency_key: str | Unset = UNSET,
) -> Connection | Error | None:
    """Links a sandbox provider exactly as a connect_account hosted session would.

     Links a sandbox provider exactly as a connect_account hosted session
    would. Needs `expenses` for card and store, `benefit_account` for
    benefit_account (checked per request; the option admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSandboxConnectionRequestBenefitAccount | CreateSandboxConnectionRequestCard |
            CreateSandboxConnectionRequestStore):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Connection | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSandboxConnectionRequestBenefitAccount
    | CreateSandboxConnectionRequestCard
    | CreateSandboxConnectionRequestStore,
    idempotency_key: str | Unset = UNSET,
) -> Response[Connection | Error]:
    """Links a sandbox provider exactly as a connect_account hosted session would.

     Links a sandbox provider exactly as a connect_account hosted session
    would. Needs `expenses` for card and store, `benefit_account` for
    benefit_account (checked per request; the option admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSandboxConnectionRequestBenefitAccount | CreateSandboxConnectionRequestCard |
            CreateSandboxConnectionRequestStore):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Connection | Error]
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
    body: CreateSandboxConnectionRequestBenefitAccount
    | CreateSandboxConnectionRequestCard
    | CreateSandboxConnectionRequestStore,
    idempotency_key: str | Unset = UNSET,
) -> Connection | Error | None:
    """Links a sandbox provider exactly as a connect_account hosted session would.

     Links a sandbox provider exactly as a connect_account hosted session
    would. Needs `expenses` for card and store, `benefit_account` for
    benefit_account (checked per request; the option admits either).

    Needs a key with scope `expenses` or `benefit_account`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSandboxConnectionRequestBenefitAccount | CreateSandboxConnectionRequestCard |
            CreateSandboxConnectionRequestStore):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Connection | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
