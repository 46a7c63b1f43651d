"""Holds the suite to calling every operation of the document: each
operation the generator made is recorded when called, and the session
fails if one never was."""

from __future__ import annotations

import pkgutil

import pytest

import sail._client
from sail._generated import api

CALLED: set[str] = set()


@pytest.fixture(autouse=True, scope="session")
def every_operation_is_called():
    original = sail._client.Client._call

    def recording(self, operation, path, body, query):
        CALLED.add(operation.__name__.rsplit(".", 1)[-1])
        return original(self, operation, path, body, query)

    sail._client.Client._call = recording
    yield
    sail._client.Client._call = original
    operations = {m.name.rsplit(".", 1)[-1] for m in pkgutil.walk_packages(api.__path__, api.__name__ + ".")
                  if not m.ispkg}
    assert len(operations) >= 34
    missing = sorted(operations - CALLED)
    assert not missing, f"operations the suite never called: {missing}"
