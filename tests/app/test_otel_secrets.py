"""No key reaches an OpenTelemetry export: keys planted in the environment and the keyring, and pasted
into a prompt, are absent from every byte sent to a receiver or written to a file — even with
`--include-content`, which does export the prompt around them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from app.cli.main import main
from engine.llm.keys import store_key
from tests.app.cli_fixtures import example_doc, write_doc
from tests.app.otlp_receiver import otlp_receiver
from tests.widgets.memory_keyring import MemoryKeyring

ENV_SECRET = "env-secret-4f9c2a7e1b"  # not key-shaped: only knowing the key finds it
PROVIDER_SECRET = "keyring-provider-secret-8d1e"
SERVER_SECRET = "keyring-server-secret-77aa"
SECRETS = (ENV_SECRET, PROVIDER_SECRET, SERVER_SECRET)  # key-shaped text is refused in a workflow file already


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    monkeypatch.setenv("OPENAI_API_KEY", ENV_SECRET)
    store_key("anthropic", PROVIDER_SECRET)
    store_key("https://llm.example.com/v1", SERVER_SECRET)
    yield
    keyring.set_keyring(previous)


def test_keys_in_env_keyring_and_prompt_never_reach_an_export(
        planted: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out = tmp_path / "s.db", tmp_path / "export.jsonl"
    doc = example_doc()  # a user pasted keys into the planner's prompt
    planner = next(n for n in doc["nodes"] if n["id"] == "planner")
    planner["params"]["prompt"] = "Plan how to achieve: {goal} (note marker-42: " + " ".join(SECRETS) + ")"
    workflow = write_doc(tmp_path / "pasted.triadic.json", doc)
    with otlp_receiver() as receiver:
        assert main(["run", str(workflow), "--db", str(db), "-q", "--otel", receiver.url,
                     "--otel-include-content"]) == 0
        run_id = next(line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
                      if line.startswith("run id: "))
        assert main(["otel", run_id, "--endpoint", receiver.url, "--db", str(db), "--include-content"]) == 0
    assert main(["otel", run_id, "--file", str(out), "--db", str(db), "--include-content"]) == 0
    exported = [*receiver.bodies, out.read_bytes()]
    assert len(exported) == 3
    for blob in exported:
        assert b"marker-42" in blob  # the prompt was exported …
        assert b"[REDACTED]" in blob
        for secret in SECRETS:  # … without the keys in it
            assert secret.encode() not in blob
