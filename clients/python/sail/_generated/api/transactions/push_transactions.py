from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.push_transactions_request import PushTransactionsRequest
from ...models.push_transactions_response import PushTransactionsResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: str,
    connection_id: str,
    *,
    body: PushTransactionsRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/users/{user_id}/connections/{connection_id}/transactions".format(
            user_id=quote(str(user_id), safe=""),
            connection_id=quote(str(connection_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PushTransactionsResponse | None:
    if response.status_code == 202:
        response_202 = PushTransactionsResponse.from_dict(response.json())

        return response_202

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
) -> Response[Error | PushTransactionsResponse]:
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
    body: PushTransactionsRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PushTransactionsResponse]:
    """Ingests 1 to 500 transactions into an `external` connection for adjudication.

     Ingests 1 to 500 transactions into an `external` connection for
    adjudication. Idempotent on external_transaction_id within the
    connection. FAILED_PRECONDITION (connection_not_external) for a
    Sail-managed connection.

    Needs a key with scope `ingest`.

    Args:
        user_id (str):
        connection_id (str):
        idempotency_key (str | Unset):
        body (PushTransactionsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PushTransactionsResponse]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
        body=body,
        idempotency_key=idempotency_key,
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
    body: PushTransactionsRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PushTransactionsResponse | None:
    """Ingests 1 to 500 transactions into an `external` connection for adjudication.

     Ingests 1 to 500 transactions into an `external` connection for
    adjudication. Idempotent on external_transaction_id within the
    connection. FAILED_PRECONDITION (connection_not_external) for a
    Sail-managed connection.

    Needs a key with scope `ingest`.

    Args:
        user_id (str):
        connection_id (str):
        idempotency_key (str | Unset):
        body (PushTransactionsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PushTransactionsResponse
    """

    return sync_detailed(
        user_id=user_id,
        connection_id=connection_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
    body: PushTransactionsRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PushTransactionsResponse]:
    """Ingests 1 to 500 transactions into an `external` connection for adjudication.

     Ingests 1 to 500 transactions into an `external` connection for
    adjudication. Idempotent on external_transaction_id within the
    connection. FAILED_PRECONDITION (connection_not_external) for a
    Sail-managed connection.

    Needs a key with scope `ingest`.

    Args:
        user_id (str):
        connection_id (str):
        idempotency_key (str | Unset):
        body (PushTransactionsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PushTransactionsResponse]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        connection_id=connection_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    connection_id: str,
    *,
    client: AuthenticatedClient,
    body: PushTransactionsRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PushTransactionsResponse | None:
    """Ingests 1 to 500 transactions into an `external` connection for adjudication.

     Ingests 1 to 500 transactions into an `external` connection for
    adjudication. Idempotent on external_transaction_id within the
    connection. FAILED_PRECONDITION (connection_not_external) for a
    Sail-managed connection.

    Needs a key with scope `ingest`.

    Args:
        user_id (str):
        connection_id (str):
        idempotency_key (str | Unset):
        body (PushTransactionsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PushTransactionsResponse
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            connection_id=connection_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
