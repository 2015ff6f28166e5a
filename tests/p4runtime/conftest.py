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
