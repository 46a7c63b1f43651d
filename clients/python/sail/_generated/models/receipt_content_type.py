from enum import StrEnum


class ReceiptContentType(StrEnum):
    APPLICATIONPDF = "application/pdf"
    IMAGEJPEG = "image/jpeg"
    IMAGEPNG = "image/png"
    IMAGEWEBP = "image/webp"
    TEXTPLAIN = "text/plain"

    def __str__(self) -> str:
        return str(self.value)
