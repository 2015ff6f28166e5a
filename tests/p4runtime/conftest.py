import pytest

from p4rt_harness import RawClient, Rig


@pytest.fixture
def rig():
    rig = Rig()
    yield rig
    rig.close()


@pytest.fixture
def client(rig):
    """A primary raw client (election ID 10)."""
    c = RawClient(rig.address, election_id=10)
    c.arbitrate()
    yield c
    c.close()


@pytest.fixture
def shell(rig):
    """p4runtime-shell connected as primary; its global client is torn down after.

    Only the shell_p4rt_*.py suites use it, and test_p4rt_shell_suites.py runs them in
    child pytest processes: p4runtime-shell imports IPython, which puts a regular
    package named `tests` on sys.path and would shadow this repository's namespace
    package `tests` for every other test in the same process.
    """
    from p4runtime_sh import shell as sh
    opened = []

    def connect(p4info: str, device_json: str):
        sh.setup(device_id=0, grpc_addr=rig.address, election_id=(0, 1),
                 config=sh.FwdPipeConfig(p4info, device_json), verbose=False)
        opened.append(True)
        return sh

    yield connect
    if opened:
        sh.teardown()
