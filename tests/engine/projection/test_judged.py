"""What a verdict judged and the round before it, which verdict gated a memory write, and the view's line diff."""

from __future__ import annotations

from engine import events as ev
from engine.projection import project
from engine.projection.judged import (
    artifact_text,
    gate_verdict_of,
    judged_artifact,
    previous_artifact,
    previous_write,
)
from engine.projection.text_diff import diff_texts


def _out(seq: int, node: str, value: object, port: str = "result", round_: int = 0) -> ev.Event:
    return ev.NodeOutput(run_id="r", seq=seq, ts=seq / 10, node_id=node, port=port, value=value, round=round_)


def _verdict(seq: int, judge: str, subject: str, decision: str, artifact: int | None, score: float = 0.5,
             round_: int = 0) -> ev.VerdictIssued:
    return ev.VerdictIssued(run_id="r", seq=seq, ts=seq / 10, node_id=judge, subject_node_id=subject,
                            decision=decision, score=score, artifact_seq=artifact, round=round_)  # type: ignore[arg-type]


def test_previous_artifact_is_the_earlier_verdicts_or_the_earlier_output_on_that_port() -> None:
    p = project([
        _out(1, "w", "v1"), _out(2, "w", "other port", port="notes"),
        _verdict(3, "c", "w", "revise", 1),
        _out(4, "w", "v2", round_=1), _verdict(5, "c", "w", "revise", 4),
        _verdict(6, "c2", "w", "approve", 4),  # a second judge of the same artifact
        _out(7, "w", "v3", round_=2), _out(8, "w", "v4", round_=3), _verdict(9, "c", "w", "approve", 8),
    ])
    first, second, same, last = p.verdicts
    assert judged_artifact(p, first) is p.artifacts[1] and previous_artifact(p, first) is None
    assert previous_artifact(p, second) is p.artifacts[1]
    assert previous_artifact(p, same) is p.artifacts[1]  # not the artifact it judges itself
    assert previous_artifact(p, last) is p.artifacts[4]  # the round judged before, not the unjudged v3
    unjudged = project([_out(1, "w", "a"), _out(2, "w", "b"), _verdict(3, "c", "w", "approve", 2)])
    assert previous_artifact(unjudged, unjudged.verdicts[0]) is unjudged.artifacts[1]  # no earlier verdict
    nothing = project([_verdict(1, "c", "w", "approve", None)])
    assert judged_artifact(nothing, nothing.verdicts[0]) is None and previous_artifact(nothing, nothing.verdicts[0]) is None


def test_the_gate_verdict_of_a_memory_write_is_the_one_its_reason_names() -> None:
    def write(seq: int, admitted: bool, reason: str) -> ev.Event:
        return ev.MemoryWritten(run_id="r", seq=seq, ts=0, node_id="m", memory="x", scope="run", key="k",
                                value=1, admitted=admitted, reason=reason)
    p = project([
        _verdict(1, "c", "w", "approve", None, score=0.91), _verdict(2, "c", "w", "reject", None, score=0.1),
        write(3, True, "gate approved (score 0.91)"),
        write(4, False, "gate verdict was reject (score 0.10): wrong"),
        write(5, True, "not gated"), write(6, True, ""),
        _verdict(7, "c", "w", "approve", None, score=0.91),
        write(8, False, "gated write without a gate verdict: connect a critic or verifier to the gate port"),
    ])
    w = p.memory_writes
    assert gate_verdict_of(p, w[0]) is p.verdicts[0]
    assert gate_verdict_of(p, w[1]) is p.verdicts[1]
    assert gate_verdict_of(p, w[2]) is None and gate_verdict_of(p, w[3]) is None and gate_verdict_of(p, w[4]) is None
    assert previous_write(p, w[0]) is None
    assert previous_write(p, w[1]) is w[0]  # refused: what it would have replaced
    assert previous_write(p, w[2]) is w[0] and previous_write(p, w[4]) is w[3]  # refused ones skipped


def test_artifact_text_and_line_diff() -> None:
    assert artifact_text("a\nb") == "a\nb" and artifact_text(None) == ""
    assert artifact_text({"b": 1, "a": [1, 2]}) == '{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}'
    old = "\n".join(f"line {i}" for i in range(30))
    new = old.replace("line 3\n", "line three\n").replace("line 25", "line 25\nextra")
    diff = diff_texts(old, new)
    assert (diff.added, diff.removed) == (2, 1)
    assert [line.text for line in diff.unified if line.tag in "+-"] == ["line 3", "line three", "extra"]
    assert [line.tag for line in diff.unified].count("@") == 2 and diff.unified[-1].tag == "~"
    side = [r for r in diff.side_by_side if r.tag != "equal"]
    assert [(r.tag, r.old_no, r.new_no) for r in side if r.tag != "skip"] == [("replace", 4, 4), ("insert", None, 27)]
    whole = diff_texts(old, new, context=None)
    assert len(whole.side_by_side) == 31 and not any(r.tag == "skip" for r in whole.side_by_side)
    assert diff_texts(old, old).identical and diff_texts(old, old).unified == []
