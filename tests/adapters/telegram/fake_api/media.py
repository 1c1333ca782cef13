"""Photos: uploads (multipart, ``attach://``), file ids and URLs, replacing a photo in
place, and downloads through the file URL."""

from __future__ import annotations

import io
from typing import Any

from aiohttp import web

from tests.adapters.telegram.fake_api.errors import bad_request
from tests.adapters.telegram.fake_api.state import FakeState
from tests.adapters.telegram.fake_api.world import JSONDict, StoredFile, UploadedFile


def image_size(data: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a project dependency
        return (0, 0)
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return None


def make_png(width: int = 8, height: int = 8, color: tuple[int, int, int] = (200, 80, 20)) -> bytes:
    """A small valid PNG for tests."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


class MediaMixin(FakeState):
    """The Bot API methods on photos and files."""

    def _store_file(self, upload: UploadedFile) -> StoredFile:
        if not upload.data:
            raise bad_request("file must be non-empty")
        size = image_size(upload.data)
        if size is None:
            if self.strict_images:
                raise bad_request("IMAGE_PROCESS_FAILED")
            size = (0, 0)
        width, height = size
        if (
            width
            and height
            and (width + height > 10000 or max(width, height) / min(width, height) > 20)
        ):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        n = next(self._file_ids)
        stored = StoredFile(
            file_id=f"AgACAgFakeFile{n:06d}_{self.bot_id}",
            file_unique_id=f"AQADFake{n:06d}",
            data=upload.data,
            filename=upload.filename,
            mime_type=upload.content_type,
            width=width,
            height=height,
            file_path=f"photos/file_{n}.png",
        )
        self.files[stored.file_id] = stored
        return stored

    def _resolve_photo(
        self, value: Any, files: dict[str, UploadedFile], field_name: str
    ) -> tuple[StoredFile | None, str | None]:
        """(stored file, url) for a photo given as upload, attach://, file_id or URL."""
        if value is None and field_name in files:
            return self._store_file(files[field_name]), None
        if not isinstance(value, str) or not value:
            raise bad_request("there is no photo in the request")
        if value.startswith("attach://"):
            name = value[len("attach://") :]
            if name not in files:
                raise bad_request(f'can\'t find attached file "{name}"')
            return self._store_file(files[name]), None
        if value.startswith(("http://", "https://")):
            return None, value
        stored = self.files.get(value)
        if stored is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return stored, None

    @staticmethod
    def _photo_fields(stored: StoredFile | None, url: str | None, caption: str | None,
                      caption_entities: list[JSONDict], source: JSONDict) -> dict[str, Any]:
        """A photo message's fields: the file, its URL, the parsed caption, and the
        caption and parse mode as ``source`` (the call's parameters, or its InputMedia)
        sent them."""
        return {"photo": stored, "photo_url": url, "caption": caption,
                "caption_entities": caption_entities, "sent_caption": source.get("caption"),
                "parse_mode": source.get("parse_mode")}

    def _fetched_url_photo(self) -> StoredFile:
        """A photo sent by URL: pretend Telegram fetched an image (with a new file id)."""
        return StoredFile(
            f"AgACAgFakeUrl{next(self._file_ids):06d}", "AQADFakeUrl", b"", None, None
        )

    async def _m_sendPhoto(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params)
        caption, caption_entities = self._param_caption(params)
        sending = self._param_sending(chat, params)
        stored, url = self._resolve_photo(params.get("photo"), files, "photo")
        message = self._new_bot_message(
            chat, **self._photo_fields(stored, url, caption, caption_entities, params), **sending
        )
        if stored is None:
            message.photo = self._fetched_url_photo()
        return message.to_api()

    async def _m_editMessageMedia(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        media = params.get("media")
        if not isinstance(media, dict):
            raise bad_request("can't parse InputMedia JSON object")
        if media.get("type") != "photo":
            raise bad_request(f"FakeTelegram only supports photo media, not {media.get('type')!r}")
        markup = self._param_markup(params, inline_only=True)
        if message.photo is None:
            raise bad_request("there is no media in the message to edit")
        stored, url = self._resolve_photo(media.get("media"), files, "media")
        caption, caption_entities = self._param_caption(
            {"caption": media.get("caption"), "parse_mode": media.get("parse_mode")}
        )
        if stored is None:
            stored = self._fetched_url_photo()
        fields = self._photo_fields(stored, url, caption, caption_entities, media)
        return self._edit(message, **fields, reply_markup=markup)

    async def _m_getFile(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        stored = self.files.get(str(params.get("file_id", "")))
        if stored is None:
            raise bad_request("wrong file_id or the file is temporarily unavailable")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "file_path": stored.file_path,
        }

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            raise web.HTTPUnauthorized()
        path = request.match_info["path"]
        for stored in self.files.values():
            if stored.file_path == path:
                return web.Response(body=stored.data, content_type=stored.mime_type)
        raise web.HTTPNotFound()
