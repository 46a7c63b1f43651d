from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.receipt import Receipt
from ...types import Response


def _get_kwargs(
    user_id: str,
    expense_id: str,
    receipt_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/users/{user_id}/expenses/{expense_id}/receipts/{receipt_id}".format(
            user_id=quote(str(user_id), safe=""),
            expense_id=quote(str(expense_id), safe=""),
            receipt_id=quote(str(receipt_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Receipt | None:
    if response.status_code == 200:
        response_200 = Receipt.from_dict(response.json())

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
    receipt_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Receipt]:
    """One receipt of an expense.

     One receipt of an expense.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        receipt_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Receipt]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        expense_id=expense_id,
        receipt_id=receipt_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    expense_id: str,
    receipt_id: str,
    *,
    client: AuthenticatedClient,
) -> Error | Receipt | None:
    """One receipt of an expense.

     One receipt of an expense.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        receipt_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Receipt
    """

    return sync_detailed(
        user_id=user_id,
        expense_id=expense_id,
        receipt_id=receipt_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    expense_id: str,
    receipt_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Receipt]:
    """One receipt of an expense.

     One receipt of an expense.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        receipt_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Receipt]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        expense_id=expense_id,
        receipt_id=receipt_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    expense_id: str,
    receipt_id: str,
    *,
    client: AuthenticatedClient,
) -> Error | Receipt | None:
    """One receipt of an expense.

     One receipt of an expense.

    Needs a key with scope `expenses`.

    Args:
        user_id (str):
        expense_id (str):
        receipt_id (str):

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
            receipt_id=receipt_id,
            client=client,
        )
    ).parsed
