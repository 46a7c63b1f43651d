"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .account_detail import AccountDetail
from .account_detail_type import AccountDetailType
from .account_numbers import AccountNumbers
from .account_summary import AccountSummary
from .account_summary_type import AccountSummaryType
from .account_type import AccountType
from .ach_numbers import AchNumbers
from .address import Address
from .address_country_type_1 import AddressCountryType1
from .address_country_type_2_type_1 import AddressCountryType2Type1
from .address_country_type_3_type_1 import AddressCountryType3Type1
from .administrator import Administrator
from .administrator_account_types_item import AdministratorAccountTypesItem
from .balance import Balance
from .connect_account_options_benefit_account import ConnectAccountOptionsBenefitAccount
from .connect_account_options_card import ConnectAccountOptionsCard
from .connect_account_options_store import ConnectAccountOptionsStore
from .connection import Connection
from .connection_error import ConnectionError_
from .connection_error_data import ConnectionErrorData
from .connection_products_item import ConnectionProductsItem
from .connection_recovered_data import ConnectionRecoveredData
from .connection_status import ConnectionStatus
from .connection_synced_data import ConnectionSyncedData
from .connection_synced_data_type import ConnectionSyncedDataType
from .connection_type import ConnectionType
from .contributions import Contributions
from .contributions_coverage_type_1 import ContributionsCoverageType1
from .contributions_coverage_type_2_type_1 import ContributionsCoverageType2Type1
from .contributions_coverage_type_3_type_1 import ContributionsCoverageType3Type1
from .create_connection_request import CreateConnectionRequest
from .create_connection_request_products_item import CreateConnectionRequestProductsItem
from .create_connection_request_type import CreateConnectionRequestType
from .create_hosted_session_request_connect_account import (
    CreateHostedSessionRequestConnectAccount,
)
from .create_hosted_session_request_reconnect import CreateHostedSessionRequestReconnect
from .create_hosted_session_request_upload_receipt import (
    CreateHostedSessionRequestUploadReceipt,
)
from .create_receipt_body import CreateReceiptBody
from .create_sandbox_connection_request_benefit_account import (
    CreateSandboxConnectionRequestBenefitAccount,
)
from .create_sandbox_connection_request_benefit_account_products_item import (
    CreateSandboxConnectionRequestBenefitAccountProductsItem,
)
from .create_sandbox_connection_request_benefit_account_username_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType1,
)
from .create_sandbox_connection_request_benefit_account_username_type_2_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1,
)
from .create_sandbox_connection_request_benefit_account_username_type_3_type_1 import (
    CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1,
)
from .create_sandbox_connection_request_card import CreateSandboxConnectionRequestCard
from .create_sandbox_connection_request_card_products_item import (
    CreateSandboxConnectionRequestCardProductsItem,
)
from .create_sandbox_connection_request_card_username_type_1 import (
    CreateSandboxConnectionRequestCardUsernameType1,
)
from .create_sandbox_connection_request_card_username_type_2_type_1 import (
    CreateSandboxConnectionRequestCardUsernameType2Type1,
)
from .create_sandbox_connection_request_card_username_type_3_type_1 import (
    CreateSandboxConnectionRequestCardUsernameType3Type1,
)
from .create_sandbox_connection_request_store import CreateSandboxConnectionRequestStore
from .create_sandbox_connection_request_store_products_item import (
    CreateSandboxConnectionRequestStoreProductsItem,
)
from .create_sandbox_connection_request_store_username_type_1 import (
    CreateSandboxConnectionRequestStoreUsernameType1,
)
from .create_sandbox_connection_request_store_username_type_2_type_1 import (
    CreateSandboxConnectionRequestStoreUsernameType2Type1,
)
from .create_sandbox_connection_request_store_username_type_3_type_1 import (
    CreateSandboxConnectionRequestStoreUsernameType3Type1,
)
from .create_sandbox_event_request import CreateSandboxEventRequest
from .create_sandbox_event_request_type import CreateSandboxEventRequestType
from .create_user_request import CreateUserRequest
from .create_user_token_request import CreateUserTokenRequest
from .create_user_token_request_scopes_item import CreateUserTokenRequestScopesItem
from .create_webhook_endpoint_request import CreateWebhookEndpointRequest
from .create_webhook_endpoint_request_events_item import (
    CreateWebhookEndpointRequestEventsItem,
)
from .deleted_user import DeletedUser
from .delivery_attempt import DeliveryAttempt
from .directory_urls import DirectoryUrls
from .error import Error
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .event import Event
from .event_connection_error import EventConnectionError
from .event_counts import EventCounts
from .event_delivery import EventDelivery
from .event_delivery_status import EventDeliveryStatus
from .event_optional_reason import EventOptionalReason
from .event_reason import EventReason
from .expense import Expense
from .expense_after import ExpenseAfter
from .expense_after_status import ExpenseAfterStatus
from .expense_before import ExpenseBefore
from .expense_before_status import ExpenseBeforeStatus
from .expense_evidence import ExpenseEvidence
from .expense_evidence_kind import ExpenseEvidenceKind
from .expense_item import ExpenseItem
from .expense_item_status import ExpenseItemStatus
from .expense_merchant import ExpenseMerchant
from .expense_readjudicated_data import ExpenseReadjudicatedData
from .expense_reason import ExpenseReason
from .expense_status import ExpenseStatus
from .holding import Holding
from .hosted_session import HostedSession
from .hosted_session_completed_data import HostedSessionCompletedData
from .hosted_session_completed_data_flow import HostedSessionCompletedDataFlow
from .hosted_session_flow import HostedSessionFlow
from .hosted_session_login_failed_data import HostedSessionLoginFailedData
from .hosted_session_login_failed_data_flow import HostedSessionLoginFailedDataFlow
from .hosted_session_login_failed_data_reason import HostedSessionLoginFailedDataReason
from .hosted_session_options import HostedSessionOptions
from .hosted_session_options_connection_type_type_1 import (
    HostedSessionOptionsConnectionTypeType1,
)
from .hosted_session_options_connection_type_type_2_type_1 import (
    HostedSessionOptionsConnectionTypeType2Type1,
)
from .hosted_session_options_connection_type_type_3_type_1 import (
    HostedSessionOptionsConnectionTypeType3Type1,
)
from .hosted_session_settings import HostedSessionSettings
from .hosted_session_settings_connection_type_type_1 import (
    HostedSessionSettingsConnectionTypeType1,
)
from .hosted_session_settings_connection_type_type_2_type_1 import (
    HostedSessionSettingsConnectionTypeType2Type1,
)
from .hosted_session_settings_connection_type_type_3_type_1 import (
    HostedSessionSettingsConnectionTypeType3Type1,
)
from .hosted_session_status import HostedSessionStatus
from .identity_record import IdentityRecord
from .identity_record_source import IdentityRecordSource
from .investments import Investments
from .job import Job
from .job_failed_data import JobFailedData
from .job_failed_data_kind import JobFailedDataKind
from .job_row_failure import JobRowFailure
from .job_status import JobStatus
from .list_accounts_response import ListAccountsResponse
from .list_accounts_type import ListAccountsType
from .list_administrators_response import ListAdministratorsResponse
from .list_connections_response import ListConnectionsResponse
from .list_events_response import ListEventsResponse
from .list_events_type import ListEventsType
from .list_expenses_response import ListExpensesResponse
from .list_expenses_status import ListExpensesStatus
from .list_hosted_sessions_response import ListHostedSessionsResponse
from .list_hosted_sessions_status import ListHostedSessionsStatus
from .list_merchants_response import ListMerchantsResponse
from .list_users_response import ListUsersResponse
from .list_users_status import ListUsersStatus
from .list_webhook_endpoints_response import ListWebhookEndpointsResponse
from .masked_account_numbers import MaskedAccountNumbers
from .merchant import Merchant
from .merchant_capabilities import MerchantCapabilities
from .pagination import Pagination
from .postal_address import PostalAddress
from .provider import Provider
from .provider_kind import ProviderKind
from .push_transactions_request import PushTransactionsRequest
from .push_transactions_response import PushTransactionsResponse
from .push_transactions_response_status import PushTransactionsResponseStatus
from .pushed_transaction import PushedTransaction
from .pushed_transaction_currency_type_1 import PushedTransactionCurrencyType1
from .pushed_transaction_currency_type_2_type_1 import (
    PushedTransactionCurrencyType2Type1,
)
from .pushed_transaction_currency_type_3_type_1 import (
    PushedTransactionCurrencyType3Type1,
)
from .receipt import Receipt
from .receipt_content_type import ReceiptContentType
from .receipt_line_item import ReceiptLineItem
from .receipt_line_item_status import ReceiptLineItemStatus
from .receipt_status import ReceiptStatus
from .receipt_unreadable_data import ReceiptUnreadableData
from .reconnect_options import ReconnectOptions
from .transactions_ingested_data import TransactionsIngestedData
from .update_user_request import UpdateUserRequest
from .update_user_request_status_type_1 import UpdateUserRequestStatusType1
from .update_user_request_status_type_2_type_1 import UpdateUserRequestStatusType2Type1
from .update_user_request_status_type_3_type_1 import UpdateUserRequestStatusType3Type1
from .upload_receipt_options import UploadReceiptOptions
from .user import User
from .user_deactivated_data import UserDeactivatedData
from .user_deleted_data import UserDeletedData
from .user_export import UserExport
from .user_identity import UserIdentity
from .user_reactivated_data import UserReactivatedData
from .user_status import UserStatus
from .user_token import UserToken
from .user_token_scopes_item import UserTokenScopesItem
from .user_token_status import UserTokenStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_status import WebhookEndpointStatus

