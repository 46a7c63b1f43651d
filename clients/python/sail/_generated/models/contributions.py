from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contributions_coverage_type_1 import ContributionsCoverageType1
from ..models.contributions_coverage_type_2_type_1 import (
    ContributionsCoverageType2Type1,
)
from ..models.contributions_coverage_type_3_type_1 import (
    ContributionsCoverageType3Type1,
)

T = TypeVar("T", bound="Contributions")


@_attrs_define
class Contributions:
    """
    Attributes:
        annual_limit (float | None): The IRS limit that applies (2025 limits: HSA self-only 4300 or family
            8550; health FSA 3300); null when none applies (HRA: employer-funded).
        coverage (ContributionsCoverageType1 | ContributionsCoverageType2Type1 | ContributionsCoverageType3Type1 |
            None): For HSAs; null otherwise.
        tax_year (int): The tax year the figures are for.
        year_to_date (float):
    """

    annual_limit: float | None
    coverage: (
        ContributionsCoverageType1
        | ContributionsCoverageType2Type1
        | ContributionsCoverageType3Type1
        | None
    )
    tax_year: int
    year_to_date: float

    def to_dict(self) -> dict[str, Any]:
        annual_limit: float | None
        annual_limit = self.annual_limit

        coverage: None | str
        if (
            isinstance(self.coverage, ContributionsCoverageType1)
            or isinstance(self.coverage, ContributionsCoverageType2Type1)
            or isinstance(self.coverage, ContributionsCoverageType3Type1)
        ):
            coverage = self.coverage.value
        else:
            coverage = self.coverage

        tax_year = self.tax_year

        year_to_date = self.year_to_date

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "annual_limit": annual_limit,
                "coverage": coverage,
                "tax_year": tax_year,
                "year_to_date": year_to_date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_annual_limit(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        annual_limit = _parse_annual_limit(d.pop("annual_limit"))

        def _parse_coverage(
            data: object,
        ) -> (
            ContributionsCoverageType1
            | ContributionsCoverageType2Type1
            | ContributionsCoverageType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                coverage_type_1 = ContributionsCoverageType1(data)

                return coverage_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                coverage_type_2_type_1 = ContributionsCoverageType2Type1(data)

                return coverage_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                coverage_type_3_type_1 = ContributionsCoverageType3Type1(data)

                return coverage_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ContributionsCoverageType1
                | ContributionsCoverageType2Type1
                | ContributionsCoverageType3Type1
                | None,
                data,
            )

        coverage = _parse_coverage(d.pop("coverage"))

        tax_year = d.pop("tax_year")

        year_to_date = d.pop("year_to_date")

        contributions = cls(
            annual_limit=annual_limit,
            coverage=coverage,
            tax_year=tax_year,
            year_to_date=year_to_date,
        )

        return contributions
