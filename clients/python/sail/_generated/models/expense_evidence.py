from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.expense_evidence_kind import ExpenseEvidenceKind

T = TypeVar("T", bound="ExpenseEvidence")


@_attrs_define
class ExpenseEvidence:
    """One fact behind an adjudication: what was found and what it points to.

    Attributes:
        indicates (str): The category it points to (`dental`, `dining`, `veterinary`...).
        kind (ExpenseEvidenceKind): What kind of fact: a merchant of Sail's directory or merchant knowledge,
            a word of the descriptor, the merchant category code, or item-level data.
        value (str): The merchant's name, the words as they appear, the code, or an item count.
    """

    indicates: str
    kind: ExpenseEvidenceKind
    value: str

    def to_dict(self) -> dict[str, Any]:
        indicates = self.indicates

        kind = self.kind.value

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "indicates": indicates,
                "kind": kind,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        indicates = d.pop("indicates")

        kind = ExpenseEvidenceKind(d.pop("kind"))

        value = d.pop("value")

        expense_evidence = cls(
            indicates=indicates,
            kind=kind,
            value=value,
        )

        return expense_evidence
