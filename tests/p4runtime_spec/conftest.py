"""Fixtures of the target-agnostic P4Runtime suite (see spec_target.py for what runs).

    .venv/bin/python -m pytest tests/p4runtime_spec                  # p4sim (root)
    SWITCH=simple_switch_grpc P4C=p4c-bm2-ss .venv/bin/python -m pytest tests/p4runtime_spec

`program` is compiled once per session.  `switch` is one switch process per test
module; `client` gives each test a primary controller on a freshly pushed pipeline
(SetForwardingPipelineConfig VERIFY_AND_COMMIT clears all forwarding state), so tests
do not see each other's entries.  `fresh_switch` is a switch of its own, for tests of
a device that never had a pipeline.
"""
import shutil

import pytest

from frames import Wire
from spec_client import Client
from spec_target import SwitchUnderTest, compile_program, make_log_dir


@pytest.fixture(scope="session")
def log_dir():
    path = make_log_dir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def program(log_dir):
    out = log_dir / "build"
    out.mkdir()
    return compile_program(out)


@pytest.fixture(scope="module")
def switch(log_dir):
    target = SwitchUnderTest(log_dir)
    yield target
    target.close()


@pytest.fixture
def fresh_switch(log_dir):
    target = SwitchUnderTest(log_dir)
    yield target
    target.close()


@pytest.fixture
def client(switch, program):
    """Primary with the suite's program committed."""
    c = Client(switch.address, election_id=switch.next_election_id())
    answer = c.arbitrate()
    assert answer.status.code == 0, answer
    c.set_pipeline(program)
    yield c
    c.close()


@pytest.fixture
def wire(switch):
    """The test's side of the switch's veths: frames in, frames out."""
    w = Wire(switch)
    yield w
    w.close()
