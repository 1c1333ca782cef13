"""Telegram-shaped error answers: ``{"ok": false, "error_code": N, "description": ...}``."""

from __future__ import annotations

from tests.adapters.telegram.fake_api.world import JSONDict


class ApiError(Exception):
    """A Telegram-shaped error answer."""

    def __init__(self, code: int, description: str, retry_after: int | None = None,
                 migrate_to_chat_id: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> JSONDict:
        out: JSONDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            out["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            out["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return out


def bad_request(message: str) -> ApiError:
    return ApiError(400, f"Bad Request: {message}")


def forbidden(message: str) -> ApiError:
    return ApiError(403, f"Forbidden: {message}")


def too_many(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}
