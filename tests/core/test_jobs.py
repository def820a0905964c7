"""Independent jobs: in order, the same in this process, in local processes and on a Dask cluster."""
import operator

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.core.jobs import check_workers, run_jobs


def test_results_come_back_in_order_whatever_the_workers():
    jobs = [(i, i + 1) for i in range(7)]
    expected = [a * b for a, b in jobs]
    assert run_jobs(operator.mul, jobs) == expected
    assert run_jobs(operator.mul, jobs, workers=2) == expected
    assert run_jobs(operator.mul, []) == []


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_workers_are_refused(bad):
    with pytest.raises(InvalidParameterError, match="workers"):
        check_workers(bad, 3)


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("wordbias.core.jobs.CONNECT_TIMEOUT", 2)      # the default waits 20 s
    with pytest.raises(ConnectionError, match="cannot reach the Dask scheduler"):
        run_jobs(operator.mul, [(1, 2)], scheduler="tcp://127.0.0.1:1")


def test_a_local_dask_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        assert run_jobs(operator.mul, [(i, 3) for i in range(5)], scheduler=c.scheduler_address) == \
            [0, 3, 6, 9, 12]


def test_default_workers_follows_the_environment_variable(monkeypatch):
    import os

    from wordbias.core.parallel import WORKERS_VARIABLE, default_workers

    monkeypatch.setenv(WORKERS_VARIABLE, "3")
    assert default_workers() == 3
    monkeypatch.delenv(WORKERS_VARIABLE)
    assert default_workers() == len(os.sched_getaffinity(0))
    for bad in ("0", "-1", "two", "1.5"):
        monkeypatch.setenv(WORKERS_VARIABLE, bad)
        with pytest.raises(ValueError, match=WORKERS_VARIABLE):
            default_workers()