__all__ = (
    "Account",
    "AccountDetail",
    "AccountDetailType",
    "AccountNumbers",
    "AccountSummary",
    "AccountSummaryType",
    "AccountType",
    "AchNumbers",
    "Address",
    "AddressCountryType1",
    "AddressCountryType2Type1",
    "AddressCountryType3Type1",
    "Administrator",
    "AdministratorAccountTypesItem",
    "Balance",
    "ConnectAccountOptionsBenefitAccount",
    "ConnectAccountOptionsCard",
    "ConnectAccountOptionsStore",
    "Connection",
    "ConnectionErrorData",
    "ConnectionError_",
    "ConnectionProductsItem",
    "ConnectionRecoveredData",
    "ConnectionStatus",
    "ConnectionSyncedData",
    "ConnectionSyncedDataType",
    "ConnectionType",
    "Contributions",
    "ContributionsCoverageType1",
    "ContributionsCoverageType2Type1",
    "ContributionsCoverageType3Type1",
    "CreateConnectionRequest",
    "CreateConnectionRequestProductsItem",
    "CreateConnectionRequestType",
    "CreateHostedSessionRequestConnectAccount",
    "CreateHostedSessionRequestReconnect",
    "CreateHostedSessionRequestUploadReceipt",
    "CreateReceiptBody",
    "CreateSandboxConnectionRequestBenefitAccount",
    "CreateSandboxConnectionRequestBenefitAccountProductsItem",
    "CreateSandboxConnectionRequestBenefitAccountUsernameType1",
    "CreateSandboxConnectionRequestBenefitAccountUsernameType2Type1",
    "CreateSandboxConnectionRequestBenefitAccountUsernameType3Type1",
    "CreateSandboxConnectionRequestCard",
    "CreateSandboxConnectionRequestCardProductsItem",
    "CreateSandboxConnectionRequestCardUsernameType1",
    "CreateSandboxConnectionRequestCardUsernameType2Type1",
    "CreateSandboxConnectionRequestCardUsernameType3Type1",
    "CreateSandboxConnectionRequestStore",
    "CreateSandboxConnectionRequestStoreProductsItem",
    "CreateSandboxConnectionRequestStoreUsernameType1",
    "CreateSandboxConnectionRequestStoreUsernameType2Type1",
    "CreateSandboxConnectionRequestStoreUsernameType3Type1",
    "CreateSandboxEventRequest",
    "CreateSandboxEventRequestType",
    "CreateUserRequest",
    "CreateUserTokenRequest",
    "CreateUserTokenRequestScopesItem",
    "CreateWebhookEndpointRequest",
    "CreateWebhookEndpointRequestEventsItem",
    "DeletedUser",
    "DeliveryAttempt",
    "DirectoryUrls",
    "Error",
    "ErrorError",
    "ErrorErrorCode",
    "Event",
    "EventConnectionError",
    "EventCounts",
    "EventDelivery",
    "EventDeliveryStatus",
    "EventOptionalReason",
    "EventReason",
    "Expense",
    "ExpenseAfter",
    "ExpenseAfterStatus",
    "ExpenseBefore",
    "ExpenseBeforeStatus",
    "ExpenseEvidence",
    "ExpenseEvidenceKind",
    "ExpenseItem",
    "ExpenseItemStatus",
    "ExpenseMerchant",
    "ExpenseReadjudicatedData",
    "ExpenseReason",
    "ExpenseStatus",
    "Holding",
    "HostedSession",
    "HostedSessionCompletedData",
    "HostedSessionCompletedDataFlow",
    "HostedSessionFlow",
    "HostedSessionLoginFailedData",
    "HostedSessionLoginFailedDataFlow",
    "HostedSessionLoginFailedDataReason",
    "HostedSessionOptions",
    "HostedSessionOptionsConnectionTypeType1",
    "HostedSessionOptionsConnectionTypeType2Type1",
    "HostedSessionOptionsConnectionTypeType3Type1",
    "HostedSessionSettings",
    "HostedSessionSettingsConnectionTypeType1",
    "HostedSessionSettingsConnectionTypeType2Type1",
    "HostedSessionSettingsConnectionTypeType3Type1",
    "HostedSessionStatus",
    "IdentityRecord",
    "IdentityRecordSource",
    "Investments",
    "Job",
    "JobFailedData",
    "JobFailedDataKind",
    "JobRowFailure",
    "JobStatus",
    "ListAccountsResponse",
    "ListAccountsType",
    "ListAdministratorsResponse",
    "ListConnectionsResponse",
    "ListEventsResponse",
    "ListEventsType",
    "ListExpensesResponse",
    "ListExpensesStatus",
    "ListHostedSessionsResponse",
    "ListHostedSessionsStatus",
    "ListMerchantsResponse",
    "ListUsersResponse",
    "ListUsersStatus",
    "ListWebhookEndpointsResponse",
    "MaskedAccountNumbers",
    "Merchant",
    "MerchantCapabilities",
    "Pagination",
    "PostalAddress",
    "Provider",
    "ProviderKind",
    "PushTransactionsRequest",
    "PushTransactionsResponse",
    "PushTransactionsResponseStatus",
    "PushedTransaction",
    "PushedTransactionCurrencyType1",
    "PushedTransactionCurrencyType2Type1",
    "PushedTransactionCurrencyType3Type1",
    "Receipt",
    "ReceiptContentType",
    "ReceiptLineItem",
    "ReceiptLineItemStatus",
    "ReceiptStatus",
    "ReceiptUnreadableData",
    "ReconnectOptions",
    "TransactionsIngestedData",
    "UpdateUserRequest",
    "UpdateUserRequestStatusType1",
    "UpdateUserRequestStatusType2Type1",
    "UpdateUserRequestStatusType3Type1",
    "UploadReceiptOptions",
    "User",
    "UserDeactivatedData",
    "UserDeletedData",
    "UserExport",
    "UserIdentity",
    "UserReactivatedData",
    "UserStatus",
    "UserToken",
    "UserTokenScopesItem",
    "UserTokenStatus",
    "WebhookEndpoint",
    "WebhookEndpointStatus",
)
