from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DirectoryUrls")


@_attrs_define
class DirectoryUrls:
    """
    Attributes:
        logo (None | str): Logo URL; null when unavailable.
        main (str): Main website URL.
    """

    logo: None | str
    main: str

    def to_dict(self) -> dict[str, Any]:
        logo: None | str
        logo = self.logo

        main = self.main

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "logo": logo,
                "main": main,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_logo(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo = _parse_logo(d.pop("logo"))

        main = d.pop("main")

        directory_urls = cls(
            logo=logo,
            main=main,
        )

        return directory_urls
