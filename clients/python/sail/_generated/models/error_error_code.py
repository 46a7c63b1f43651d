from enum import StrEnum


class ErrorErrorCode(StrEnum):
    CONNECTION_NOT_EXTERNAL = "connection_not_external"
    CONNECTION_NOT_RECONNECTABLE = "connection_not_reconnectable"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INSUFFICIENT_KEY_SCOPE = "insufficient_key_scope"
    INSUFFICIENT_TOKEN_SCOPE = "insufficient_token_scope"
    INTERNAL_ERROR = "internal_error"
    INVALID_API_KEY = "invalid_api_key"
    INVALID_KEY_CONFIGURATION = "invalid_key_configuration"
    INVALID_REQUEST = "invalid_request"
    INVALID_USER_TOKEN = "invalid_user_token"
    NOT_FOUND = "not_found"
    PRODUCT_NOT_ENABLED = "product_not_enabled"
    RATE_LIMITED = "rate_limited"
    REQUEST_TOO_LARGE = "request_too_large"
    SERVICE_UNAVAILABLE = "service_unavailable"
    TOKEN_SCOPE_MISMATCH = "token_scope_mismatch"
    USER_ALREADY_EXISTS = "user_already_exists"
    USER_INACTIVE = "user_inactive"
    USER_TOKEN_EXPIRED = "user_token_expired"
    USER_TOKEN_REQUIRED = "user_token_required"

    def __str__(self) -> str:
        return str(self.value)
