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


def test_shards_with_a_deadline_merge_to_the_run_with_it():
    # A deadline no decision of Nim comes near: the games are the run's.
    kw = dict(players=2, games=9, seed=1, deadline=30)
    whole = regel.simulate("examples/nim/nim.rules", **kw)
    parts = [regel.simulate("examples/nim/nim.rules", shard=(k, 2), **kw) for k in (1, 2)]
    assert regel.merge(parts) == whole
    assert json.loads(whole)["games"] == 9


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


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_merged_compare_shards_equal_the_whole_comparison(fmt):
    sides = ("rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
             "rulesets/auf-heller-und-pfennig/open-tiles.rules")
    kw = dict(players=2, games=40, batch=15, seed=1)
    whole = regel.compare(*sides, format=fmt, **kw)
    parts = [regel.compare(*sides, shard=(k, 3), **kw) for k in (2, 3, 1)]
    assert regel.merge(parts, format=fmt) == whole
