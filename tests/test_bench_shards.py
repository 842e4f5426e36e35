"""``screenbot bench`` as seeded shards: the same seed gives the same totals and the same per-shard
fingerprints in one process, on two local worker processes and on a Dask cluster (a LocalCluster of two
worker processes that the test starts)."""

import json
import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from screenbot.bench import dask_engine
from screenbot.cli import main
from solver.bench import BenchConfig, play_game, play_shard, run_benchmark
from solver.shards import Shard, fingerprint, plan_shards

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration

# A small board and few games: the whole comparison takes seconds.
BENCH = ["bench", "--level", "beginner", "--rules", "opening", "--first", "2,2", "--games", "60", "--seed", "11",
         "--shard-size", "20", "--json"]


@pytest.fixture(scope="module")
def dask_cluster():
    """A Dask cluster of two worker processes (one thread each) on this machine, shut down after."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address


def bench_json(capsys, *extra: str) -> dict:
    code = main([*BENCH, *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def per_shard(report: dict) -> list[tuple]:
    return [(s["index"], s["start"], s["stop"], s["games"], s["wins"], s["fingerprint"]) for s in report["shards"]]


def test_shards_are_fixed_game_ranges():
    assert plan_shards(250, 100) == [Shard(0, 0, 100), Shard(1, 100, 200), Shard(2, 200, 250)]
    assert plan_shards(3, 100) == [Shard(0, 0, 3)]
    assert plan_shards(0, 5) == []
    with pytest.raises(ValueError):
        plan_shards(10, 0)


def test_same_seed_same_shards_in_one_process_two_workers_and_a_dask_cluster(dask_cluster, capsys):
    one = bench_json(capsys)
    two = bench_json(capsys, "--workers", "2")
    cluster = bench_json(capsys, "--cluster", dask_cluster)
    local = bench_json(capsys, "--cluster", "local", "--workers", "2")
    assert [r["engine"] for r in (one, two, cluster, local)] == ["process", "process", "dask", "dask"]
    assert (one["workers"], two["workers"], cluster["workers"], local["workers"]) == (1, 2, 2, 2)
    assert cluster["cluster"] == dask_cluster and one["cluster"] is None
    expected = per_shard(one)
    assert [s[:4] for s in expected] == [(0, 0, 20, 20), (1, 20, 40, 20), (2, 40, 60, 20)]
    assert sum(s[4] for s in expected) == one["wins"]
    for other in (two, cluster, local):
        assert per_shard(other) == expected
        assert (other["games"], other["wins"], other["fingerprint"]) == (one["games"], one["wins"], one["fingerprint"])
        assert other["guesses_per_game"] == one["guesses_per_game"]
    assert all(s["cpu_seconds"] > 0 for s in cluster["shards"])


def test_the_fingerprint_tells_other_games_apart(capsys):
    report = bench_json(capsys)
    other_seed = bench_json(capsys, "--seed", "12")
    assert report["fingerprint"] != other_seed["fingerprint"]
    config = BenchConfig(9, 9, 10, "opening", (2, 2), seed=11)
    games = [play_game(config, i) for i in range(5)]
    assert fingerprint(games) == play_shard(config, Shard(0, 0, 5)).fingerprint
    assert fingerprint(games) != fingerprint(games[:4])
    assert fingerprint(games) != fingerprint(games[::-1])  # the order of the games counts


def test_any_executor_plays_the_same_shards_and_progress_is_told():
    config = BenchConfig(8, 8, 10, games=30, seed=4)
    inline_calls, pooled_calls = [], []
    here, _ = run_benchmark(config, 10, progress=lambda played, won: inline_calls.append((played, won)))
    with ThreadPoolExecutor(2) as pool:
        pooled, _ = run_benchmark(config, 10, pool, slots=2, progress=lambda played, won: pooled_calls.append((played, won)))
    assert [s.fingerprint for s in here.shards] == [s.fingerprint for s in pooled.shards]
    assert [s.shard.index for s in pooled.shards] == [0, 1, 2]
    assert (here.wins, here.games) == (pooled.wins, pooled.games) == (inline_calls[-1][1], 30)
    assert [played for played, _ in inline_calls] == list(range(1, 31))  # in this process: every game
    assert [played for played, _ in pooled_calls] == [10, 20, 30]  # elsewhere: every shard
    assert pooled_calls[-1][1] == pooled.wins


def test_cluster_without_dask_installed_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now raises ImportError
    assert main([*BENCH, "--cluster", "local"]) == 2
    err = capsys.readouterr().err
    assert "--cluster needs the Python package 'distributed'" in err
    assert "pip install 'screenbot-minesweeper[cluster]'" in err and "Traceback" not in err
    assert main([*BENCH, "--games", "4"]) == 0  # without --cluster the bench needs no Dask


def test_an_unreachable_scheduler_fails_with_exit_1(monkeypatch, capsys):
    monkeypatch.setattr(dask_engine, "CONNECT_SECONDS", 1)
    assert main([*BENCH, "--cluster", "tcp://127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert "Dask cluster tcp://127.0.0.1:1: cannot connect" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cluster", "somewhere"], "expected 'local' or a scheduler address"),
        (["--cluster", "tcp://127.0.0.1:8786", "--workers", "2"], "--workers goes with no --cluster or with --cluster local"),
        (["--shard-size", "0"], "expected a number from 1"),
        (["--workers", "0"], "expected a number from 1"),
    ],
    ids=["cluster-not-an-address", "workers-with-a-scheduler", "shard-size-zero", "workers-zero"],
)
def test_bad_bench_options(args, message, capsys):
    assert main([*BENCH, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def _outcome(result) -> tuple:
    return result.won, result.guesses, result.approximate, len(result.decision_seconds)


def test_a_game_is_played_the_same_whatever_was_played_before_it():
    # Game 1474 of seed 1 (expert, safe) ends on an endgame search that runs out of work. Played
    # again right after, that search once carried on from the first one's work and chose otherwise.
    expert = BenchConfig(16, 30, 99, "safe", (0, 0), 2000, 1)
    assert _outcome(play_game(expert, 1474)) == _outcome(play_game(expert, 1474))
    # And games drawn at random: each the same after the one before it, right after itself, and
    # in the reverse order.
    print(REPLAY)
    rng = random.Random(SEED)
    config = BenchConfig(16, 30, 99, "safe", (0, 0), 10**6, SEED)
    games = rng.sample(range(10**6), 12)
    first = {k: _outcome(play_game(config, k)) for k in games}
    for k in games:
        assert _outcome(play_game(config, k)) == _outcome(play_game(config, k)) == first[k], (SEED, k)
    for k in reversed(games):
        assert _outcome(play_game(config, k)) == first[k], (SEED, k)
