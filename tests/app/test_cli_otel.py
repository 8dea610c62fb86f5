"""`triadic otel` and `triadic run --otel`: a run sent to a real OTLP/HTTP receiver on 127.0.0.1, decoded
with the official protobuf messages — spans, parent links, GenAI attributes, verdict events, stable ids —
plus the JSON-lines file and the errors (refused, timeout, HTTP status, bad URL, unknown run)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from app.cli.main import main
from tests.app.cli_fixtures import EXAMPLE, ROOT
from tests.app.otlp_receiver import attributes, otlp_receiver

TOOLS = ROOT / "resources" / "examples" / "tools.triadic.json"


def _run(db: Path, capsys: pytest.CaptureFixture[str], *extra: str, example: Path = EXAMPLE) -> str:
    assert main(["run", str(example), "--db", str(db), "-q", *extra]) == 0
    out = capsys.readouterr().out
    return next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("run id: "))


@pytest.fixture
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    db = tmp_path / "t.db"
    return db, _run(db, capsys)


def test_a_run_reaches_the_receiver_as_one_genai_trace(stored: tuple[Path, str],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = stored
    with otlp_receiver() as receiver:
        assert main(["otel", run_id[:8], "--endpoint", receiver.url, "--db", str(db)]) == 0
    assert "exported" in capsys.readouterr().out
    assert receiver.paths == ["/v1/traces"] and receiver.content_types == ["application/x-protobuf"]
    spans = receiver.spans()
    assert len({s.trace_id for s in spans}) == 1
    by_id = {s.span_id: s for s in spans}
    roots = [s for s in spans if not s.parent_span_id]
    assert [attributes(r)["gen_ai.operation.name"] for r in roots] == ["invoke_workflow"]
    assert all(s.parent_span_id in by_id for s in spans if s.parent_span_id)
    ops = {s.span_id: attributes(s)["gen_ai.operation.name"] for s in spans}
    for s in spans:  # every model call sits under an agent (node execution), every agent under the run
        if ops[s.span_id] == "chat":
            assert ops[s.parent_span_id] == "invoke_agent" and s.kind == s.SPAN_KIND_CLIENT
            attrs = attributes(s)
            assert attrs["gen_ai.provider.name"] == "triadic.simulated"
            assert attrs["gen_ai.request.model"].startswith("sim/") and attrs["gen_ai.response.model"]
            assert attrs["gen_ai.usage.input_tokens"] > 0 and attrs["gen_ai.usage.output_tokens"] > 0
            assert "gen_ai.input.messages" not in attrs and "gen_ai.output.messages" not in attrs
        if ops[s.span_id] == "invoke_agent":
            assert s.parent_span_id == roots[0].span_id
        assert roots[0].start_time_unix_nano <= s.start_time_unix_nano <= s.end_time_unix_nano
        assert s.end_time_unix_nano <= roots[0].end_time_unix_nano
    root = attributes(roots[0])
    chats = [attributes(s) for s in spans if ops[s.span_id] == "chat"]
    assert root["gen_ai.usage.input_tokens"] == sum(c["gen_ai.usage.input_tokens"] for c in chats)
    assert root["triadic.run.id"] == run_id and root["triadic.cost_usd"] > 0
    evaluations = [(s, e) for s in spans for e in s.events if e.name == "gen_ai.evaluation.result"]
    assert evaluations, "the critic's verdicts are evaluation events"
    judged, event = evaluations[0]
    assert attributes(judged)["gen_ai.agent.name"] == "Execute"  # on the execution it judged
    assert {"gen_ai.evaluation.name", "gen_ai.evaluation.score.value", "gen_ai.evaluation.score.label"} <= set(
        attributes(event))


def test_exporting_twice_sends_the_same_ids_and_content_only_on_request(stored: tuple[Path, str]) -> None:
    db, run_id = stored
    with otlp_receiver() as receiver:
        assert main(["otel", run_id, "--endpoint", receiver.url + "/v1/traces", "--db", str(db)]) == 0
        assert main(["otel", run_id, "--endpoint", receiver.url, "--db", str(db), "--include-content"]) == 0
    first, second = receiver.requests()
    ids = [[(s.trace_id, s.span_id, s.parent_span_id, s.start_time_unix_nano) for rs in r.resource_spans
            for ss in rs.scope_spans for s in ss.spans] for r in (first, second)]
    assert ids[0] == ids[1]
    chat = next(attributes(s) for rs in second.resource_spans for ss in rs.scope_spans for s in ss.spans
                if s.name.startswith("chat "))
    messages = json.loads(chat["gen_ai.input.messages"])
    assert messages[0]["parts"][0]["type"] == "text" and "brewing green tea" in messages[0]["parts"][0]["content"]
    assert json.loads(chat["gen_ai.output.messages"])[0]["role"] == "assistant"


def test_tool_calls_are_execute_tool_spans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "tools.db"
    run_id = _run(db, capsys, example=TOOLS)
    with otlp_receiver() as receiver:
        assert main(["otel", run_id, "--endpoint", receiver.url, "--db", str(db), "--include-content"]) == 0
    tools = [attributes(s) for s in receiver.spans() if s.name.startswith("execute_tool ")]
    assert tools and all(t["gen_ai.operation.name"] == "execute_tool" and t["gen_ai.tool.name"] for t in tools)
    assert all("gen_ai.tool.call.arguments" in t for t in tools)


def test_json_lines_file_holds_one_otlp_request_per_run(stored: tuple[Path, str], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = stored
    other = _run(db, capsys)
    out = tmp_path / "runs.otlp.jsonl"
    assert main(["otel", run_id, other, "--file", str(out), "--db", str(db)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2
    spans = [s for line in lines for rs in line["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    assert all(len(s["traceId"]) == 32 and len(s["spanId"]) == 16 for s in spans)
    assert len({s["traceId"] for s in spans}) == 2 and all(isinstance(s["kind"], int) for s in spans)


def test_a_refused_endpoint_is_exit_1_naming_it(stored: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = stored
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert main(["otel", run_id, "--endpoint", f"http://127.0.0.1:{port}", "--db", str(db), "--timeout", "1"]) == 1
    err = capsys.readouterr().err
    assert f"http://127.0.0.1:{port}/v1/traces" in err and "could not connect" in err


def test_a_silent_receiver_times_out_and_an_http_error_is_named(stored: tuple[Path, str],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = stored
    with otlp_receiver() as receiver:
        receiver.silent = True
        assert main(["otel", run_id, "--endpoint", receiver.url, "--db", str(db), "--timeout", "0.5"]) == 1
    assert "no answer within 0.5 s" in capsys.readouterr().err
    with otlp_receiver() as receiver:
        receiver.answer = 400
        assert main(["otel", run_id, "--endpoint", receiver.url, "--db", str(db)]) == 1
    assert "answered HTTP 400" in capsys.readouterr().err


def test_bad_url_and_unknown_run_are_usage_errors(stored: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = stored
    assert main(["otel", run_id, "--endpoint", "127.0.0.1:4318", "--db", str(db)]) == 2
    assert "expected an http:// or https:// URL" in capsys.readouterr().err
    assert main(["otel", "zzzz", "--endpoint", "http://127.0.0.1:1", "--db", str(db)]) == 2
    assert "no run matches 'zzzz'" in capsys.readouterr().err
    assert main(["otel", run_id, "--db", str(db)]) == 2  # neither --endpoint nor --file


def test_run_with_otel_exports_when_it_ends_and_a_failed_export_keeps_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "live.db"
    with otlp_receiver() as receiver:
        run_id = _run(db, capsys, "--otel", receiver.url)
    assert {attributes(s).get("triadic.run.id") for s in receiver.spans()} >= {run_id}
    with otlp_receiver() as receiver:
        receiver.answer = 400
        assert main(["run", str(EXAMPLE), "--db", str(db), "-q", "--otel", receiver.url]) == 0  # the run succeeded
    err = capsys.readouterr().err
    assert "the run was not exported" in err and "answered HTTP 400" in err
