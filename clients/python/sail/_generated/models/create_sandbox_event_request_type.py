from enum import StrEnum


class CreateSandboxEventRequestType(StrEnum):
    CONNECTION_ERROR = "connection.error"
    CONNECTION_RECOVERED = "connection.recovered"
    CONNECTION_SYNCED = "connection.synced"
    EXPENSE_READJUDICATED = "expense.readjudicated"
    HOSTED_SESSION_COMPLETED = "hosted_session.completed"
    HOSTED_SESSION_LOGIN_FAILED = "hosted_session.login_failed"
    JOB_FAILED = "job.failed"
    RECEIPT_UNREADABLE = "receipt.unreadable"
    TRANSACTIONS_INGESTED = "transactions.ingested"
    USER_DEACTIVATED = "user.deactivated"
    USER_DELETED = "user.deleted"
    USER_REACTIVATED = "user.reactivated"

    def __str__(self) -> str:
        return str(self.value)
