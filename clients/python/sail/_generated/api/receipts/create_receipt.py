from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_receipt_body import CreateReceiptBody
from ...models.error import Error
from ...models.receipt import Receipt
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: str,
    expense_id: str,
    *,
    body: CreateReceiptBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/users/{user_id}/expenses/{expense_id}/receipts".format(
            user_id=quote(str(user_id), safe=""),
            expense_id=quote(str(expense_id), safe=""),
        ),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Receipt | None:
    if response.status_code == 201:
        response_201 = Receipt.from_dict(response.json())

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
) -> Response[Error | Receipt]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    expense_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateReceiptBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Receipt]:
    """Attaches a receipt to an expense.

     Attaches a receipt to an expense. Over REST the body is
    `multipart/form-data` with one file part named `file` (at most 10 MiB;
    PDF, PNG, JPEG, WebP or plain text, sniffed from the bytes). Answered
    `201` with the receipt `processing`; read it back (or wait for
    `expense.readjudicated` / `receipt.unreadable`) for the outcome. Any
    expense may get a receipt; only `needs_review` and `ineligible` ones are
    re-decided by it.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        idempotency_key (str | Unset):
        body (CreateReceiptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Receipt]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        expense_id=expense_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    expense_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateReceiptBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | Receipt | None:
    """Attaches a receipt to an expense.

     Attaches a receipt to an expense. Over REST the body is
    `multipart/form-data` with one file part named `file` (at most 10 MiB;
    PDF, PNG, JPEG, WebP or plain text, sniffed from the bytes). Answered
    `201` with the receipt `processing`; read it back (or wait for
    `expense.readjudicated` / `receipt.unreadable`) for the outcome. Any
    expense may get a receipt; only `needs_review` and `ineligible` ones are
    re-decided by it.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        idempotency_key (str | Unset):
        body (CreateReceiptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Receipt
    """

    return sync_detailed(
        user_id=user_id,
        expense_id=expense_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    expense_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateReceiptBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Receipt]:
    """Attaches a receipt to an expense.

     Attaches a receipt to an expense. Over REST the body is
    `multipart/form-data` with one file part named `file` (at most 10 MiB;
    PDF, PNG, JPEG, WebP or plain text, sniffed from the bytes). Answered
    `201` with the receipt `processing`; read it back (or wait for
    `expense.readjudicated` / `receipt.unreadable`) for the outcome. Any
    expense may get a receipt; only `needs_review` and `ineligible` ones are
    re-decided by it.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        idempotency_key (str | Unset):
        body (CreateReceiptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Receipt]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        expense_id=expense_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    expense_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateReceiptBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | Receipt | None:
    """Attaches a receipt to an expense.

     Attaches a receipt to an expense. Over REST the body is
    `multipart/form-data` with one file part named `file` (at most 10 MiB;
    PDF, PNG, JPEG, WebP or plain text, sniffed from the bytes). Answered
    `201` with the receipt `processing`; read it back (or wait for
    `expense.readjudicated` / `receipt.unreadable`) for the outcome. Any
    expense may get a receipt; only `needs_review` and `ineligible` ones are
    re-decided by it.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        idempotency_key (str | Unset):
        body (CreateReceiptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Receipt
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            expense_id=expense_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
