"""The OpenSpiel-style API on every shipped ruleset, variant and example.

Random games are played to their end through the API; and the games that
`regel simulate` plays for a seed (its records: every label chosen, the final
scores) are played again through the API and must end the same way, as the
summary of the same run says.
"""

import json
import random
import tomllib
from pathlib import Path

import pytest

import regel

from conftest import ROOT

RULES = sorted(
    str(p.relative_to(ROOT))
    for d in ("rulesets", "examples")
    for p in (ROOT / d).glob("*/*.rules")
)


def test_every_ruleset_is_found():
    assert len(RULES) >= 14, RULES
    assert "rulesets/hansa/house-thrifty.rules" in RULES


@pytest.mark.parametrize("path", RULES)
def test_random_games_end_through_the_api(path):
    probe = regel.load(path, 2)
    for players in sorted({probe.min_players, probe.max_players}):
        game = regel.load(path, players)
        assert game.num_players() == players
        assert len(game.seats()) == players
        rng = random.Random(players)
        for seed in range(2):
            state = game.new_initial_state(seed)
            first = state.observation_string(None)
            moves = 0
            while not state.is_terminal():
                seat = state.current_player()
                assert 0 <= seat < players
                actions = state.legal_actions()
                assert len(actions) >= 2, "a decision of one option is taken for the player"
                # Labels and views cost a rendering each: checked on the
                # first decisions only, so that long games stay quick.
                if moves < 20:
                    labels = state.legal_labels()
                    assert actions == list(range(len(labels)))
                    assert [state.action_to_string(a) for a in actions] == labels
                    assert state.view(seat) == state.observation_string(seat)
                state.apply_action(rng.choice(actions))
                moves += 1
            assert state.current_player() == regel.TERMINAL
            assert state.legal_actions() == []
            assert state.is_over(), f"{path}: seed {seed} stopped without ending"
            assert len(state.returns()) == players
            assert state.decisions() >= moves
            # The same seed starts the same match.
            assert game.new_initial_state(seed).observation_string(None) == first


@pytest.mark.parametrize("path", RULES)
def test_the_clis_seeded_games_replay_through_the_api(path, tmp_path):
    players = 2
    games, seed = 3, 17
    code, out, err = regel.run(
        ["simulate", path, "--players", players, "--games", games, "--seed", seed,
         "--format", "json", "--records", tmp_path]
    )
    summary = json.loads(out)
    game = regel.load(path, players)
    decisions, scores = [], [[] for _ in range(players)]
    wins = [0] * players
    for s in range(seed, seed + games):
        record = tomllib.loads((tmp_path / f"game-{s}.toml").read_text())
        state = game.new_match(s)
        for label in record["decisions"]:
            assert label in state.legal_options()
            state.apply(label)
        if "scores" not in record:
            continue  # the game failed in the CLI too (its error is in the summary)
        assert state.is_terminal() and state.is_over()
        assert state.returns() == record["scores"], f"{path} seed {s}"
        decisions.append(state.decisions())
        for i, v in enumerate(state.returns()):
            scores[i].append(v)
        if len(state.winners()) == 1:
            wins[state.winners()[0]] += 1
    assert summary["errors"] == games - len(decisions)
    assert code == (1 if summary["errors"] else 0), err
    if decisions:
        assert summary["decisions_min"] == min(decisions)
        assert summary["decisions_max"] == max(decisions)
        for i, seat in enumerate(summary["seats"]):
            assert seat["score_min"] == min(scores[i])
            assert seat["score_max"] == max(scores[i])
            assert seat["wins"] == wins[i]


def test_clone_is_independent():
    game = regel.load("examples/tic-tac-toe/tic-tac-toe.rules", 2)
    state = game.new_initial_state(1)
    state.apply_action(0)
    copy = state.clone()
    before = state.observation_string(None)
    regel.play_random(copy, random.Random(3))
    assert copy.is_terminal() and not state.is_terminal()
    assert state.observation_string(None) == before
    assert len(state.legal_actions()) == 8


def test_hidden_information_stays_hidden_per_seat():
    game = regel.load("rulesets/hasp/hasp.rules", 3)
    state = game.new_initial_state(4)
    views = [state.observation_string(s) for s in range(3)]
    assert len(set(views)) == 3, "each seat sees its own hand"
    assert state.observation_string(None) not in views


def test_options_and_errors():
    plain = regel.load("examples/nim/nim.rules", 2)
    capped = regel.load("examples/nim/nim.rules", 2, options={"max_take": 1, "misere": True})
    p, c = plain.new_initial_state(0), capped.new_initial_state(0)
    p.apply("heap 3")
    c.apply(2)
    # Taking at most one stick leaves one option, taken for the player.
    assert p.current_player() == 0 and p.legal_labels()[:2] == ["take 1", "take 2"]
    assert c.current_player() == 1 and c.legal_labels() == ["heap 1", "heap 2", "heap 3"]
    with pytest.raises(ValueError, match="no option `nope`"):
        regel.load("examples/nim/nim.rules", 2, options={"nope": 1})
    with pytest.raises(ValueError, match="players"):
        regel.load("examples/nim/nim.rules", 5)
    with pytest.raises(ValueError, match="E0"):
        regel.load("tests/errors/assign-option.rules", 2)
    state = plain.new_initial_state(0)
    with pytest.raises(ValueError, match="not a legal action"):
        state.action_to_string(999)
    with pytest.raises(RuntimeError):
        state.apply_action(999)
    with pytest.raises(RuntimeError):
        state.apply("not a label")
    with pytest.raises(ValueError, match="no such seat"):
        state.observation_string(7)
