"""`regel.dask.simulate` and `regel.dask.compare` on a local Dask cluster
of two workers equal one local run, byte for byte; a worker killed while it runs shards loses no game."""

import pytest

import regel
import regel.dask

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_a_dask_run_equals_a_local_run(client):
    kw = dict(games=24, seed=9)
    local = regel.simulate("rulesets/hasp/hasp.rules", 4, **kw)
    assert regel.dask.simulate(client, "rulesets/hasp/hasp.rules", 4, shards=6, **kw) == local
    text = regel.simulate("examples/yacht/yacht.rules", 2, format="text", **kw)
    assert regel.dask.simulate(client, "examples/yacht/yacht.rules", 2, format="text", **kw) == text
    # A comparison over the cluster stops where the local one stops.
    sides = ("examples/nim/nim.rules", "examples/nim/misere.rules")
    ckw = dict(games=300, batch=50, seed=4)
    local = regel.compare(*sides, 2, format="text", **ckw)
    assert "300 pairs" in local or "stopped: every interval" in local
    assert regel.dask.compare(client, *sides, 2, shards=4, format="text", **ckw) == local


def test_a_worker_killed_mid_run_loses_no_game(client):
    """One worker's process is ended while it runs a shard; the nanny starts
    it again and the scheduler runs the lost shard elsewhere. The merged
    summary still holds every game, the same as the local run's."""
    import os
    import signal
    import threading
    import time

    path = "rulesets/hansa-teutonica/hansa-teutonica.rules"
    # Three shards of twenty two-player Hansa Teutonica games: about a second
    # each on a 2-core machine, so a kill a tenth of a second after a shard is
    # seen running lands while it runs. (Two games a shard, as this test had,
    # took 0.1 s once the executor got faster: the kill came after the run.)
    kw = dict(games=60, seed=3, threads=1)
    result = {}
    run = threading.Thread(
        target=lambda: result.setdefault(
            "dask", regel.dask.simulate(client, path, 2, shards=3, **kw)
        )
    )
    run.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline:
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            time.sleep(0.1)
            killed = busy[0]
            # The worker's own process, which this test's cluster started.
            pid = client.run(os.getpid, workers=[killed])[killed]
            os.kill(pid, signal.SIGKILL)
        else:
            time.sleep(0.05)
    run.join(timeout=300)
    assert killed is not None, "no shard was seen running"
    assert "dask" in result, "the run did not finish"
    # The scheduler learns of the death from the nanny, which may be after the
    # other worker has finished the run: wait for it rather than race it.
    deadline = time.monotonic() + 30
    while killed in client.scheduler_info()["workers"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert killed not in client.scheduler_info()["workers"], "the worker was not ended"
    # The scheduler's own record of the removal: the dead worker took a shard
    # with it (running, or finished but not yet gathered), which ran again.
    removed = [
        msg
        for _, msg in client.get_events(killed)
        if isinstance(msg, dict) and msg.get("action") == "remove-worker"
    ]
    assert removed, "the scheduler logged no removal of the killed worker"
    lost = set(removed[-1]["processing-tasks"]) | set(removed[-1]["lost-computed-tasks"])
    assert lost, f"the killed worker held no shard: {removed[-1]}"
    assert result["dask"] == regel.simulate(path, 2, **kw)
