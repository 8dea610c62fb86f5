"""Workflow versions are kept packed and compressed; versions an older store kept as JSON text still read."""

from __future__ import annotations

import json
import sqlite3

import pytest

from engine.store import TraceStore
from engine.store.documents import decode_document, encode_document


def _big_document(nodes: int) -> dict[str, object]:
    return {"format": "triadic.workflow", "version": 1, "id": "wf-big", "name": "Big", "settings": {"seed": 3},
            "nodes": [{"id": f"x{i}", "role": "executor", "title": "", "params": {"retries": 0, "ratio": 0.5},
                       "ui": {"x": float(i), "y": 0.0, "color": None, "collapsed": False}} for i in range(nodes)],
            "edges": [{"id": f"e{i}", "source": f"x{i}", "target": f"x{i + 1}"} for i in range(nodes - 1)]}


def test_a_version_is_stored_packed_smaller_than_its_json_and_reads_back_equal(store: TraceStore) -> None:
    doc = _big_document(500)
    version = store.save_workflow(doc, workflow_hash="v-big")
    (stored,) = sqlite3.connect(store.path).execute("SELECT doc FROM workflow_versions").fetchone()
    assert isinstance(stored, bytes) and len(stored) * 5 < len(json.dumps(doc))
    assert store.workflow_version(version) == doc


def test_a_version_an_older_store_kept_as_json_text_still_reads(store: TraceStore) -> None:
    doc = _big_document(3)
    conn = sqlite3.connect(store.path)
    conn.execute("INSERT INTO workflows (id, name, created_at, updated_at) VALUES ('wf-big', 'Big', 0, 0)")
    conn.execute("INSERT INTO workflow_versions VALUES ('old', 'wf-big', 0, ?)", (json.dumps(doc),))
    conn.commit()
    conn.close()
    assert store.workflow_version("old") == doc


def test_damaged_or_unknown_documents_are_reported() -> None:
    with pytest.raises(ValueError, match="damaged workflow document"):
        decode_document(encode_document({"a": 1})[:-3])
    with pytest.raises(ValueError, match="unknown workflow document format"):
        decode_document(b"\x09abc")
    with pytest.raises(ValueError, match="workflow document cannot be stored"):
        encode_document({"a": object()})


def test_a_document_with_a_lone_surrogate_is_kept_exactly() -> None:
    doc = {"id": "wf", "nodes": [{"title": "half a pair: \udc00"}]}
    assert decode_document(encode_document(doc)) == doc
