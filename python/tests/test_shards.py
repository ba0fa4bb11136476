"""Shards and their merge through the package: exactly the whole run."""

import json

import pytest

import regel


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_merged_shards_equal_the_whole_run(fmt):
    kw = dict(players=3, games=10, seed=5)
    whole = regel.simulate("rulesets/hasp/hasp.rules", format=fmt, **kw)
    parts = [regel.simulate("rulesets/hasp/hasp.rules", shard=(k, 4), **kw) for k in (3, 1, 4, 2)]
    assert regel.merge(parts, format=fmt) == whole
    code, out, err = regel.run(["simulate", "rulesets/hasp/hasp.rules", "--players", 3,
                                "--games", 10, "--seed", 5, "--format", fmt])
    assert (code, out, err) == (0, whole, "")


def test_a_missing_shard_is_refused():
    parts = [regel.simulate("examples/nim/nim.rules", 2, games=4, shard=(k, 3)) for k in (1, 2)]
    with pytest.raises(regel.RegelError, match="shard 3/3 of the run is missing") as e:
        regel.merge(parts)
    assert e.value.code == 2


def test_a_refused_run_raises():
    with pytest.raises(regel.RegelError, match="takes 2..2 players"):
        regel.simulate("examples/nim/nim.rules", 3, games=1)
    summary = json.loads(regel.simulate("examples/nim/nim.rules", 2, games=2))
    assert summary["games"] == 2
